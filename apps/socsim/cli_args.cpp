// Argument checks shared by the subcommands: comma lists, globs, known names.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "apps/socsim/commands.h"
#include "calibration/dataset/vocabulary.h"
#include "common/error.h"
#include "soc/config/config_tree.h"

namespace socsim::app {

namespace {

std::string trimmed(const std::string& s) {
  const char* ws = " \t\r\n";
  size_t b = s.find_first_not_of(ws);
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

/// The items of `list`, each trimmed; "" when an item is empty (the caller reports it).
std::vector<std::string> items(const std::string& list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    out.push_back(trimmed(list.substr(start, end - start)));
    start = end + 1;
  }
  return out;
}

}  // namespace

std::vector<std::string> splitCommaList(const std::string& list) {
  if (list.empty()) return {};
  return items(list);
}

bool inCommaList(const std::string& list, const std::string& v) {
  if (list.empty()) return true;
  for (const auto& item : items(list))
    if (item == v) return true;
  return false;
}

CLI::Validator commaList() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        std::string joined;
        for (const auto& item : items(value)) {
          if (item.empty())
            return "empty name in the list '" + value +
                   "' (expected comma-separated names, e.g. a,b)";
          joined += (joined.empty() ? "" : ",") + item;
        }
        value = joined;
        return "";
      },
      "LIST");
}

std::string globError(const std::string& glob) {
  if (glob.empty()) return "empty pattern (expected a name or a glob such as 'lat_*')";
  for (size_t i = 0; i < glob.size(); ++i) {
    if (glob[i] == '\\') {
      if (++i == glob.size()) return "malformed pattern '" + glob + "': it ends with a backslash";
    } else if (glob[i] == '[') {
      // A bracket expression: an optional '!' or '^', then a ']' that closes it (a ']' right
      // after the opening is a member, as in fnmatch).
      size_t j = i + 1;
      if (j < glob.size() && (glob[j] == '!' || glob[j] == '^')) ++j;
      if (j < glob.size() && glob[j] == ']') ++j;
      size_t close = glob.find(']', j);
      if (close == std::string::npos)
        return "malformed pattern '" + glob + "': '[' at position " + std::to_string(i + 1) +
               " is not closed by ']' (write \\[ for a literal bracket)";
      i = close;
    }
  }
  return "";
}

CLI::Validator globPattern() {
  return CLI::Validator([](std::string& value) { return globError(value); }, "GLOB");
}

CLI::Validator atLeastOne() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        try {
          size_t used = 0;
          long v = std::stol(value, &used);
          if (used == value.size() && v >= 1) return "";
        } catch (const std::exception&) {
        }
        return "expected a whole number of at least 1, got '" + value + "'";
      },
      "N>=1");
}

void requireKnown(const std::string& list, const std::set<std::string>& known,
                  const std::string& option, const std::string& what) {
  std::vector<std::string> names(known.begin(), known.end());
  std::string all;
  for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
  for (const auto& v : splitCommaList(list)) {
    if (known.count(v)) continue;
    std::string hint = config::suggestion(v, names);
    if (hint.find("did you mean") == std::string::npos) hint.clear();
    throw InputError("", 0, option,
                     "no " + what + " '" + v + "' in the measured data" + hint + "; known: " + (all.empty() ? "(none)" : all));
  }
}

void requireFamilies(const std::string& list, const std::string& option) {
  const auto& fams = calib::measuredFamilies();
  for (const auto& v : splitCommaList(list)) {
    if (calib::isMeasuredFamily(v)) continue;
    std::string hint = config::suggestion(v, fams);
    if (hint.find("did you mean") == std::string::npos) hint.clear();
    throw InputError("", 0, option,
                     "no family '" + v + "'" + hint + " (the families: " + calib::joinNames(fams) + ")");
  }
}

int checkStdout(int status) {
  errno = 0;
  std::cout.flush();
  int err = errno;
  bool failed = !std::cout.good();
  if (std::fflush(stdout) != 0) {
    failed = true;
    if (!err) err = errno;
  }
  if (std::ferror(stdout)) failed = true;
  if (!failed) return status;
  std::cerr << "socsim: error: writing the results to standard output failed"
            << (err ? std::string(": ") + std::strerror(err) : std::string()) << "\n";
  return status == 0 ? 1 : status;
}

std::size_t terminalColumns(std::size_t fallback) {
  const char* c = std::getenv("COLUMNS");
  if (!c || !*c) return fallback;
  char* end = nullptr;
  unsigned long v = std::strtoul(c, &end, 10);
  return *end == '\0' && v >= 60 && v <= 100000 ? static_cast<std::size_t>(v) : fallback;
}

}  // namespace socsim::app
