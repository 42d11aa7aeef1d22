// RawTable -> MeasuredRow (naming rules in normalize.h).
#include "calibration/ingest/normalize.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "calibration/ingest/families.h"
#include "calibration/ingest/units_norm.h"
#include "common/format.h"

namespace socsim::ingest {

using calib::MeasuredRow;

namespace {

// Hand-written scanners (no std::regex: it recurses per character and can overflow the stack
// on the multi-megabyte lines of a malformed input).
struct Scanner {
  const std::string& s;
  size_t i = 0;
  void spaces() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  }
  bool lit(const char* w) {
    size_t n = std::char_traits<char>::length(w);
    if (s.compare(i, n, w) != 0) return false;
    i += n;
    return true;
  }
  // -?[0-9]+(\.[0-9]+)?
  std::optional<double> number() {
    size_t b = i, j = i;
    if (j < s.size() && s[j] == '-') ++j;
    size_t d = j;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
    if (j == d) return std::nullopt;
    if (j < s.size() && s[j] == '.') {
      size_t f = ++j;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      if (j == f) return std::nullopt;
    }
    i = j;
    if (double v = std::strtod(s.substr(b, j - b).c_str(), nullptr); std::isfinite(v)) return v;
    return std::nullopt;  // overflow (a 400-digit "number") is not a value
  }
  bool done() {
    spaces();
    return i == s.size();
  }
};

}  // namespace

std::optional<ValueCell> parseValueCell(const std::string& text) {
  std::string t = trimText(text);
  Scanner sc{t};
  auto v = sc.number();
  if (!v) return std::nullopt;
  ValueCell c;
  c.value = *v;
  if (sc.done()) return c;
  sc.spaces();
  if (!sc.lit("(")) return std::nullopt;
  sc.spaces();
  if (!sc.lit("min")) return std::nullopt;
  sc.spaces();
  auto mn = sc.number();
  if (!mn) return std::nullopt;
  sc.spaces();
  if (!sc.lit(",")) return std::nullopt;
  sc.spaces();
  if (!sc.lit("max")) return std::nullopt;
  sc.spaces();
  auto mx = sc.number();
  if (!mx) return std::nullopt;
  sc.spaces();
  if (!sc.lit(")") || !sc.done()) return std::nullopt;
  c.min = mn;
  c.max = mx;
  return c;
}

void addFlag(MeasuredRow& row, const std::string& reason) {
  if (reason.empty()) return;
  size_t start = 0;
  while (start <= row.flag.size() && !row.flag.empty()) {
    size_t end = row.flag.find(';', start);
    if (end == std::string::npos) end = row.flag.size();
    if (row.flag.compare(start, end - start, reason) == 0) return;
    start = end + 1;
  }
  row.flag += (row.flag.empty() ? "" : ";") + reason;
}

namespace {

using Params = std::map<std::string, std::string>;

bool contains(const std::string& hay, const char* needle) {
  return hay.find(needle) != std::string::npos;
}

// Param values must not contain the separators of `k=v;k=v`.
std::string paramText(const std::string& v) {
  std::string r = trimText(v);
  for (auto& c : r) {
    if (c == ';')
      c = ',';
    else if (c == '=')
      c = ':';
  }
  return r;
}

std::string joinParams(const Params& p) {
  std::string s;
  for (const auto& [k, v] : p) s += (s.empty() ? "" : ";") + k + "=" + v;
  return s;
}

std::string stripPilcrow(const std::string& s) {
  std::string r = s;
  const std::string pil = "\xC2\xB6";
  for (size_t p; (p = r.find(pil)) != std::string::npos;) r.erase(p, pil.size());
  return trimText(r);
}

// "2.2.1.13.1. AM57XX-EVM" -> "AM57XX-EVM".
std::string headingTitle(const std::string& heading) {
  std::string h = stripPilcrow(heading);
  size_t i = 0;
  while (i < h.size() && (std::isdigit(static_cast<unsigned char>(h[i])) || h[i] == '.')) ++i;
  if (i > 0 && i < h.size() && h[i] == ' ') return trimText(h.substr(i));
  return h;
}

// Per-board sub-headings ("AM335X-EVM", "OMAPL138-LCDK", "AM654x-IDK") and bare filesystem
// sub-headings ("UBIFS", "RAW") do not name what is measured.
bool isBoardOrFsHeading(const std::string& title) {
  std::string t = lowerText(title);
  if (t == "ubifs" || t == "raw") return true;
  if (t.find(' ') != std::string::npos) return false;
  for (const char* s : {"-evm", "_evm", "-idk", "-lcdk", "-gw"})
    if (contains(t, s)) return true;
  return false;
}

std::string formatRatio(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, r >= 10 ? "%.0f" : "%.2f", r);
  return buf;
}

// ---- key columns -----------------------------------------------------------------------

enum class KeyKind { Benchmark, Text, Int, Size, Hex, Ignore };
struct KeyRole {
  KeyKind kind = KeyKind::Text;
  std::string param;        // param name (not for Benchmark/Ignore)
  std::uint64_t scale = 1;  // Size: multiplier of a plain number
};

KeyRole keyRoleFor(const std::string& label, const std::string& family) {
  LabelUnit lu = splitUnit(label);
  std::string n = lowerText(lu.name);
  std::string u = lowerText(lu.unit);
  KeyRole r;
  if (n == "benchmarks" || n == "benchmark" || n == "power rail" || n == "wakeup time") {
    r.kind = KeyKind::Benchmark;
  } else if (n == "sampling rate") {
    r = {KeyKind::Int, "sampling_rate", 1};
  } else if (n == "resolution") {
    r = {KeyKind::Text, "resolution", 1};
  } else if (n == "format") {
    r = {KeyKind::Text, "format", 1};
  } else if (n == "mode") {
    r = {KeyKind::Text, "mode", 1};
  } else if (contains(n, "window size")) {
    r = {KeyKind::Size, "window", u == "kbytes" ? 1024u : 1u};
  } else if (contains(n, "packet size") || contains(n, "datagram size")) {
    r = {KeyKind::Size, "datagram", 1};
  } else if (contains(n, "frame size")) {
    r = {KeyKind::Size, "frame", 1};
  } else if (n == "buffer size") {
    r = {KeyKind::Size, "buffer_size", 1};
  } else if (n == "file size") {
    if (contains(u, "hex"))
      r = {KeyKind::Hex, "size", 1};
    else
      r = {KeyKind::Size, "size", u == "mbytes" ? 1024u * 1024u : (u == "kbytes" ? 1024u : 1u)};
  } else if (n == "algorithm") {
    r = {KeyKind::Text, "algorithm", 1};
  } else if (n == "number of blocks") {
    r = {KeyKind::Int, "blocks", 1};
  } else if (n == "boot configuration") {
    r = {KeyKind::Text, "config", 1};
  } else if (n == "use case") {
    r = {KeyKind::Text, "use_case", 1};
  } else if (n == "command used") {
    r.kind = KeyKind::Ignore;  // the same netperf command line for the whole table
  } else {
    std::string p;
    for (char c : n) p += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    r = {KeyKind::Text, p.empty() ? "key" : p, 1};
  }
  (void)family;
  return r;
}

// 000 prints two-part keys under one label ("Resolution Format", "Algorithm Buffer Size").
std::vector<std::string> expandKeyLabels(const std::vector<std::string>& labels) {
  std::vector<std::string> out;
  for (const auto& l : labels) {
    std::string n = lowerText(trimText(l));
    if (n == "resolution format") {
      out.push_back("Resolution");
      out.push_back("Format");
    } else if (n == "algorithm buffer size") {
      out.push_back("Algorithm");
      out.push_back("Buffer Size");
    } else {
      out.push_back(l);
    }
  }
  return out;
}

// ---- value columns ---------------------------------------------------------------------

struct Column {
  std::string board;
  std::string metric;
  std::string unit;       // canonical, "" = not printed or not legible (unknownUnit)
  bool unknownUnit = false;  // a unit was printed but is not one ingest knows
  std::string configKey;  // non-empty: configuration / identifier column -> this param
  Params params;
  bool rawFs = false;
};

std::string normalizeLoad(const std::string& s) {
  std::string l = lowerText(trimText(s));
  if (l == "idle system") return "idle";
  if (l == "memory tester") return "memtester";
  return l;
}

Column parseColumn(const std::string& label, const std::string& family,
                   std::vector<Diagnostic>& diags, const std::string& source, int line) {
  Column c;
  std::string rest = trimText(label);
  if (auto p = rest.find(": "); p != std::string::npos) {
    c.board = trimText(rest.substr(0, p));
    rest = trimText(rest.substr(p + 2));
  } else if (!rest.empty() && rest.back() == ':') {
    c.board = trimText(rest.substr(0, rest.size() - 1));
    rest.clear();
  }
  LabelUnit lu = splitUnit(rest);
  std::string n = lowerText(lu.name);
  if (n == "test number")
    c.configKey = "test_number";
  else if (n == "sensor")
    c.configKey = "sensor";
  else if (n == "iva freq")
    c.configKey = "iva_freq_mhz";
  else if (n == "ipu freq")
    c.configKey = "ipu_freq_mhz";
  else if (contains(n, "datagram size"))
    c.configKey = "datagram";
  if (lu.hasUnit) {
    if (auto cu = canonicalUnit(lu.unit))
      c.unit = *cu;
    else {
      // A unit outside the vocabulary is not written as a unit: the values are kept, flagged
      // `unattributed:unknown-unit`, and the warning names what was printed.
      c.unknownUnit = true;
      diags.push_back({source, line,
                       "unknown unit '" + lu.unit + "' in column '" + label +
                           "': its values are flagged unattributed:unknown-unit"});
    }
  }
  // Storage columns: operation and filesystem words become params.
  std::string metric;
  {
    size_t i = 0;
    const std::string& s = lu.name;
    while (i < s.size()) {
      size_t j = s.find(' ', i);
      if (j == std::string::npos) j = s.size();
      std::string w = s.substr(i, j - i);
      std::string lw = lowerText(w);
      if (!w.empty()) {
        if (lw == "write" || lw == "read")
          c.params["op"] = lw;
        else if (lw == "ubifs" || lw == "vfat" || lw == "ext2" || lw == "ext4" || lw == "raw") {
          c.params["fs"] = lw;
          c.rawFs = lw == "raw";
        } else {
          metric += (metric.empty() ? "" : " ") + w;
        }
      }
      i = j + 1;
    }
    if (metric.empty()) {  // nothing but op/fs words: keep the label
      metric = lu.name;
      c.params.erase("op");
      c.params.erase("fs");
    }
  }
  c.metric = metric;
  if (family == "power" && c.configKey.empty()) {
    const std::string& nm = lu.name;
    bool opp = nm.size() >= 2 && nm.size() <= 6 && nm.back() == 'M' &&
               std::all_of(nm.begin(), nm.end() - 1, [](char ch) {
                 return std::isdigit(static_cast<unsigned char>(ch)) != 0;
               });
    if (opp) {
      c.metric = "Power";
      c.params = {{"opp_mhz", nm.substr(0, nm.size() - 1)}};
    } else if (n == "suspend power" || n == "standby power") {
      c.metric = "Power";
      c.params = {{"state", n.substr(0, n.find(' '))}};
    } else if (c.unit == "mW") {
      c.metric = "Power";
      c.params = {{"load", normalizeLoad(lu.name)}};
    }
  }
  if (c.unit.empty()) {  // unit implied by the metric
    std::string m = lowerText(c.metric);
    if (m == "cpu load")
      c.unit = "%";
    else if (m == "fps")
      c.unit = "fps";
    else if (m == "score")
      c.unit = "score";
    else if (m == "latency" && family == "rt-latency")
      c.unit = "us";  // cyclictest prints us
    else if (m == "packets/sec")
      c.unit = "kpps";  // values = Mbit/s / (8 x ~1.4 kB): kpps
    else if (m == "throughput" && family == "crypto")
      c.unit = "KB/s";  // openssl speed
    else if (m == "throughput" && family == "ipsec")
      c.unit = "Mbit/s";
  }
  return c;
}

// ---- tables ----------------------------------------------------------------------------

struct TableInfo {
  std::string family;   // "lmbench" = per benchmark
  std::string subject;  // benchmark of non-benchmark-keyed tables
  std::string tableId;
  std::string section;
  std::string inferredFlag;
  Params base;
  bool captionSaysFs = false;  // caption/heading names EXT4/EXT2/VFAT
};

std::string subjectOf(const RawTable& t) {
  std::string cap = trimText(t.caption);
  if (!cap.empty()) return cap;
  for (size_t i = t.sections.size(); i-- > 0;) {
    std::string title = headingTitle(t.sections[i]);
    if (!title.empty() && !isBoardOrFsHeading(title)) return title;
  }
  return t.sections.empty() ? std::string() : headingTitle(t.sections.back());
}

std::string headerSignature(const RawTable& t) {
  std::string s;
  for (const auto& k : t.keyLabels) s += k + "|";
  s += "#";
  for (const auto& c : t.columnLabels) s += c + "|";
  return s;
}

// Where one section holds two uncaptioned tables with the same header (001), use the captions
// the other guides print for the same pair, by position.
std::map<size_t, std::string> positionalCaptions(const std::vector<RawTable>& tables) {
  std::map<std::string, std::vector<size_t>> groups;
  for (size_t i = 0; i < tables.size(); ++i) {
    const auto& t = tables[i];
    if (!trimText(t.caption).empty() || t.sections.empty()) continue;
    groups[t.part + "\n" + t.sections.back() + "\n" + headerSignature(t)].push_back(i);
  }
  std::map<size_t, std::string> out;
  for (const auto& [key, idx] : groups) {
    if (idx.size() != 2) continue;
    std::string title = lowerText(headingTitle(tables[idx[0]].sections.back()));
    std::vector<std::string> names;
    if (contains(title, "audio"))
      names = {"Audio Capture", "Audio Playback"};
    else if (contains(title, "usb device"))
      names = {"USBDEVICE HIGHSPEED SLAVE READ THROUGHPUT",
               "USBDEVICE HIGHSPEED SLAVE WRITE THROUGHPUT"};
    if (names.empty()) continue;
    out[idx[0]] = names[0];
    out[idx[1]] = names[1];
  }
  return out;
}

TableInfo tableInfo(const RawTable& t, const std::string& inferredCaption) {
  TableInfo ti;
  std::string caption = trimText(t.caption);
  ti.family = familyFromContext(t.sections, caption.empty() ? inferredCaption : caption);
  ti.subject = !inferredCaption.empty() && caption.empty() ? inferredCaption : subjectOf(t);
  if (!inferredCaption.empty() && caption.empty()) ti.inferredFlag = "inferred:caption-by-position";
  ti.tableId = caption.empty() ? "L" + std::to_string(t.line) : caption;
  ti.section = t.sections.empty() ? std::string() : stripPilcrow(t.sections.back());
  if (t.part == "rt") ti.base["kernel"] = "rt";
  if (ti.family == "ethernet") ti.base["stack"] = "linux";
  std::string lc = lowerText(caption);
  if (ti.family == "coremark-pro") {
    ti.base["cores"] = contains(lc, "eightcore")  ? "8"
                       : contains(lc, "fourcore") ? "4"
                       : contains(lc, "twocore")  ? "2"
                                                  : "1";
  }
  if (ti.family == "power") {
    const std::string withLoad = "OPPs with ", govPrefix = "Power Consumption with ",
                      govSuffix = " governor";
    if (auto p = caption.find(withLoad); p != std::string::npos) {
      ti.base["load"] = normalizeLoad(caption.substr(p + withLoad.size()));
    } else if (caption.rfind(govPrefix, 0) == 0 &&
               caption.size() > govPrefix.size() + govSuffix.size() &&
               caption.compare(caption.size() - govSuffix.size(), govSuffix.size(), govSuffix) ==
                   0) {
      ti.base["governor"] = lowerText(trimText(
          caption.substr(govPrefix.size(), caption.size() - govPrefix.size() - govSuffix.size())));
    }
  }
  std::string subj = lowerText(ti.subject);
  ti.captionSaysFs = contains(subj, "ext4") || contains(subj, "ext2") || contains(subj, "vfat");
  return ti;
}

// Which column each printed cell belongs to. `candidates[i]` lists the columns cell i may be
// in; exactly one when the attribution is certain.
struct Attribution {
  std::vector<std::vector<size_t>> candidates;
  std::string flag;  // "" when certain
};

Attribution attribute(const RawTable& t, const RawRow& row, const std::vector<Column>& cols) {
  Attribution a;
  size_t n = cols.size(), m = row.cells.size();
  a.candidates.resize(m);
  if (m == n) {
    for (size_t i = 0; i < m; ++i) a.candidates[i] = {i};
    return a;
  }
  if (m < n && t.cellsMayBeDropped) {
    // A configuration column left empty for every board (003 UDP "Datagram Size"): the
    // remaining columns are complete, so the row is positional over them.
    std::vector<size_t> keep;
    for (size_t j = 0; j < n; ++j)
      if (cols[j].configKey.empty()) keep.push_back(j);
    if (keep.size() == m && keep.size() < n) {
      for (size_t i = 0; i < m; ++i) a.candidates[i] = {keep[i]};
      return a;
    }
  }
  // Unknown which cells are missing (or extra): cell i lies in columns [i - extra, i + missing].
  a.flag = m < n && t.cellsMayBeDropped ? "unattributed:dropped-cell" : "unattributed:cell-count";
  size_t missing = n > m ? n - m : 0, extra = m > n ? m - n : 0;
  for (size_t i = 0; i < m; ++i) {
    size_t lo = i >= extra ? i - extra : 0;
    size_t hi = std::min(n == 0 ? 0 : n - 1, i + missing);
    for (size_t j = lo; n > 0 && j <= hi; ++j) a.candidates[i].push_back(j);
  }
  return a;
}

void normalizeTable(const RawTable& t, const TableInfo& ti, Layout layout,
                    std::vector<MeasuredRow>& out, std::vector<Diagnostic>& diags) {
  std::vector<std::string> keyLabels = expandKeyLabels(t.keyLabels);
  std::vector<KeyRole> roles;
  for (const auto& l : keyLabels) roles.push_back(keyRoleFor(l, ti.family));
  std::vector<Column> cols;
  for (const auto& l : t.columnLabels)
    cols.push_back(parseColumn(l, ti.family, diags, t.source, t.line));
  bool rowKeyed = false;
  bool udpKeyed = false;
  for (const auto& r : roles) {
    if (r.kind == KeyKind::Benchmark) rowKeyed = true;
    if (r.param == "datagram") udpKeyed = true;
  }
  if (cols.empty()) {
    diags.push_back({t.source, t.line, "table without value columns: skipped",
                     static_cast<int>(t.rows.size())});
    return;
  }

  for (const auto& row : t.rows) {
    // Keys. A two-part key printed as one ("sha1 1024") is split from the right.
    std::vector<std::string> keys;
    for (const auto& k : row.keys) keys.push_back(trimText(k));
    while (keys.size() < roles.size() && !keys.empty()) {
      std::string& last = keys.back();
      size_t sp = last.rfind(' ');
      if (sp == std::string::npos) break;
      std::string tail = trimText(last.substr(sp + 1));
      last = trimText(last.substr(0, sp));
      keys.push_back(tail);
    }
    if (keys.size() > roles.size() && !roles.empty()) {  // too many parts: join the surplus
      std::string joined;
      for (size_t i = roles.size() - 1; i < keys.size(); ++i)
        joined += (joined.empty() ? "" : " ") + keys[i];
      keys.resize(roles.size() - 1);
      keys.push_back(joined);
    }
    Params rowParams = ti.base;
    std::string benchmark = ti.subject, keyUnit;
    bool keyUnknownUnit = false;
    std::optional<std::uint64_t> frameBytes;
    for (size_t i = 0; i < roles.size() && i < keys.size(); ++i) {
      const KeyRole& role = roles[i];
      const std::string& k = keys[i];
      switch (role.kind) {
        case KeyKind::Benchmark: {
          LabelUnit lu = splitUnit(k);
          benchmark = lu.name;
          if (lu.hasUnit) {
            if (auto cu = canonicalUnit(lu.unit))
              keyUnit = *cu;
            else {
              keyUnknownUnit = true;
              diags.push_back({t.source, row.line,
                               "unknown unit '" + lu.unit + "' in row key '" + k +
                                   "': its values are flagged unattributed:unknown-unit"});
            }
          }
          break;
        }
        case KeyKind::Ignore:
          break;
        case KeyKind::Text:
          rowParams[role.param] = paramText(k);
          break;
        case KeyKind::Int:
          rowParams[role.param] = paramText(k);
          break;
        case KeyKind::Hex: {
          if (auto b = parseHexBytes(k))
            rowParams[role.param] = std::to_string(*b);
          else
            rowParams[role.param] = paramText(k);
          break;
        }
        case KeyKind::Size: {
          // fio block sizes are printed with a suffix ("4k", "1m"): key `bs`.
          bool suffixed = !k.empty() && std::isalpha(static_cast<unsigned char>(k.back()));
          std::string name = role.param == "buffer_size" && suffixed ? "bs" : role.param;
          if (auto b = parseSizeBytes(k, role.scale)) {
            rowParams[name] = std::to_string(*b);
            if (name == "frame" || name == "datagram") frameBytes = *b;
          } else {
            rowParams[name] = paramText(k);
          }
          break;
        }
      }
    }
    if (rowKeyed && benchmark.empty()) benchmark = ti.subject;
    std::string family = ti.family == "lmbench" ? lmbenchFamily(benchmark) : ti.family;
    if (family.empty()) family = "other";

    Attribution att = attribute(t, row, cols);
    // Configuration cells of each board in this row -> params of that board's values.
    std::map<std::string, Params> boardConfig;
    for (size_t i = 0; i < row.cells.size(); ++i) {
      if (!row.cells[i] || att.candidates[i].size() != 1) continue;
      const Column& c = cols[att.candidates[i][0]];
      if (c.configKey.empty()) continue;
      std::string v = trimText(*row.cells[i]);
      if (auto vc = parseValueCell(v)) v = formatNumber(vc->value);
      boardConfig[c.board][c.configKey] = paramText(v);
    }
    bool leftPacked = false;
    if (layout == Layout::Spaced && udpKeyed && !row.cells.empty() && !row.cells.back()) {
      for (const auto& c : row.cells) leftPacked = leftPacked || c.has_value();
    }

    size_t firstOut = out.size();
    for (size_t i = 0; i < row.cells.size(); ++i) {
      if (!row.cells[i]) continue;  // printed blank
      const auto& cand = att.candidates[i];
      bool certain = cand.size() == 1;
      if (certain && !cols[cand[0]].configKey.empty()) continue;
      std::string text = trimText(*row.cells[i]);
      if (text.empty()) continue;
      auto vc = parseValueCell(text);
      int line = i < row.cellLines.size() && row.cellLines[i] > 0 ? row.cellLines[i] : row.line;
      if (!vc) {
        if (text != "-")
          diags.push_back(
              {t.source, line, "non-numeric cell '" + text + "' in a value column: not a value", 1});
        continue;
      }
      // What all candidate columns agree on.
      std::string board, metric, unit;
      Params colParams;
      bool rawFs = false, unknownUnit = false;
      if (!cand.empty()) {
        board = cols[cand[0]].board;
        metric = cols[cand[0]].metric;
        unit = cols[cand[0]].unit;
        colParams = cols[cand[0]].params;
        rawFs = cols[cand[0]].rawFs;
        for (size_t j : cand) {
          if (cols[j].board != board) board.clear();
          if (cols[j].metric != metric) metric.clear();
          if (cols[j].unit != unit) unit.clear();
          unknownUnit = unknownUnit || cols[j].unknownUnit;
          if (cols[j].params != colParams) colParams.clear();
        }
      }
      MeasuredRow r;
      r.source = t.source;
      r.section = ti.section;
      r.table = ti.tableId;
      r.board = board;
      r.family = family;
      r.benchmark = benchmark;
      r.metric = metric;
      Params p = rowParams;
      for (const auto& [k, v] : colParams) p[k] = v;
      if (!board.empty())
        if (auto it = boardConfig.find(board); it != boardConfig.end())
          for (const auto& [k, v] : it->second) p[k] = v;
      r.params = joinParams(p);
      if (unit.empty() && !unknownUnit) unit = keyUnit;
      unknownUnit = unknownUnit || (unit.empty() && keyUnknownUnit);
      if (unit.empty() && !unknownUnit && !metric.empty())
        if (auto du = defaultBenchmarkUnit(family, benchmark)) unit = *du;
      r.unit = unit;
      r.value = vc->value;
      r.min = vc->min;
      r.max = vc->max;
      r.line = line;
      addFlag(r, att.flag);
      if (att.flag.empty() && metric.empty()) addFlag(r, "unattributed:metric");
      if (unknownUnit && unit.empty()) addFlag(r, "unattributed:unknown-unit");
      else if (att.flag.empty() && unit.empty()) addFlag(r, "unattributed:unit");
      addFlag(r, ti.inferredFlag);
      if (leftPacked) addFlag(r, "suspect-attribution:left-packed-row");
      if (family == "lmbench-mem" && benchmark.rfind("bw_mem-", 0) == 0 &&
          benchmark.rfind("bw_mem-bcopy", 0) != 0 && r.min && r.max)
        addFlag(r, "mixed-minmax");
      if (rawFs && ti.captionSaysFs) addFlag(r, "caption-mismatch:columns-say-raw");
      out.push_back(std::move(r));
    }
    // A recovered 003 UDP row: kPPS x frame x 8 must give Mbit/s.
    if (t.cellsMayBeDropped && frameBytes && row.cells.size() < cols.size() && att.flag.empty()) {
      std::map<std::string, std::pair<double, double>> perBoard;  // board -> (Mbit/s, kpps)
      for (size_t i = firstOut; i < out.size(); ++i) {
        if (out[i].unit == "Mbit/s") perBoard[out[i].board].first = out[i].value;
        if (out[i].unit == "kpps") perBoard[out[i].board].second = out[i].value;
      }
      for (const auto& [b, mk] : perBoard) {
        double expect = mk.second * static_cast<double>(*frameBytes) * 8.0 / 1000.0;
        if (mk.first > 0 && std::fabs(expect - mk.first) > 0.10 * mk.first)
          for (size_t i = firstOut; i < out.size(); ++i)
            if (out[i].board == b) addFlag(out[i], "suspect-attribution:kpps-check");
      }
    }
  }
}

}  // namespace

std::vector<MeasuredRow> normalize(ParsedDocument& doc) {
  std::vector<MeasuredRow> out;
  auto inferred = positionalCaptions(doc.tables);
  for (size_t i = 0; i < doc.tables.size(); ++i) {
    const RawTable& t = doc.tables[i];
    auto it = inferred.find(i);
    TableInfo ti = tableInfo(t, it == inferred.end() ? std::string() : it->second);
    if (ti.family.empty())
      doc.diagnostics.push_back(
          {t.source.empty() ? doc.source : t.source, t.line,
           "no benchmark family for table '" + ti.subject + "': family 'other'"});
    RawTable tt = t;
    if (tt.source.empty()) tt.source = doc.source;
    normalizeTable(tt, ti, doc.layout, out, doc.diagnostics);
  }
  out.insert(out.end(), doc.directRows.begin(), doc.directRows.end());
  return out;
}

// ---- cross-row checks ------------------------------------------------------------------

namespace {

const std::set<std::string>& rateUnits() {
  static const std::set<std::string> u = {
      "MB/s",      "Mbit/s",       "KB/s",        "bit/s",        "kpps",   "fps",
      "score",     "iterations/s", "workloads/s", "Dhrystones/s", "MIPS",   "Kflops",
      "DMIPS/MHz", "texel/s",      "triangles/s", "msg/s",        "files/s"};
  return u;
}

bool isCpuLoad(const MeasuredRow& r) {
  std::string m = lowerText(r.metric);
  return r.unit == "%" &&
         (contains(m, "cpu load") || contains(m, "cpu_load") || contains(m, "cpu util"));
}

std::string paramsWithout(const std::string& params, const std::set<std::string>& drop) {
  std::string s;
  for (const auto& [k, v] : calib::parseParams(params))
    if (!drop.count(k)) s += (s.empty() ? "" : ";") + k + "=" + v;
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string socOf(const std::string& board) {
  size_t p = board.find_first_of("-_");
  return p == std::string::npos ? board : board.substr(0, p);
}

/// True when two boards' SoC names (socOf) name one SoC family: same length and equal
/// character by character, where TI's family wildcard 'x' matches any character ("am57xx"
/// = AM570x..AM574x: the same Cortex-A15 silicon family; "am654x" = "am654x").
bool sameSocFamily(const std::string& a, const std::string& b) {
  std::string sa = socOf(a), sb = socOf(b);
  if (sa.size() != sb.size()) return false;
  for (size_t i = 0; i < sa.size(); ++i)
    if (sa[i] != sb[i] && sa[i] != 'x' && sb[i] != 'x') return false;
  return true;
}

/// `outlier:speed-per-byte(...)`: the per-byte cost of `openssl speed` between its two smallest
/// buffers (the call-time slope, us per byte) is a property of the core, its clock and the
/// release's code path, not of the kernel's preemption model (PREEMPT_RT lengthens per-call
/// paths: locks, threaded interrupts, switches; a cipher's rounds or a digest's compression
/// take no lock). Two columns of one guide whose boards are of one SoC family (sameSocFamily)
/// therefore show the same slope per algorithm. When the median over their common algorithms
/// of one column's slope over the other's exceeds 1.3, the costlier column did not run the
/// set-up its guide states (a core clocked below the stated rate) and all its throughput rows
/// are flagged. Columns already flagged (flat-call-time) are not compared.
void flagSpeedPerByteAcrossSocFamily(std::vector<MeasuredRow>& rows,
                                     const std::map<std::string, std::vector<size_t>>& groups) {
  // source -> board|kernel|table -> algorithm -> slope (s per byte); and the rows of a column.
  std::map<std::string, std::map<std::string, std::map<std::string, double>>> slopes;
  std::map<std::string, std::vector<size_t>> columnRows;
  std::map<std::string, std::string> columnBoard;
  for (const auto& [key, idx] : groups) {
    auto bytesOf = [&](size_t i) {
      return std::strtod(calib::paramValue(rows[i].params, "buffer_size")->c_str(), nullptr);
    };
    bool flagged = false;
    for (size_t i : idx) flagged = flagged || rows[i].flag.find("outlier:") != std::string::npos;
    if (flagged || idx.size() < 2) continue;
    std::vector<size_t> s(idx);
    std::sort(s.begin(), s.end(), [&](size_t a, size_t b) { return bytesOf(a) < bytesOf(b); });
    const double n0 = bytesOf(s[0]), n1 = bytesOf(s[1]);
    if (!(n1 > n0)) continue;
    const double t0 = n0 / (rows[s[0]].value * 1000.0), t1 = n1 / (rows[s[1]].value * 1000.0);
    const auto& r = rows[s[0]];
    const std::string column = r.board + "\n" +
                               calib::paramValue(r.params, "kernel").value_or("") + "\n" + r.table;
    slopes[r.source][column][*calib::paramValue(r.params, "algorithm")] = (t1 - t0) / (n1 - n0);
    auto& cr = columnRows[r.source + "\n" + column];
    cr.insert(cr.end(), idx.begin(), idx.end());
    columnBoard[r.source + "\n" + column] = r.board;
  }
  for (const auto& [source, columns] : slopes)
    for (const auto& [ca, algA] : columns)
      for (const auto& [cb, algB] : columns) {
        const std::string boardA = columnBoard[source + "\n" + ca];
        const std::string boardB = columnBoard[source + "\n" + cb];
        if (boardA == boardB || !sameSocFamily(boardA, boardB)) continue;
        std::vector<double> ratio;
        for (const auto& [alg, sa] : algA)
          if (auto it = algB.find(alg); it != algB.end() && it->second > 0)
            ratio.push_back(sa / it->second);
        if (ratio.size() < 3) continue;
        const double m = median(ratio);
        if (!(m > 1.3)) continue;
        for (size_t i : columnRows[source + "\n" + ca])
          addFlag(rows[i], "outlier:speed-per-byte(" + formatRatio(m) + "x-" + boardB +
                               "-same-soc-family)");
      }
}

}  // namespace

void flagOutliers(std::vector<MeasuredRow>& rows) {
  // Value-based checks.
  for (auto& r : rows) {
    if (r.value == 0 && rateUnits().count(r.unit)) addFlag(r, "zero-rate");
    if (r.value == 0 && (r.unit == "ns" || r.unit == "us" || r.unit == "ms" || r.unit == "s"))
      addFlag(r, "zero-time");
    if (r.value == 0 && isCpuLoad(r)) addFlag(r, "zero-load");
    if (r.min && *r.min == 0 && r.value != 0) addFlag(r, "min-zero");
    if (isCpuLoad(r) && r.value > 100) addFlag(r, "outlier:cpu-load-above-100");
    if (r.unit == "fps" && r.value > 1000) addFlag(r, "outlier:fps-above-1000");
    // A boot stage that reads `sbl_bytes` from an SD card at the table's stated card read rate
    // (`sd_read_mbyte_s`, MB = 10^6 bytes) cannot end before the bytes have crossed the bus.
    const auto sdRate = calib::paramValue(r.params, "sd_read_mbyte_s");
    const auto loaded = calib::paramValue(r.params, "sbl_bytes");
    if (r.family == "boot" && r.unit == "ms" && r.value > 0 && sdRate && loaded &&
        r.benchmark.rfind("ROM", 0) == 0 && calib::paramValue(r.params, "boot_media") == "sd") {
      const double rate = std::strtod(sdRate->c_str(), nullptr) * 1e6;
      const double floorMs = rate > 0 ? std::strtod(loaded->c_str(), nullptr) / rate * 1e3 : 0;
      if (r.value < floorMs)
        addFlag(r, "outlier:below-sd-read-time(" + formatRatio(r.value / floorMs) + "x)");
    }
  }

  // UDP rate pairs: a kpps value computed from the same row's Mbit/s carries no measurement
  // of its own. Guide 000 (iperf, `datagram`): the Mbit/s over the datagram size truncated to
  // whole kpps, which biases it low (by up to 1 kpps: 27 % at the 2.76 kpps of a 32.4 Mbit/s
  // row). Guide 003 (netperf, `frame`): every run's kpps is its Mbit/s over the datagram size
  // rounded to whole kpps, and the row is the mean of the runs; the datagram is the frame
  // size or, for a frame above the 1472-byte full-MTU datagram, 1472 (the guide's ingress
  // '1518' rows send 1472-byte datagrams). Such a value is derived when it is within the
  // rounding (0.5 kpps) of the derived mean and its min and max are the rounded Mbit/s min
  // and max (one run: the value itself is the rounded Mbit/s).
  auto kppsOf = [](double mbps, double bytes) { return mbps * 1000.0 / 8.0 / bytes; };
  auto roundedRate = [&](double mbps, double bytes) { return std::round(kppsOf(mbps, bytes)); };
  auto netperfDerived = [&](const MeasuredRow& mb, const MeasuredRow& kp, double bytes) {
    const double derived = kppsOf(mb.value, bytes);
    if (kp.min && kp.max && mb.min && mb.max)
      return std::fabs(kp.value - derived) <= 0.5 + 1e-9 &&
             roundedRate(*mb.min, bytes) == *kp.min && roundedRate(*mb.max, bytes) == *kp.max;
    return !kp.min && !kp.max && roundedRate(mb.value, bytes) == kp.value;
  };
  std::map<std::string, std::pair<long, long>> udpPair;  // row -> (Mbit/s row, kpps row)
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (r.family != "ethernet" || r.board.empty() ||
        (!calib::paramValue(r.params, "datagram") && !calib::paramValue(r.params, "frame")))
      continue;
    auto& pr = udpPair[r.source + "\n" + r.section + "\n" + r.table + "\n" + r.board + "\n" +
                       r.benchmark + "\n" + r.params];
    if (r.unit == "Mbit/s") pr.first = static_cast<long>(i) + 1;
    if (r.unit == "kpps") pr.second = static_cast<long>(i) + 1;
  }
  for (const auto& [key, pr] : udpPair) {
    if (!pr.first || !pr.second) continue;
    const auto& mb = rows[pr.first - 1];
    auto& kp = rows[pr.second - 1];
    if (!(mb.value > 0)) continue;
    if (auto datagram = calib::paramValue(kp.params, "datagram")) {
      const double bytes = std::strtod(datagram->c_str(), nullptr);
      if (!(bytes > 0) || kp.value != std::floor(kp.value)) continue;
      if (std::floor(kppsOf(mb.value, bytes) + 1e-9) == kp.value) addFlag(kp, "alias-of:" + mb.metric);
      continue;
    }
    const double frame = std::strtod(calib::paramValue(kp.params, "frame")->c_str(), nullptr);
    if (!(frame > 0)) continue;
    constexpr double kFullMtuDatagram = 1472;  // 1500-byte IPv4 MTU - 20 (IP) - 8 (UDP)
    if (netperfDerived(mb, kp, frame) ||
        (frame > kFullMtuDatagram && netperfDerived(mb, kp, kFullMtuDatagram)))
      addFlag(kp, "alias-of:" + mb.metric);
  }

  // LMBench checks inside one table and board.
  std::map<std::string, std::map<std::string, size_t>> lm;  // group -> benchmark -> row
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (r.family.rfind("lmbench", 0) != 0 || r.board.empty()) continue;
    lm[r.source + "\n" + r.section + "\n" + r.table + "\n" + r.board + "\n" + r.params]
      [r.benchmark] = i;
  }
  for (const auto& [g, byName] : lm) {
    for (const auto& [name, i] : byName) {
      if (auto alias = lmbenchAliasOf(name); alias && byName.count(*alias))
        addFlag(rows[i], "alias-of:" + *alias);
      if (name == "latency_for_1.00_mb_block_size") {
        auto it = byName.find("lat_mem_rd-stride128-sz1000k");
        if (it != byName.end() && rows[it->second].value > 0 &&
            std::fabs(rows[i].value / rows[it->second].value - 0.5) < 0.05)
          addFlag(rows[i], "half-latency:mean-of-0-and-lat_mem_rd-stride128-sz1000k");
      }
    }
    // A TCP round trip over loopback does everything a pipe round trip does (two system calls
    // per side, a wake-up and a context switch per direction) plus the TCP/IP stack for a
    // segment and its ACK both ways: a lat_tcp below the same table's lat_pipe is not a TCP
    // round trip (the guides print ~0.5-1 us, a few null system calls, next to lat_pipe of
    // 15-40 us and lat_connect of 40-100 us).
    const size_t* pipe = nullptr;
    for (const char* p : {"lat_pipe", "pipe_latency"})
      if (auto it = byName.find(p); !pipe && it != byName.end()) pipe = &it->second;
    if (pipe && rows[*pipe].value > 0)
      for (const char* t : {"lat_tcp", "tcp_latency_using_localhost"}) {
        auto it = byName.find(t);
        if (it != byName.end() && rows[it->second].value > 0 &&
            rows[it->second].value < rows[*pipe].value)
          addFlag(rows[it->second], "outlier:below-lat_pipe(" +
                                        formatRatio(rows[it->second].value / rows[*pipe].value) +
                                        "x)");
      }
    // Two different bandwidths of one board with the same printed value: copy/paste suspect.
    std::map<double, std::vector<std::string>> byValue;
    for (const auto& [name, i] : byName) {
      const auto& r = rows[i];
      if (r.unit == "MB/s" && !r.min && !r.max && r.value >= 10) byValue[r.value].push_back(name);
    }
    for (const auto& [v, names] : byValue) {
      if (names.size() < 2) continue;
      for (const auto& a : names)
        for (const auto& b : names) {
          if (a == b) continue;
          auto aa = lmbenchAliasOf(a), ab = lmbenchAliasOf(b);
          if ((aa && *aa == b) || (ab && *ab == a)) continue;
          addFlag(rows[byName.at(a)], "duplicate-value:" + b);
        }
    }
  }

  // Dhrystone cpu_clock: a board whose clock disagrees with another board of the same SoC that
  // reports the same Dhrystones/s, and with its own lat_ops-int-add (about one cycle).
  struct Dhry {
    size_t clock = SIZE_MAX, dps = SIZE_MAX, perMhz = SIZE_MAX, intAdd = SIZE_MAX;
  };
  std::map<std::string, Dhry> dh;  // source|board|params -> rows
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (r.board.empty()) continue;
    std::string key = r.source + "\n" + r.board + "\n" + r.params;
    if (r.benchmark == "cpu_clock")
      dh[key].clock = i;
    else if (r.benchmark == "dhrystone_per_second")
      dh[key].dps = i;
    else if (r.benchmark == "dhrystone_per_mhz")
      dh[key].perMhz = i;
    else if (r.benchmark == "lat_ops-int-add")
      dh[key].intAdd = i;
  }
  for (const auto& [ka, a] : dh) {
    if (a.clock == SIZE_MAX || a.dps == SIZE_MAX || a.intAdd == SIZE_MAX) continue;
    double clockA = rows[a.clock].value, implied = 1000.0 / rows[a.intAdd].value;
    if (!(clockA > 0) || !(implied > 0) || std::fabs(clockA / implied - 1) <= 0.25) continue;
    for (const auto& [kb, b] : dh) {
      if (ka == kb || b.clock == SIZE_MAX || b.dps == SIZE_MAX) continue;
      if (socOf(rows[a.clock].board) != socOf(rows[b.clock].board)) continue;
      double clockB = rows[b.clock].value;
      double dA = rows[a.dps].value, dB = rows[b.dps].value;
      if (!(dB > 0) || std::fabs(dA / dB - 1) > 0.02 || std::fabs(clockA / clockB - 1) <= 0.25)
        continue;
      addFlag(rows[a.clock], "outlier:cpu_clock-" + formatNumber(clockA) + "-vs-" +
                                 formatNumber(clockB) + "-on-" + rows[b.clock].board +
                                 "-same-dhrystones/s");
      if (a.perMhz != SIZE_MAX)
        addFlag(rows[a.perMhz], "outlier:derived-from-misreported-cpu_clock");
      break;
    }
  }

  for (auto& r : rows) {
    // ALSA: bits/s = fs x 2 channels x 16 bit when the rate is supported.
    if (r.family == "audio" && r.unit == "bit/s") {
      if (auto fs = calib::paramValue(r.params, "sampling_rate")) {
        double expect = std::strtod(fs->c_str(), nullptr) * 32.0;
        if (expect > 0 && std::fabs(r.value / expect - 1) > 0.05)
          addFlag(r, "outlier:off-nominal-rate(" + formatRatio(r.value / expect) + "x-fs*32)");
      }
    }
    // Linux TCP/UDP above what a 1 GbE line carries in the row's directions (the guides'
    // CPSW/EMAC ports are 1 GbE [BK]): UDP egress/ingress is one-way (1000 Mbit/s); a TCP table
    // that states no direction is iperf's dual test or a bidirectional run, both directions
    // summed (2 x 1000 Mbit/s; guide 000's am57xx rows reach 1201, tools/iperf.yaml).
    if (r.family == "ethernet" && r.unit == "Mbit/s" &&
        calib::paramValue(r.params, "stack").value_or("") == "linux") {
      const std::string b = lowerText(r.benchmark);
      const bool bothWays = contains(b, "bidirectional") || contains(b, "tcp");
      if (r.value > (bothWays ? 2000 : 1000)) addFlag(r, "outlier:above-1GbE-line-rate");
    }
  }

  // Crypto throughput cannot exceed the fastest memory bandwidth LMBench measured on the same
  // board in the same guide (openssl touches every byte of its buffer at least once).
  std::map<std::string, double> memMax;  // source|board|kernel -> MB/s
  auto boardKey = [](const MeasuredRow& r) {
    return r.source + "\n" + r.board + "\n" + calib::paramValue(r.params, "kernel").value_or("");
  };
  for (const auto& r : rows) {
    if (r.board.empty() || r.unit != "MB/s" || r.benchmark.rfind("bw_mem-", 0) != 0) continue;
    double& m = memMax[boardKey(r)];
    m = std::max({m, r.value, r.max.value_or(0.0)});
  }
  for (auto& r : rows) {
    if (r.family != "crypto" || r.unit != "KB/s" || r.board.empty()) continue;
    auto it = memMax.find(boardKey(r));
    if (it != memMax.end() && it->second > 0 && r.value / 1024.0 > it->second)
      addFlag(r, "outlier:above-memory-bandwidth(" + formatRatio(r.value / 1024.0 / it->second) +
                     "x-max-bw_mem)");
  }

  // The same bound on the bytes an `openssl speed` call adds: from its smallest to its largest
  // buffer, one algorithm's call time (size / rate) must grow by at least the added bytes at the
  // fastest bw_mem, and must grow at all. A column whose call time stays flat while the buffer
  // grows 64-512x did not process its buffers (every size of it is the same broken set-up), so
  // all its throughput rows are flagged.
  std::map<std::string, std::vector<size_t>> speedGroups;  // source|table|board|kernel|alg
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (r.family != "crypto" || r.unit != "KB/s" || r.board.empty() || !(r.value > 0)) continue;
    auto alg = calib::paramValue(r.params, "algorithm");
    auto size = calib::paramValue(r.params, "buffer_size");
    if (!alg || !size || std::strtod(size->c_str(), nullptr) <= 0) continue;
    speedGroups[boardKey(r) + "\n" + r.table + "\n" + *alg].push_back(i);
  }
  for (const auto& [key, idx] : speedGroups) {
    auto bytesOf = [&](size_t i) {
      return std::strtod(calib::paramValue(rows[i].params, "buffer_size")->c_str(), nullptr);
    };
    auto [lo, hi] = std::minmax_element(idx.begin(), idx.end(), [&](size_t a, size_t b) {
      return bytesOf(a) < bytesOf(b);
    });
    const double n0 = bytesOf(*lo), n1 = bytesOf(*hi);
    if (n1 < 64 * n0) continue;  // too narrow a range to judge
    const double t0 = n0 / (rows[*lo].value * 1000.0), t1 = n1 / (rows[*hi].value * 1000.0);
    std::string why;
    if (t1 <= t0) {
      why = "outlier:flat-call-time(" + formatRatio(t1 / t0) + "x-time-for-" +
            formatRatio(n1 / n0) + "x-bytes)";
    } else {
      auto it = memMax.find(boardKey(rows[*lo]));
      const double marginalMBs = (n1 - n0) / (t1 - t0) / (1024.0 * 1024.0);
      if (it != memMax.end() && it->second > 0 && marginalMBs > it->second)
        why = "outlier:flat-call-time(added-bytes-at-" + formatRatio(marginalMBs / it->second) +
              "x-max-bw_mem)";
    }
    if (!why.empty())
      for (size_t i : idx) addFlag(rows[i], why);
  }
  flagSpeedPerByteAcrossSocFamily(rows, speedGroups);

  // IPSec: CPU time per payload byte (load / throughput) of one run, against the cheapest run
  // of the same board in the same guide. The costliest cipher in software (3DES: 48 DES rounds,
  // ~2.5x AES per byte with the network path included, in every guide that prints both) bounds
  // what a working run can cost; an engine path costs the CPU less than software. A run more
  // than 4x the cheapest, or with no throughput at a busy CPU, did not carry its traffic: all
  // its rows (throughput, packets/s, CPU load) are flagged.
  struct IpsecRun {
    double mbps = -1, load = -1;
    long mbpsRow = -1, kppsRow = -1;
    std::vector<size_t> rows;
  };
  std::map<std::string, std::map<std::string, IpsecRun>> ipsecRuns;  // board key -> run
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (r.family != "ipsec" || r.board.empty()) continue;
    auto alg = calib::paramValue(r.params, "algorithm");
    if (!alg) continue;
    IpsecRun& run = ipsecRuns[boardKey(r)][r.section + "\n" + r.table + "\n" + *alg];
    run.rows.push_back(i);
    if (r.unit == "Mbit/s") {
      run.mbps = r.value;
      run.mbpsRow = static_cast<long>(i);
    }
    if (r.unit == "kpps") run.kppsRow = static_cast<long>(i);
    if (isCpuLoad(r)) run.load = r.value;
  }
  // The IPSec tables' packets/s column is the run's Mbit/s over the payload of a full-size TCP
  // segment through ESP, truncated to whole kpps (a row of several runs: the mean of the runs'
  // truncated values, its min and max the truncated Mbit/s min and max). With a 1500-byte IPv4
  // MTU the payload is MTU - IP header 20 - ESP header 8 - IV (one cipher block) - ICV 12
  // (HMAC-SHA1-96), floored to the cipher block, less the ESP trailer 2 and the TCP header with
  // timestamps 32 (RFC 791, 4303, 2404, 7323): 1406 bytes for AES (16-byte block), 1414 for 3DES
  // (8-byte). Every kpps value of the four Linux guides is that truncation (am57xx 147.5 Mbit/s
  // -> 13.11 -> 13; j721e 192.9-693.3 Mbit/s -> 17-61); a plain TCP segment (1448 bytes) would
  // give 12 for 147.5. Such a value is the throughput again, scored once, as Mbit/s.
  constexpr double kEspPayloadMin = 1406, kEspPayloadMax = 1414;
  auto truncatedKpps = [&](double mbps, double kp) {
    return kp == std::floor(kp) && std::floor(kppsOf(mbps, kEspPayloadMax) + 1e-9) <= kp &&
           kp <= std::floor(kppsOf(mbps, kEspPayloadMin) + 1e-9);
  };
  for (auto& [board, runs] : ipsecRuns)
    for (auto& [k, run] : runs) {
      if (run.mbpsRow < 0 || run.kppsRow < 0) continue;
      const auto& mb = rows[static_cast<size_t>(run.mbpsRow)];
      auto& kp = rows[static_cast<size_t>(run.kppsRow)];
      if (!(mb.value > 0)) continue;
      bool derived = false;
      if (kp.min && kp.max && mb.min && mb.max)
        derived = truncatedKpps(*mb.min, *kp.min) && truncatedKpps(*mb.max, *kp.max) &&
                  kp.value <= kppsOf(mb.value, kEspPayloadMin) + 1e-9 &&
                  kp.value >= kppsOf(mb.value, kEspPayloadMax) - 1;
      else if (!kp.min && !kp.max)
        derived = truncatedKpps(mb.min.value_or(mb.value), kp.value) &&
                  truncatedKpps(mb.max.value_or(mb.value), kp.value);
      if (derived) addFlag(kp, "alias-of:" + mb.metric);
    }
  for (auto& [board, runs] : ipsecRuns) {
    double cheapest = 0;
    std::string cheapestAlg;
    for (const auto& [k, run] : runs)
      if (run.mbps > 0 && run.load > 0 && (cheapest == 0 || run.load / run.mbps < cheapest)) {
        cheapest = run.load / run.mbps;
        cheapestAlg = k.substr(k.rfind('\n') + 1);
      }
    if (!(cheapest > 0)) continue;
    for (const auto& [k, run] : runs) {
      if (!(run.load > 0) || run.mbps < 0) continue;
      std::string why;
      if (run.mbps == 0)
        why = "outlier:ipsec-cpu-per-byte(no-throughput-at-" + formatNumber(run.load) + "%-cpu)";
      else if (run.load / run.mbps > 4 * cheapest)
        why = "outlier:ipsec-cpu-per-byte(" + formatRatio(run.load / run.mbps / cheapest) +
              "x-" + cheapestAlg + ")";
      if (!why.empty())
        for (size_t i : run.rows) addFlag(rows[i], why);
    }
  }

  // Orders of magnitude away from the same measurement elsewhere.
  std::map<std::string, std::vector<size_t>> fine, coarse;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (r.value <= 0 || r.unit.empty() || r.unit == "%") continue;
    std::string base = r.family + "\n" + r.benchmark + "\n" + r.metric + "\n" + r.unit;
    fine[base + "\n" + paramsWithout(r.params, {"kernel", "test_number"})].push_back(i);
    coarse[base].push_back(i);
  }
  auto judge = [&](const std::vector<size_t>& idx, double factor, const char* what) {
    std::vector<double> v;
    for (size_t i : idx) v.push_back(rows[i].value);
    double m = median(v);
    if (!(m > 0)) return;
    for (size_t i : idx)
      if (rows[i].value > factor * m)
        addFlag(rows[i], "outlier:" + formatRatio(rows[i].value / m) + "x-median(" + what + ")");
  };
  // A fine group is judged only when at least three guides (or guide parts) print it, so that
  // one guide's platform cannot set the median alone.
  std::set<size_t> judged;
  for (const auto& [k, idx] : fine) {
    std::set<std::string> origins;
    for (size_t i : idx)
      origins.insert(rows[i].source + "\n" +
                     calib::paramValue(rows[i].params, "kernel").value_or(""));
    if (idx.size() < 4 || origins.size() < 3) continue;
    judge(idx, 100.0, "same-params");
    judged.insert(idx.begin(), idx.end());
  }
  for (const auto& [k, idx] : coarse) {
    std::vector<size_t> rest;
    for (size_t i : idx)
      if (!judged.count(i)) rest.push_back(i);
    if (rest.empty() || idx.size() < 4) continue;
    // Judge the not-yet-judged rows against the whole benchmark's median.
    std::vector<double> v;
    for (size_t i : idx) v.push_back(rows[i].value);
    double m = median(v);
    if (!(m > 0)) continue;
    for (size_t i : rest)
      if (rows[i].value > 100.0 * m)
        addFlag(rows[i], "outlier:" + formatRatio(rows[i].value / m) + "x-median(same-benchmark)");
  }
}

}  // namespace socsim::ingest
