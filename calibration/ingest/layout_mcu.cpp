// Layout parser for the MCU+ SDK datasheet (seed 004): ad-hoc tables that emit finished
// MeasuredRows (ParsedDocument::directRows), the SOC details as a BoardDescription, and a
// Diagnostic for every oddity (ragged rows, '-' cells, header/caption contradictions, ...).
//
// Document model (no numbered headings in this layout):
// - a heading is a line with a blank line (or the file edge) above and below it;
// - a "chapter" is a heading directly followed by another heading ("CPSW Performance" then
//   "TCP Test"); a "leaf" heading is followed by bullets or a table;
// - a board marker is a heading-like line that is a board id ("AM64X-EVM");
// - bullets ("  • key : value") give the set-up facts that become params;
// - a table starts at a recognised header line and runs until a blank line, a bullet or the
//   next header; separator lines of dashes inside a table are skipped.
// Row schema decisions:
// - section = the chapter when it names a benchmark area (its family is known), otherwise the
//   leaf heading; table = the leaf heading, plus the qualifier bullet ("FIR operation",
//   "For Packet Size: 256 B") when one heading holds several tables;
// - board: the document's default is the title's SoC ("AM64x MCU+ SDK" -> am64x-evm); a board
//   marker or a caption "(...)" overrides it. "am64x/243x emvs" maps to am64x-evm (the AM64x and
//   AM243x EVMs share the board; this datasheet is the AM64x one); the printed name is kept in a
//   Diagnostic, not in params, because params must be reproducible by a workload;
// - composite cells "TX = 87 + RX = 87" become one row per part with `stream=tx|rx`; their sum is
//   not printed, so it is not written (a consumer can add the two rows);
// - '-' is "not measured": no row, counted in a per-table Diagnostic;
// - a printed 0.00 where a latency/time is expected is written and flagged `zero-not-measured`.
// Never throws: malformed text gives fewer rows and more diagnostics.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "calibration/ingest/layouts.h"
#include "common/format.h"
#include "common/table.h"

namespace socsim::ingest {
namespace {

constexpr std::string_view kBullet = "\xE2\x80\xA2";  // U+2022
constexpr int kMaxUnparsedDiagnostics = 50;

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && isSpace(s[b])) ++b;
  while (e > b && isSpace(s[e - 1])) --e;
  return std::string(s.substr(b, e - b));
}

std::string lower(std::string s) {
  for (auto& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

std::string upper(std::string s) {
  for (auto& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

/// Split on ASCII blanks only (an NBSP stays inside its token and makes it non-numeric).
std::vector<std::string> tokenize(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && isSpace(s[i])) ++i;
    size_t b = i;
    while (i < s.size() && !isSpace(s[i])) ++i;
    if (i > b) out.emplace_back(s.substr(b, i - b));
  }
  return out;
}

std::string join(const std::vector<std::string>& t, size_t b, size_t e, const char* sep = " ") {
  std::string s;
  for (size_t i = b; i < e && i < t.size(); ++i) {
    if (i > b) s += sep;
    s += t[i];
  }
  return s;
}

bool startsWith(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

/// A plain decimal number: [+-]digits[.digits] (no exponent, no unit, finite).
std::optional<double> number(std::string_view t) {
  if (t.empty()) return std::nullopt;
  size_t i = (t[0] == '-' || t[0] == '+') ? 1 : 0;
  bool digits = false, dot = false;
  for (size_t j = i; j < t.size(); ++j) {
    char c = t[j];
    if (c >= '0' && c <= '9')
      digits = true;
    else if (c == '.' && !dot)
      dot = true;
    else
      return std::nullopt;
  }
  if (!digits) return std::nullopt;
  if (t[0] == '+') t.remove_prefix(1);
  double v = 0;
  auto r = std::from_chars(t.data(), t.data() + t.size(), v);
  if (r.ec != std::errc() || r.ptr != t.data() + t.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

bool isDash(const std::string& t) {
  return t == "-" || t == "\xE2\x80\x94" || t == "\xE2\x80\x93";
}

/// A separator line made only of '-', em/en dashes and blanks.
bool isSeparator(std::string_view s) {
  bool any = false;
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '-') {
      any = true;
      ++i;
    } else if (isSpace(s[i]))
      ++i;
    else if (s.substr(i, 3) == "\xE2\x80\x94" || s.substr(i, 3) == "\xE2\x80\x93") {
      any = true;
      i += 3;
    } else
      return false;
  }
  return any;
}

/// Normalized unit (DESIGN.md vocabulary) of a unit as printed; "" when unknown.
std::string normUnit(const std::string& printed) {
  static const std::map<std::string, std::string> m = {
      {"ms", "ms"},       {"us", "us"},         {"\xC2\xB5s", "us"},
      {"sec", "s"},       {"s", "s"},           {"mbps", "Mbit/s"},
      {"mb/s", "Mbit/s"}, {"mbit/s", "Mbit/s"}, {"mbits/sec", "Mbit/s"},
      {"%", "%"},         {"msg/sec", "msg/s"}, {"msg/s", "msg/s"},
      {"mbytes", "MiB"},  {"kbytes", "KiB"},    {"cycles", "cycles"},
      {"/sec", "ops/s"}};
  auto it = m.find(lower(trim(printed)));
  return it == m.end() ? std::string() : it->second;
}

/// "Time (ms)" -> {"Time", "ms"}; "CPU load(%)" -> {"CPU load", "%"}.
std::pair<std::string, std::string> labelAndUnit(const std::string& label) {
  size_t open = label.rfind('(');
  size_t close = label.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open)
    return {trim(label), ""};
  return {trim(label.substr(0, open)), normUnit(label.substr(open + 1, close - open - 1))};
}

/// Bytes of "32.00" "KB" (iperf/SDK style: K = 1024); nullopt for anything else.
std::optional<double> bytesOf(const std::string& num, const std::string& unit) {
  auto v = number(num);
  if (!v || *v < 0 || *v > 1e15) return std::nullopt;
  std::string u = lower(unit);
  double mul;
  if (u == "b" || u == "bytes" || u == "byte")
    mul = 1;
  else if (u == "kb" || u == "kbyte" || u == "kbytes" || u == "kib")
    mul = 1024;
  else if (u == "mb" || u == "mbyte" || u == "mbytes" || u == "mib")
    mul = 1024.0 * 1024;
  else
    return std::nullopt;
  return *v * mul;
}

/// "256 KB", "1500 B", "400 Bytes", "85.0 KByte", "256KB" -> bytes.
std::optional<double> bytesOfText(const std::string& text) {
  auto t = tokenize(text);
  if (t.size() == 2) return bytesOf(t[0], t[1]);
  if (t.size() == 1) {
    size_t i = 0;
    while (i < t[0].size() && ((t[0][i] >= '0' && t[0][i] <= '9') || t[0][i] == '.')) ++i;
    if (i > 0 && i < t[0].size()) return bytesOf(t[0].substr(0, i), t[0].substr(i));
  }
  return std::nullopt;
}

/// "50MHz", "166.667 MHz (Octal DDR mode)", "80MHz" -> MHz.
std::optional<double> mhzOfText(const std::string& text) {
  std::string s = lower(text);
  size_t p = s.find("mhz");
  if (p == std::string::npos) return std::nullopt;
  return number(trim(s.substr(0, p)));
}

/// Board id from a printed board name; "" when it does not look like one.
std::string mapBoard(const std::string& printed) {
  std::string s = lower(trim(printed));
  if (!(startsWith(s, "am") || startsWith(s, "j7"))) return "";
  size_t cut = s.find_first_of("/-_ ");
  std::string soc = s.substr(0, cut);
  if (soc.size() < 3) return "";
  std::string rest = cut == std::string::npos ? "" : s.substr(cut);
  if (rest.find("lp") != std::string::npos || rest.find("launchpad") != std::string::npos)
    return soc + "-lp";
  if (rest.find("evm") != std::string::npos || rest.find("emv") != std::string::npos)
    return soc + "-evm";
  if (rest.find("idk") != std::string::npos) return soc + "-idk";
  return "";
}

bool looksLikeBoardMarker(const std::string& line) {
  auto t = tokenize(line);
  return t.size() == 1 && t[0].find('-') != std::string::npos && !mapBoard(t[0]).empty();
}

/// Family (DESIGN.md vocabulary) named by a heading; "" when none.
std::string familyOfHeading(const std::string& heading) {
  std::vector<std::string> words;
  std::string w;
  for (char c : upper(heading) + " ") {
    if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
      w += c;
    else if (!w.empty()) {
      words.push_back(w);
      w.clear();
    }
  }
  auto has = [&](std::initializer_list<const char*> keys) {
    for (const auto& x : words)
      for (const char* k : keys)
        if (x == k) return true;
    return false;
  };
  if (has({"USB", "RNDIS"})) return "usb";
  if (has({"SBL", "BOOT"})) return "boot";
  if (has({"XIP"})) return "xip";
  if (has({"MCAN"})) return "mcan";
  if (has({"MCSPI"})) return "mcspi";
  if (has({"CPSW", "TCP", "UDP", "ETHERNET", "ENET", "LWIP"})) return "ethernet";
  if (has({"IPC", "RPMSG", "NOTIFY"})) return "ipc";
  if (has({"MATHLIB"})) return "mathlib";
  if (has({"SA2UL", "PKA", "SHA", "AES", "RSA", "ECDSA"})) return "sa2ul";
  return "";
}

/// "abc Def/x 1" -> "abc-def-x-1".
std::string slug(const std::string& s) {
  std::string out;
  for (char c : lower(s)) {
    bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.';
    if (alnum)
      out += c;
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

enum class Kind {
  None,
  Boot,
  Xip,
  Mcan,
  Mcspi,
  Tcp,
  Udp,
  Ipc,
  Mathlib,
  Pka,
  Sha,
  Cipher,
  Iperf,
  Soc,
  Opt
};

Kind headerKind(const std::string& collapsedLower) {
  const std::string& h = collapsedLower;
  if (startsWith(h, "boot time breakdown")) return Kind::Boot;
  if (startsWith(h, "caching status")) return Kind::Xip;
  if (startsWith(h, "frame type ")) return Kind::Mcan;
  if (startsWith(h, "number of words")) return Kind::Mcspi;
  if (startsWith(h, "tcp direction")) return Kind::Tcp;
  if (startsWith(h, "tx side bw")) return Kind::Udp;
  if (startsWith(h, "local core remote core")) return Kind::Ipc;
  if (startsWith(h, "function err")) return Kind::Mathlib;
  if (h.find("sign/sec") != std::string::npos) return Kind::Pka;
  if (startsWith(h, "sha size")) return Kind::Sha;
  if (startsWith(h, "key length operation size")) return Kind::Cipher;
  if (startsWith(h, "id interval transfer bandwidth")) return Kind::Iperf;
  if (startsWith(h, "soc details")) return Kind::Soc;
  if (startsWith(h, "optimization details")) return Kind::Opt;
  return Kind::None;
}

const char* defaultFamily(Kind k) {
  switch (k) {
    case Kind::Boot:
      return "boot";
    case Kind::Xip:
      return "xip";
    case Kind::Mcan:
      return "mcan";
    case Kind::Mcspi:
      return "mcspi";
    case Kind::Tcp:
    case Kind::Udp:
      return "ethernet";
    case Kind::Ipc:
      return "ipc";
    case Kind::Mathlib:
      return "mathlib";
    case Kind::Pka:
    case Kind::Sha:
    case Kind::Cipher:
      return "sa2ul";
    case Kind::Iperf:
      return "ethernet";
    default:
      return "";
  }
}

using Params = std::map<std::string, std::string>;

std::string joinParams(const Params& p) {
  std::string s;
  for (const auto& [k, v] : p) {
    if (v.empty()) continue;
    if (!s.empty()) s += ';';
    s += k + "=" + v;
  }
  return s;
}

/// One value cell of a row: a number, '-', or a composite "TX = 87 + RX = 87".
struct Cell {
  enum Type { Number, Dash, Composite, Bad } type = Bad;
  double value = 0;
  std::vector<std::pair<std::string, double>> parts;
  std::string text;
};

/// Cells from tokens[i..]: numbers, '-', and composites NAME = NUM (+ NAME = NUM)*.
std::vector<Cell> scanCells(const std::vector<std::string>& t, size_t i) {
  std::vector<Cell> out;
  while (i < t.size()) {
    Cell c;
    c.text = t[i];
    if (isDash(t[i])) {
      c.type = Cell::Dash;
      ++i;
    } else if (auto v = number(t[i])) {
      c.type = Cell::Number;
      c.value = *v;
      ++i;
    } else if (i + 2 < t.size() && t[i + 1] == "=" && number(t[i + 2])) {
      c.type = Cell::Composite;
      while (i + 2 < t.size() && t[i + 1] == "=") {
        auto v2 = number(t[i + 2]);
        if (!v2) break;
        c.parts.emplace_back(t[i], *v2);
        i += 3;
        if (i < t.size() && t[i] == "+" && i + 3 < t.size() && t[i + 2] == "=")
          ++i;
        else
          break;
      }
    } else {
      c.type = Cell::Bad;
      ++i;
    }
    out.push_back(std::move(c));
  }
  return out;
}

struct TableState {
  Kind kind = Kind::None;
  int headerLine = 0;
  std::string header;  // collapsed, as printed
  std::string section, caption, family, board, benchmarkBase;
  Params base;       // params common to every row of the table
  std::string flag;  // flag common to every row of the table
  int dashes = 0;
  int rows = 0;
  bool lastRowBad = false;  // the latest row was not understood
  // Kind-specific
  std::vector<std::string> modes;    // Mcspi
  std::vector<std::string> metrics;  // Pka
  bool ipcHasSize = false;
  double bootSum = 0;
  std::vector<std::string> textRows;  // Soc / Opt
};

class McuParser {
 public:
  McuParser(const std::string& text, const std::string& source) : source_(source) {
    size_t b = 0;
    while (b <= text.size()) {
      size_t e = text.find('\n', b);
      if (e == std::string::npos) e = text.size();
      std::string l = text.substr(b, e - b);
      while (!l.empty() && (l.back() == '\r' || l.back() == ' ' || l.back() == '\t')) l.pop_back();
      lines_.push_back(std::move(l));
      if (e == text.size()) break;
      b = e + 1;
    }
    doc_.source = source;
    doc_.layout = Layout::Mcu;
  }

  ParsedDocument run() {
    defaultBoard();
    const int n = static_cast<int>(lines_.size());
    std::vector<bool> headingLike(n, false);
    for (int i = 0; i < n; ++i) headingLike[i] = isHeadingCandidate(i);
    for (int i = 0; i < n; ++i) {
      const std::string& raw = lines_[i];
      std::string t = trim(raw);
      int lineNo = i + 1;
      std::string collapsed = join(tokenize(t), 0, static_cast<size_t>(-1));
      Kind k = t.empty() ? Kind::None : headerKind(lower(collapsed));
      if (table_.kind != Kind::None) {
        if (t.empty() || startsWith(t, kBullet) || k != Kind::None) {
          endTable();
        } else if (isSeparator(t)) {
          continue;
        } else {
          table_.lastRowBad = false;
          tableRow(lineNo, collapsed);
          continue;
        }
      }
      if (t.empty()) continue;
      if (k != Kind::None) {
        startTable(k, lineNo, collapsed);
        continue;
      }
      if (startsWith(t, kBullet)) {
        bullet(trim(std::string_view(t).substr(kBullet.size())));
        continue;
      }
      if (headingLike[i]) {
        if (looksLikeBoardMarker(t)) {
          markerBoard_ = mapBoard(t);
          markerPrinted_ = t;
          if (firstMarker_.empty()) firstMarker_ = t;
          continue;
        }
        int j = i + 1;
        while (j < n && trim(lines_[j]).empty()) ++j;
        bool chapter = j < n && headingLike[j] && !looksLikeBoardMarker(trim(lines_[j]));
        heading(collapsed, chapter);
        continue;
      }
      if (hasNumber(collapsed) && !isSeparator(t))
        unparsed(lineNo, "line outside any recognised table ignored: '" + clip(collapsed) + "'");
    }
    if (table_.kind != Kind::None) endTable(true);
    finish();
    return std::move(doc_);
  }

 private:
  // ---- document structure -------------------------------------------------------------
  bool isHeadingCandidate(int i) const {
    std::string t = trim(lines_[i]);
    if (t.empty() || startsWith(t, kBullet) || isSeparator(t)) return false;
    if (headerKind(lower(join(tokenize(t), 0, static_cast<size_t>(-1)))) != Kind::None)
      return false;
    bool blankAbove = i == 0 || trim(lines_[i - 1]).empty();
    bool blankBelow = i + 1 >= static_cast<int>(lines_.size()) || trim(lines_[i + 1]).empty();
    return blankAbove && blankBelow;
  }

  void defaultBoard() {
    for (const auto& l : lines_) {
      std::string t = trim(l);
      if (t.empty()) continue;
      auto tok = tokenize(t);
      if (t.find("MCU+") != std::string::npos && !tok.empty()) {
        std::string soc = lower(tok[0]);
        if (startsWith(soc, "am") || startsWith(soc, "j7")) {
          defaultBoard_ = soc + "-evm";
          titleName_ = tok[0];
        }
      }
      break;  // only the title line
    }
  }

  void heading(const std::string& h, bool chapter) {
    std::string fam = familyOfHeading(h);
    if (chapter) {
      chapter_ = h;
      chapterFamily_ = fam;
      leaf_.clear();
    } else {
      leaf_ = h;
      if (!fam.empty() && !chapterFamily_.empty() && fam != chapterFamily_) {
        chapter_.clear();
        chapterFamily_.clear();
      }
    }
    facts_.clear();
    qualifier_.clear();
    markerBoard_.clear();
    markerPrinted_.clear();
  }

  void bullet(const std::string& text) {
    std::string t = text;
    std::string lt = lower(t);
    bool qualifier =
        startsWith(lt, "for ") ||
        (lt.size() > 10 && lt.substr(lt.size() - 10) == " operation" && tokenize(t).size() <= 3);
    if (qualifier) qualifier_ = t;
    if (startsWith(lt, "for ")) t = t.substr(4);
    size_t colon = t.find(':');
    if (colon == std::string::npos) return;
    std::string key = lower(join(tokenize(t.substr(0, colon)), 0, static_cast<size_t>(-1)));
    facts_[key] = trim(t.substr(colon + 1));
  }

  std::optional<std::string> fact(const std::string& key) const {
    auto it = facts_.find(key);
    if (it == facts_.end() || it->second.empty()) return std::nullopt;
    return it->second;
  }

  // ---- tables ---------------------------------------------------------------------------
  void startTable(Kind k, int lineNo, const std::string& header) {
    table_ = TableState{};
    table_.kind = k;
    table_.headerLine = lineNo;
    table_.header = header;
    table_.section = !chapterFamily_.empty() && !chapter_.empty() ? chapter_
                     : !leaf_.empty()                             ? leaf_
                                                                  : chapter_;
    std::string head = leaf_.empty() ? chapter_ : leaf_;
    table_.caption = head;
    if (!qualifier_.empty()) {
      if (!table_.caption.empty()) table_.caption += (table_.caption.back() == ':' ? " " : ": ");
      table_.caption += qualifier_;
    }
    if (table_.caption.empty()) table_.caption = "L" + std::to_string(lineNo);
    table_.family = defaultFamily(k);
    if (k == Kind::Iperf) {
      std::string f = familyOfHeading(leaf_);
      if (f.empty()) f = chapterFamily_;
      if (f == "usb") table_.family = "usb";
    }
    // Board: marker line > caption "(...)" > document default.
    table_.board = defaultBoard_;
    std::string printed;
    if (!markerBoard_.empty()) {
      table_.board = markerBoard_;
      printed = markerPrinted_;
    } else {
      size_t o = head.find('('), c = head.rfind(')');
      if (o != std::string::npos && c != std::string::npos && c > o) {
        std::string inside = head.substr(o + 1, c - o - 1);
        std::string b = mapBoard(inside);
        if (!b.empty()) {
          table_.board = b;
          printed = trim(inside);
        }
      }
    }
    if (!printed.empty() && lower(printed) != table_.board)
      diag(lineNo, "board printed as '" + printed + "' recorded as " + table_.board);
    if (table_.board.empty()) diag(lineNo, "no board named for this table; board left empty");
    setupTable();
  }

  /// Header-derived columns and set-up params per table kind.
  void setupTable() {
    TableState& s = table_;
    auto tok = tokenize(s.header);
    switch (s.kind) {
      case Kind::Boot: {
        auto ht = tokenize(leaf_);
        for (size_t i = 0; i + 1 < ht.size(); ++i)
          if (upper(ht[i]) == "SBL") s.base["boot_media"] = lower(ht[i + 1]);
        for (const auto& [k, v] : facts_) {
          if (startsWith(k, "size of ") && k.find("appimage") != std::string::npos) {
            if (auto b = bytesOfText(v))
              s.base[k.find("sbl") == 8 ? "sbl_bytes" : "app_bytes"] = formatNumber(*b);
          } else if (startsWith(k, "cores present")) {
            std::string cores;
            for (char c : v)
              if (c != ' ') cores += c;
            s.base["cores"] = cores;
          } else if (k == "boot media clock") {
            if (auto m = mhzOfText(v)) s.base["media_clock_mhz"] = formatNumber(*m);
          } else if (startsWith(k, "sd card read speed")) {
            auto t = tokenize(v);
            if (!t.empty() && number(t[0])) s.base["sd_read_mbyte_s"] = formatNumber(*number(t[0]));
          }
        }
        break;
      }
      case Kind::Xip:
        s.benchmarkBase =
            qualifier_.empty() ? fact("software/application used").value_or(leaf_) : qualifier_;
        break;
      case Kind::Mcan:
        if (auto f = fact("mcan clk"))
          if (auto m = mhzOfText(*f)) s.base["mcan_clock_mhz"] = formatNumber(*m);
        break;
      case Kind::Mcspi:
        for (size_t i = 0; i + 1 < tok.size(); ++i)
          if (lower(tok[i + 1]) == "mode") s.modes.push_back(tok[i] + " mode");
        if (s.modes.empty()) diag(s.headerLine, "MCSPI header names no '<X> mode' column");
        if (auto f = fact("transfer length"))
          if (auto b = bytesOfText(*f)) s.base["transfer_bytes"] = formatNumber(*b);
        if (auto f = fact("spi clock speed"))
          if (auto m = mhzOfText(*f)) s.base["spi_clock_mhz"] = formatNumber(*m);
        break;
      case Kind::Tcp:
        s.base["stack"] = "lwip";
        break;
      case Kind::Udp: {
        s.base["stack"] = "lwip";
        if (auto f = fact("packet size"))
          if (auto b = bytesOfText(*f)) s.base["packet_bytes"] = formatNumber(*b);
        // "UDP RX Performance(am243x-lp):" -> "UDP RX"
        std::string h = leaf_.substr(0, leaf_.find('('));
        std::string lh = lower(h);
        size_t p = lh.find("performance");
        if (p != std::string::npos) h = h.substr(0, p);
        s.benchmarkBase = join(tokenize(h), 0, static_cast<size_t>(-1));
        if (s.benchmarkBase.empty()) s.benchmarkBase = "UDP";
        break;
      }
      case Kind::Ipc:
        s.ipcHasSize = lower(s.header).find("message size") != std::string::npos;
        break;
      case Kind::Mathlib:
        diag(s.headerLine,
             "MATHLIB header shares one 'Max' between 'Err' and the first cycles column; read as "
             "Err Max, max/avg cycles (mcusdk), max/avg cycles (clang)");
        break;
      case Kind::Pka: {
        // "ECDSA Sign/sec Verify/sec Sign and verify/sec": algorithm, then metrics per "/sec".
        std::string alg = tok.empty() ? "" : upper(tok[0]);
        std::string rest = join(tok, 1, tok.size());
        size_t b = 0;
        while (b < rest.size()) {
          size_t e = rest.find("/sec", b);
          std::string m = trim(rest.substr(b, e == std::string::npos ? std::string::npos : e - b));
          if (!m.empty()) s.metrics.push_back(m);
          if (e == std::string::npos) break;
          b = e + 4;
        }
        std::string words =
            " " + upper(join(tokenize(slugWords(leaf_)), 0, static_cast<size_t>(-1))) + " ";
        if (!alg.empty() && words.find(" " + alg + " ") == std::string::npos) {
          s.flag = "caption-mismatch:header-says-" + alg;
          diag(s.headerLine, "header names " + alg + " but the heading is '" + leaf_ +
                                 "': rows kept under the heading, flagged caption-mismatch");
        }
        break;
      }
      case Kind::Sha:
      case Kind::Cipher:
        if (auto f = fact("code placement")) s.base["code_placement"] = lower(*f);
        break;
      case Kind::Iperf:
        if (auto f = fact("tcp window size"))
          if (auto b = bytesOfText(*f)) s.base["tcp_window_bytes"] = formatNumber(*b);
        break;
      default:
        break;
    }
  }

  static std::string slugWords(const std::string& s) {
    std::string out;
    for (char c : s)
      out += ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) ? c : ' ';
    return out;
  }

  void endTable(bool atEof = false) {
    TableState& s = table_;
    if (s.kind == Kind::Soc || s.kind == Kind::Opt) {
      for (const auto& r : s.textRows) setup_.push_back(r);
      if (s.kind == Kind::Soc && socLine_ == 0) socLine_ = s.headerLine;
    } else {
      if (s.dashes > 0)
        diag(s.headerLine, std::to_string(s.dashes) + " cell(s) printed '-' (not measured) in '" +
                               s.caption + "': no row written");
      if (s.rows == 0)
        diag(s.headerLine, "table header '" + clip(s.header) + "' has no value rows");
      if (atEof && s.lastRowBad)
        diag(static_cast<int>(lines_.size()),
             "document ends inside table '" + s.caption + "' on an incomplete row (truncated?)");
    }
    table_ = TableState{};
  }

  void emit(int lineNo, const std::string& benchmark, const std::string& metric, Params params,
            const std::string& unit, double value, std::string flag = "") {
    const TableState& s = table_;
    calib::MeasuredRow r;
    r.source = source_;
    r.section = s.section;
    r.table = s.caption;
    r.board = s.board;
    r.family = s.family;
    r.benchmark = benchmark;
    r.metric = metric;
    for (const auto& [k, v] : s.base) params.emplace(k, v);
    r.params = joinParams(params);
    r.unit = unit;
    r.value = value;
    std::string f = s.flag;
    if (!flag.empty()) f += (f.empty() ? "" : ";") + flag;
    r.flag = f;
    r.line = lineNo;
    doc_.directRows.push_back(std::move(r));
    ++table_.rows;
  }

  void ragged(int lineNo, const std::string& row, const std::string& why) {
    table_.lastRowBad = true;
    diag(lineNo,
         "row not understood in '" + table_.caption + "' (" + why + "): '" + clip(row) + "'");
  }

  /// Split a row into leading key tokens and trailing numeric tokens.
  static void keyAndNumbers(const std::vector<std::string>& t, std::vector<std::string>& key,
                            std::vector<double>& nums) {
    size_t i = t.size();
    while (i > 0 && number(t[i - 1])) --i;
    key.assign(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(i));
    for (size_t j = i; j < t.size(); ++j) nums.push_back(*number(t[j]));
  }

  void tableRow(int lineNo, const std::string& row) {
    TableState& s = table_;
    auto t = tokenize(row);
    switch (s.kind) {
      case Kind::Soc:
      case Kind::Opt:
        s.textRows.push_back(row);
        return;
      case Kind::Boot: {
        if (t.size() < 2 || !number(t.back()))
          return ragged(lineNo, row, "expected '<stage> <time>'");
        double v = *number(t.back());
        std::string stage = join(t, 0, t.size() - 1);
        auto [metric, unit] = labelAndUnit(join(tokenize(s.header), 3, static_cast<size_t>(-1)));
        if (metric.empty()) metric = "Time";
        bool total = lower(stage).find("total") != std::string::npos;
        if (total) {
          if (std::fabs(s.bootSum - v) > 1e-6 * std::max(1.0, std::fabs(v)) + 5e-4)
            diag(lineNo, "boot stages sum to " + formatNumber(s.bootSum) + " ms but '" + stage +
                             "' says " + formatNumber(v));
        } else {
          s.bootSum += v;
        }
        emit(lineNo, stage, metric, {}, unit.empty() ? "ms" : unit, v,
             v == 0 ? "zero-not-measured" : "");
        return;
      }
      case Kind::Xip: {
        if (t.size() < 2 || !number(t.back()))
          return ragged(lineNo, row, "expected '<caching status> <cycles>'");
        std::string status = join(t, 0, t.size() - 1);
        std::string ls = lower(status);
        if (startsWith(ls, "code/data ")) status = status.substr(10);
        emit(lineNo, s.benchmarkBase, "Cycles taken", {{"caching", slug(status)}}, "cycles",
             *number(t.back()));
        return;
      }
      case Kind::Mcan: {
        std::vector<std::string> key;
        std::vector<double> nums;
        keyAndNumbers(t, key, nums);
        if (key.empty() || nums.size() != 5)
          return ragged(
              lineNo, row,
              "expected '<frame type> <arb Mbps> <data Mbps> <arb bits> <data bits> <msg/s>'");
        Params p = {{"arb_bitrate_mbps", formatNumber(nums[0])},
                    {"data_bitrate_mbps", formatNumber(nums[1])},
                    {"arb_phase_bits", formatNumber(nums[2])},
                    {"data_phase_bits", formatNumber(nums[3])}};
        emit(lineNo, join(key, 0, key.size()), "Throughput", p, "msg/s", nums[4]);
        return;
      }
      case Kind::Mcspi:
        return mcspiRow(lineNo, row, t);
      case Kind::Tcp:
        return tcpRow(lineNo, row, t);
      case Kind::Udp:
        return udpRow(lineNo, row, t);
      case Kind::Ipc: {
        size_t nk = s.ipcHasSize ? 3 : 2;
        if (t.size() != nk + 1 || !number(t.back()) || (s.ipcHasSize && !number(t[2])))
          return ragged(lineNo, row,
                        s.ipcHasSize ? "expected '<local> <remote> <size> <us>'"
                                     : "expected '<local> <remote> <us>'");
        Params p = {{"local", t[0]}, {"remote", t[1]}};
        if (s.ipcHasSize) p["msg_bytes"] = formatNumber(*number(t[2]));
        double v = *number(t.back());
        emit(lineNo, leaf_.empty() ? "IPC" : leaf_, "Average Message Latency", p, "us", v,
             v == 0 ? "zero-not-measured" : "");
        return;
      }
      case Kind::Mathlib: {
        std::vector<std::string> key;
        std::vector<double> nums;
        keyAndNumbers(t, key, nums);
        if (key.empty() || nums.empty())
          return ragged(lineNo, row, "expected '<function> <values...>'");
        if (nums.size() > 5) return ragged(lineNo, row, "more than 5 values");
        if (nums.size() < 5)
          diag(lineNo, "'" + join(key, 0, key.size()) + "' has " + std::to_string(nums.size()) +
                           " of 5 values; assigned to the leading columns (Err Max first)");
        struct Col {
          const char* metric;
          const char* impl;
          const char* unit;
        };
        static const Col cols[5] = {{"Err Max", "", ""},
                                    {"max cycles", "mcusdk", "cycles"},
                                    {"avg cycles", "mcusdk", "cycles"},
                                    {"max cycles", "clang", "cycles"},
                                    {"avg cycles", "clang", "cycles"}};
        std::string fn = join(key, 0, key.size());
        for (size_t i = 0; i < nums.size(); ++i) {
          std::string flag;
          if ((i == 1 || i == 3) && i + 1 < nums.size() && nums[i] < nums[i + 1])
            flag = "max-below-avg";
          Params p;
          if (*cols[i].impl) p["impl"] = cols[i].impl;
          emit(lineNo, fn, cols[i].metric, p, cols[i].unit, nums[i], flag);
        }
        return;
      }
      case Kind::Pka: {
        if (t.empty() || !number(t[0]))
          return ragged(lineNo, row, "expected '<key bits> <ops/s>...'");
        auto cells = scanCells(t, 1);
        if (cells.size() != s.metrics.size())
          return ragged(lineNo, row, std::to_string(s.metrics.size()) + " values expected");
        for (size_t i = 0; i < cells.size(); ++i) {
          if (cells[i].type == Cell::Dash) {
            ++s.dashes;
            continue;
          }
          if (cells[i].type != Cell::Number)
            return ragged(lineNo, row, "non-numeric cell '" + cells[i].text + "'");
        }
        for (size_t i = 0; i < cells.size(); ++i)
          if (cells[i].type == Cell::Number)
            emit(lineNo, leaf_.empty() ? "PKA" : leaf_, s.metrics[i],
                 {{"key_bits", formatNumber(*number(t[0]))}}, "ops/s", cells[i].value);
        return;
      }
      case Kind::Sha: {
        std::optional<double> bytes = t.size() == 4 ? bytesOf(t[1], t[2]) : std::nullopt;
        if (!bytes || !number(t[0]) || !number(t[3]))
          return ragged(lineNo, row, "expected '<sha bits> <size> <unit> <Mbps>'");
        emit(lineNo, leaf_.empty() ? "SHA" : leaf_, "Performance",
             {{"sha_bits", formatNumber(*number(t[0]))}, {"size", formatNumber(*bytes)}}, "Mbit/s",
             *number(t[3]));
        return;
      }
      case Kind::Cipher: {
        std::optional<double> bytes = t.size() == 5 ? bytesOf(t[2], t[3]) : std::nullopt;
        if (!bytes || !number(t[0]) || !number(t[4]) || number(t[1]))
          return ragged(lineNo, row, "expected '<key bits> <operation> <size> <unit> <Mbps>'");
        emit(lineNo, leaf_.empty() ? "cipher" : leaf_, "Performance",
             {{"key_bits", formatNumber(*number(t[0]))},
              {"op", lower(t[1])},
              {"size", formatNumber(*bytes)}},
             "Mbit/s", *number(t[4]));
        return;
      }
      case Kind::Iperf:
        return iperfRow(lineNo, row, t);
      default:
        return;
    }
  }

  void mcspiRow(int lineNo, const std::string& row, const std::vector<std::string>& t) {
    TableState& s = table_;
    if (t.size() < 2 || !number(t[0]) || !number(t[1]))
      return ragged(lineNo, row, "expected '<words> <width> <Mbps / us>...'");
    Params p = {{"words", formatNumber(*number(t[0]))},
                {"word_width_bits", formatNumber(*number(t[1]))}};
    // Cells: "<num> <unit> / <num> <unit>" or "-".
    struct Pair {
      bool dash = false;
      double a = 0, b = 0;
      std::string ua, ub;
    };
    std::vector<Pair> cells;
    size_t i = 2;
    while (i < t.size()) {
      if (isDash(t[i])) {
        cells.emplace_back();
        cells.back().dash = true;
        ++i;
        continue;
      }
      if (i + 4 < t.size() && number(t[i]) && t[i + 2] == "/" && number(t[i + 3])) {
        cells.push_back({false, *number(t[i]), *number(t[i + 3]), t[i + 1], t[i + 4]});
        i += 5;
        continue;
      }
      return ragged(lineNo, row, "cell at '" + t[i] + "' is not '<Mbps> Mbps / <time> us'");
    }
    if (cells.size() != s.modes.size())
      return ragged(lineNo, row,
                    std::to_string(s.modes.size()) + " mode cells expected, " +
                        std::to_string(cells.size()) + " found");
    for (size_t c = 0; c < cells.size(); ++c) {
      if (cells[c].dash) {
        s.dashes += 2;
        continue;
      }
      std::string ua = normUnit(cells[c].ua), ub = normUnit(cells[c].ub);
      if (ua.empty() || ub.empty())
        diag(lineNo, "unknown unit in MCSPI cell '" + cells[c].ua + "/" + cells[c].ub + "'");
      emit(lineNo, s.modes[c], "Throughput", p, ua, cells[c].a);
      emit(lineNo, s.modes[c], "Transfer time", p, ub, cells[c].b);
    }
  }

  void tcpRow(int lineNo, const std::string& row, const std::vector<std::string>& t) {
    // "TCP RX 93.4 45.37" | "TCP Biderectional TX = 87 + RX = 87 93.94"
    size_t k = 0;
    while (k < t.size() && !number(t[k]) && !isDash(t[k]) && !(k + 1 < t.size() && t[k + 1] == "="))
      ++k;
    if (k == 0) return ragged(lineNo, row, "no direction");
    std::string bench = join(t, 0, k);
    auto cells = scanCells(t, k);
    if (cells.size() != 2) return ragged(lineNo, row, "expected B/W and CPU load");
    static const char* metrics[2] = {"B/W", "CPU load"};
    static const char* units[2] = {"Mbit/s", "%"};
    for (const auto& c : cells)
      if (c.type == Cell::Bad) return ragged(lineNo, row, "bad cell '" + c.text + "'");
    for (size_t i = 0; i < 2; ++i) {
      const Cell& c = cells[i];
      if (c.type == Cell::Dash)
        ++table_.dashes;
      else if (c.type == Cell::Number)
        emit(lineNo, bench, metrics[i], {}, units[i], c.value);
      else
        for (const auto& [name, v] : c.parts)
          emit(lineNo, bench, metrics[i], {{"stream", lower(name)}}, units[i], v);
    }
  }

  void udpRow(int lineNo, const std::string& row, const std::vector<std::string>& t) {
    // "25 Mbps 100 0 -" | "Max(158 Mbps) 80.83 1.1 -"
    TableState& s = table_;
    Params p;
    size_t i = 0;
    std::optional<double> maxBw;
    if (t.size() >= 2 && number(t[0]) && lower(t[1]) == "mbps") {
      p["tx_bw_mbps"] = formatNumber(*number(t[0]));
      i = 2;
    } else if (!t.empty() && startsWith(lower(t[0]), "max(")) {
      std::string inside;
      while (i < t.size()) {
        inside += (inside.empty() ? "" : " ") + t[i];
        if (t[i].find(')') != std::string::npos) break;
        ++i;
      }
      ++i;
      auto it = tokenize(inside.substr(
          4, inside.find(')') == std::string::npos ? std::string::npos : inside.find(')') - 4));
      if (!it.empty()) maxBw = number(it[0]);
      if (!maxBw) return ragged(lineNo, row, "unreadable 'Max(<bw> Mbps)'");
      p["tx_bw_mbps"] = "max";
    } else {
      return ragged(lineNo, row, "expected '<bw> Mbps' or 'Max(<bw> Mbps)' first");
    }
    auto cells = scanCells(t, i);
    static const char* metrics[3] = {"CPU load", "Packet loss", "Latency"};
    static const char* units[3] = {"%", "%", ""};
    if (cells.size() != 3) return ragged(lineNo, row, "3 values expected");
    for (const auto& c : cells)
      if (c.type != Cell::Number && c.type != Cell::Dash)
        return ragged(lineNo, row, "bad cell '" + c.text + "'");
    if (maxBw) emit(lineNo, s.benchmarkBase, "Tx Side BW", p, "Mbit/s", *maxBw);
    for (size_t c = 0; c < 3; ++c) {
      if (cells[c].type == Cell::Dash)
        ++s.dashes;
      else
        emit(lineNo, s.benchmarkBase, metrics[c], p, units[c], cells[c].value);
    }
  }

  void iperfRow(int lineNo, const std::string& row, const std::vector<std::string>& t) {
    // "0 0.0- 1.0 sec 4.25 MBytes 35.7 Mbits/sec"
    if (t.empty() || !number(t[0]))
      return ragged(lineNo, row, "expected '<id> <interval> sec ...'");
    size_t i = 1;
    std::string interval;
    while (i < t.size() && lower(t[i]) != "sec") interval += t[i++];
    ++i;  // "sec"
    size_t dash = interval.find('-');
    if (i > t.size() || dash == std::string::npos || !number(interval.substr(0, dash)) ||
        !number(interval.substr(dash + 1)))
      return ragged(lineNo, row, "unreadable interval");
    if (t.size() != i + 4 || !number(t[i]) || !number(t[i + 2]))
      return ragged(lineNo, row, "expected '<transfer> <unit> <bandwidth> <unit>'");
    Params p = {{"interval_s", interval}};
    std::string u1 = normUnit(t[i + 1]), u2 = normUnit(t[i + 3]);
    if (u1.empty() || u2.empty()) return ragged(lineNo, row, "unknown unit");
    emit(lineNo, leaf_.empty() ? "iperf" : leaf_, "Transfer", p, u1, *number(t[i]));
    emit(lineNo, leaf_.empty() ? "iperf" : leaf_, "Bandwidth", p, u2, *number(t[i + 2]));
  }

  // ---- output helpers -------------------------------------------------------------------
  void finish() {
    if (!setup_.empty()) {
      BoardDescription b;
      b.source = source_;
      b.line = socLine_;
      b.name = !firstMarker_.empty() ? firstMarker_ : titleName_;
      std::string d;
      for (const auto& r : setup_) {
        std::string lr = lower(r);
        if (lr.find("flags") != std::string::npos)
          continue;  // compiler/linker flags: not board facts
        d += (d.empty() ? "" : "; ") + r;
      }
      b.description = d;
      doc_.boards.push_back(std::move(b));
    }
    if (unparsedDropped_ > 0)
      doc_.diagnostics.push_back(
          {source_, 0, std::to_string(unparsedDropped_) + " further unrecognised line(s) not listed",
           unparsedDropped_});
    if (doc_.directRows.empty()) diag(0, "no MCU+ datasheet table recognised: no value written");
  }

  static bool hasNumber(const std::string& s) {
    for (const auto& t : tokenize(s))
      if (number(t)) return true;
    return false;
  }

  static std::string clip(const std::string& s) { return clipText(s, 80); }

  void diag(int line, const std::string& msg) { doc_.diagnostics.push_back({source_, line, msg}); }

  void unparsed(int line, const std::string& msg) {
    if (unparsedShown_ >= kMaxUnparsedDiagnostics) {
      ++unparsedDropped_;
      return;
    }
    ++unparsedShown_;
    doc_.diagnostics.push_back({source_, line, msg, 1});
  }

  std::string source_;
  std::vector<std::string> lines_;
  ParsedDocument doc_;
  TableState table_;
  std::string chapter_, chapterFamily_, leaf_, qualifier_;
  std::map<std::string, std::string> facts_;
  std::string defaultBoard_, titleName_, markerBoard_, markerPrinted_, firstMarker_;
  std::vector<std::string> setup_;
  int socLine_ = 0;
  int unparsedShown_ = 0, unparsedDropped_ = 0;
};

}  // namespace

ParsedDocument parseMcu(const std::string& text, const std::string& source) {
  return McuParser(text, source).run();
}

}  // namespace socsim::ingest
