#pragma once
/// @file layout_text.h
/// @brief Small text helpers shared by the layout parsers (internal to calibration/ingest).
///
/// Everything here is hand-written scanning, linear in the input: no std::regex (it recurses
/// per character and overflows the stack on a multi-megabyte line).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace socsim::ingest::text {

/// One physical line of a document; `number` is 1-based. Views point into the document text.
struct Line {
  int number = 0;
  std::string_view text;  ///< without the line terminator ("\n", "\r\n")
};

/// Splits on '\n'; a trailing '\r' is removed. A final line without terminator is kept.
inline std::vector<Line> splitLines(std::string_view s) {
  std::vector<Line> out;
  std::size_t start = 0;
  int n = 1;
  while (start <= s.size()) {
    std::size_t nl = s.find('\n', start);
    std::size_t end = nl == std::string_view::npos ? s.size() : nl;
    std::string_view l = s.substr(start, end - start);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    if (nl == std::string_view::npos) {
      if (!l.empty()) out.push_back({n, l});
      break;
    }
    out.push_back({n++, l});
    start = nl + 1;
  }
  return out;
}

inline bool isAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}
inline bool isDigit(char c) {
  return c >= '0' && c <= '9';
}
inline bool isAlpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
inline bool isUpper(char c) {
  return c >= 'A' && c <= 'Z';
}

/// Trims ASCII whitespace only (a lone NBSP is a meaningful blank cell in the spaced layout).
inline std::string_view trim(std::string_view s) {
  while (!s.empty() && isAsciiSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isAsciiSpace(s.back())) s.remove_suffix(1);
  return s;
}

inline bool startsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(0, p.size()) == p;
}
inline bool endsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}
inline bool contains(std::string_view s, std::string_view p) {
  return s.find(p) != std::string_view::npos;
}

constexpr std::string_view kNbsp = "\xC2\xA0";
constexpr std::string_view kPilcrow = "\xC2\xB6";

/// True for a token made only of U+00A0 (the spaced layout's blank cell).
inline bool isNbspOnly(std::string_view t) {
  if (t.empty()) return false;
  while (!t.empty()) {
    if (!startsWith(t, kNbsp)) return false;
    t.remove_prefix(kNbsp.size());
  }
  return true;
}

/// Splits on ASCII space only, dropping empty tokens (NBSP stays inside tokens).
inline std::vector<std::string_view> splitSpaces(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

inline std::string join(const std::vector<std::string_view>& toks, std::size_t from,
                        std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to && i < toks.size(); ++i) {
    if (!out.empty()) out += ' ';
    out.append(toks[i].data(), toks[i].size());
  }
  return out;
}

/// Plain decimal number: optional sign, digits, optional '.' and digits ("187.41", "-3", "16").
inline bool isNumber(std::string_view s) {
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) s.remove_prefix(1);
  std::size_t i = 0, digits = 0;
  while (i < s.size() && isDigit(s[i])) ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && isDigit(s[i])) ++i, ++digits;
  }
  return digits > 0 && i == s.size();
}

/// Number with a decimal point ("0.00", "187.41"); 003 tells values from keys by it.
inline bool isDecimalNumber(std::string_view s) {
  return isNumber(s) && contains(s, ".");
}

/// "(min A, max B)" with A and B numbers, single spaces as printed.
inline bool isMinMaxSuffix(std::string_view s) {
  if (!startsWith(s, "(min ") || !endsWith(s, ")")) return false;
  s = s.substr(5, s.size() - 6);
  std::size_t comma = s.find(", max ");
  if (comma == std::string_view::npos) return false;
  return isNumber(s.substr(0, comma)) && isNumber(s.substr(comma + 6));
}

/// A 003 value line: decimal number, optionally followed by " (min A, max B)".
inline bool isValueLine(std::string_view s) {
  s = trim(s);
  std::size_t sp = s.find(' ');
  if (sp == std::string_view::npos) return isDecimalNumber(s);
  return isDecimalNumber(s.substr(0, sp)) && isMinMaxSuffix(s.substr(sp + 1));
}

/// A board column id as printed before ':' ("am335x-evm", "j722s_evm-fs"): letters, digits,
/// '-', '_', '.'; it must hold a letter, a digit and a '-' or '_' (so prose such as "Note:",
/// "Latency:" or "CPSW2g:" is not taken for one).
inline bool isBoardId(std::string_view s) {
  if (s.empty() || s.size() > 64) return false;
  if (!isAlpha(s.front()) && !isDigit(s.front())) return false;
  bool letter = false, digit = false, sep = false;
  for (char c : s) {
    if (isAlpha(c))
      letter = true;
    else if (isDigit(c))
      digit = true;
    else if (c == '-' || c == '_')
      sep = true;
    else if (c != '.')
      return false;
  }
  return letter && digit && sep;
}

/// A token "<board-id>:" of a spaced header.
inline bool isBoardLabelToken(std::string_view t) {
  return t.size() >= 2 && t.back() == ':' && isBoardId(t.substr(0, t.size() - 1));
}

/// A whole line "<board-id>: metric" (pipe and cell-per-line column labels).
inline bool isColumnLabel(std::string_view s) {
  s = trim(s);
  std::size_t c = s.find(':');
  if (c == std::string_view::npos || c == 0) return false;
  if (c + 1 < s.size() && s[c + 1] != ' ') return false;
  return isBoardId(s.substr(0, c));
}

/// Removes a trailing pilcrow (002 headings "2.2.1.1. LMBench¶") and surrounding space.
inline std::string_view stripPilcrow(std::string_view s) {
  s = trim(s);
  while (endsWith(s, kPilcrow)) {
    s.remove_suffix(kPilcrow.size());
    s = trim(s);
  }
  return s;
}

/// A numbered heading "2.2.1.1. LMBench" (at least two number groups, trailing '.', a space,
/// then text). Returns depth (number of groups) and the heading as printed, pilcrow removed.
inline std::optional<std::pair<int, std::string>> parseHeading(std::string_view line) {
  if (line.empty() || !isDigit(line.front())) return std::nullopt;  // not an indented list item
  std::string_view s = stripPilcrow(line);
  std::size_t i = 0;
  int groups = 0;
  while (i < s.size() && isDigit(s[i])) {
    std::size_t start = i;
    while (i < s.size() && isDigit(s[i])) ++i;
    if (i - start > 4 || i >= s.size() || s[i] != '.') return std::nullopt;
    ++i;
    ++groups;
  }
  if (groups < 2 || i >= s.size() || s[i] != ' ') return std::nullopt;
  std::string_view rest = trim(s.substr(i));
  if (rest.empty()) return std::nullopt;
  return std::make_pair(groups, std::string(s));
}

/// Stack of numbered headings, outermost first.
class HeadingStack {
 public:
  void push(int depth, std::string text) {
    while (!stack_.empty() && stack_.back().first >= depth) stack_.pop_back();
    stack_.emplace_back(depth, std::move(text));
  }
  std::vector<std::string> sections() const {
    std::vector<std::string> out;
    out.reserve(stack_.size());
    for (const auto& e : stack_) out.push_back(e.second);
    return out;
  }
  /// 000: the deepest "... Performance Guide" heading names the part: "rt" when it says RT,
  /// "kernel" when it says Kernel, "" otherwise.
  std::string part() const {
    for (auto it = stack_.rbegin(); it != stack_.rend(); ++it) {
      const std::string& t = it->second;
      if (!contains(t, "Performance Guide")) continue;
      if (contains(t, " RT ") || contains(t, " RT-") || contains(t, "RT Kernel") ||
          contains(t, "Real-Time") || contains(t, "Real Time"))
        return "rt";
      if (contains(t, "Kernel")) return "kernel";
      return "";
    }
    return "";
  }

 private:
  std::vector<std::pair<int, std::string>> stack_;
};

/// "Table: X" caption line -> X (trimmed); nullopt for any other line.
inline std::optional<std::string> colonCaption(std::string_view line) {
  std::string_view s = trim(line);
  if (!startsWith(s, "Table:")) return std::nullopt;
  return std::string(trim(s.substr(6)));
}

/// Board-description name/description split for a spaced "Name Description" row:
/// the name is the first token plus following all-capital words ("AM572x EVM", "K2HK EVM").
inline std::pair<std::string, std::string> splitBoardNameDescription(std::string_view line) {
  std::vector<std::string_view> t = splitSpaces(trim(line));
  if (t.empty()) return {};
  std::size_t n = 1;
  while (n + 1 < t.size()) {
    bool allUpper = t[n].size() >= 2;
    for (char c : t[n])
      if (!isUpper(c)) allUpper = false;
    if (!allUpper) break;
    ++n;
  }
  return {join(t, 0, n), join(t, n, t.size())};
}

}  // namespace socsim::ingest::text
