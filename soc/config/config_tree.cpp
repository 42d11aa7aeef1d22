#include "soc/config/config_tree.h"
#include "soc/config/parse_cache.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <limits>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "common/error.h"
#include "common/input_file.h"

namespace fs = std::filesystem;

namespace socsim::config {

// ---------------------------------------------------------------- Node

const Node* Node::find(const std::string& key) const {
  for (const auto& [k, v] : map)
    if (k == key) return &v;
  return nullptr;
}
Node* Node::find(const std::string& key) {
  for (auto& [k, v] : map)
    if (k == key) return &v;
  return nullptr;
}
bool Node::erase(const std::string& key) {
  auto it = std::find_if(map.begin(), map.end(), [&](const auto& kv) { return kv.first == key; });
  if (it == map.end()) return false;
  map.erase(it);
  return true;
}
Node& Node::set(const std::string& key, Node value) {
  if (Node* n = find(key)) {
    *n = std::move(value);
    return *n;
  }
  map.emplace_back(key, std::move(value));
  return map.back().second;
}
const char* Node::typeName() const {
  switch (type) {
    case Type::Scalar:
      return "scalar";
    case Type::Map:
      return "map";
    case Type::Seq:
      return "sequence";
    default:
      return "null";
  }
}

// ---------------------------------------------------------------- suggestions

int editDistance(const std::string& a, const std::string& b) {
  std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      int sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

namespace {
/// Edit distance, but a candidate that contains the word or is contained in it (size ->
/// size_bytes, assoc -> associativity) counts as one edit away.
int closeness(const std::string& word, const std::string& c) {
  int d = editDistance(word, c);
  if (!word.empty() && !c.empty() &&
      (c.find(word) != std::string::npos || word.find(c) != std::string::npos))
    d = std::min(d, 1);
  return d;
}
}  // namespace

std::string nearest(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  int bestD = 1 << 30;
  for (const auto& c : candidates) {
    int d = closeness(word, c);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

std::string suggestion(const std::string& word, const std::vector<std::string>& candidates) {
  if (candidates.empty()) return "";
  std::string best = nearest(word, candidates);
  // Close enough to be a typo, or the word is part of a key (size -> size_bytes).
  bool close =
      !word.empty() && closeness(word, best) <= std::max<int>(2, static_cast<int>(word.size()) / 3);
  if (close) return " (did you mean '" + best + "'?)";
  std::string all;
  for (const auto& c : candidates) all += (all.empty() ? "" : ", ") + c;
  return " (valid keys: " + all + ")";
}

// ---------------------------------------------------------------- parsing

namespace {

/// Limits on the tree a YAML text may expand to. Aliases share nodes, so a small text can name
/// a structure that contains itself (`a: &a [*a]`: endless recursion) or one that doubles at
/// every level ("billion laughs": 9^10 nodes from ten lines). Board files are a few hundred
/// nodes deep 6, so the limits only stop such structures.
constexpr int kMaxDepth = 64;
constexpr size_t kMaxNodes = 1000000;

struct ConvertState {
  std::vector<YAML::Node> ancestors;  ///< the nodes being converted, outermost first
  size_t nodes = 0;
};

void requireUtf8(const std::string& s, const std::string& file, int line, const std::string& path) {
  if (invalidUtf8Offset(s) != std::string::npos)
    throw InputError(file, line, path,
                     "not UTF-8 text: save the file as UTF-8 (a board file is UTF-8 YAML)");
}

Node convert(const YAML::Node& y, const std::string& file, ConvertState& st) {
  Node n;
  n.file = file;
  n.line = y.Mark().is_null() ? 0 : y.Mark().line + 1;
  for (const auto& a : st.ancestors)
    if (a.is(y))
      throw InputError(file, n.line, "",
                       "a YAML alias refers to a node that contains it (a recursive structure "
                       "cannot be a board or preset)");
  if (static_cast<int>(st.ancestors.size()) >= kMaxDepth)
    throw InputError(file, n.line, "",
                     "nested more than " + std::to_string(kMaxDepth) + " levels deep");
  if (++st.nodes > kMaxNodes)
    throw InputError(file, n.line, "",
                     "expands to more than " + std::to_string(kMaxNodes) +
                         " nodes (aliases of aliases?): not a board or preset file");
  st.ancestors.push_back(y);
  switch (y.Type()) {
    case YAML::NodeType::Scalar:
      n.type = Node::Type::Scalar;
      n.scalar = y.Scalar();
      requireUtf8(n.scalar, file, n.line, "");
      break;
    case YAML::NodeType::Sequence:
      n.type = Node::Type::Seq;
      for (const auto& e : y) n.seq.push_back(convert(e, file, st));
      break;
    case YAML::NodeType::Map: {
      n.type = Node::Type::Map;
      std::set<std::string> seen;
      std::vector<YAML::Node> merges;  // YAML merge keys (<<: *anchor), applied below
      for (const auto& kv : y) {
        int keyLine = kv.first.Mark().is_null() ? n.line : kv.first.Mark().line + 1;
        if (!kv.first.IsScalar())
          throw InputError(file, keyLine, "", "map keys must be plain strings");
        std::string key = kv.first.Scalar();
        requireUtf8(key, file, keyLine, "");
        if (key == "<<") {
          std::vector<YAML::Node> these;
          if (kv.second.IsSequence())
            for (const auto& m : kv.second) these.push_back(m);
          else
            these.push_back(kv.second);
          for (const auto& m : these)
            if (!m.IsMap())
              throw InputError(file, keyLine, key,
                               "a merge key '<<' needs a map or a list of maps (such as *anchor), "
                               "got a " +
                                   std::string(m.IsScalar() ? "scalar"
                                               : m.IsNull() ? "null"
                                                            : "sequence"));
          merges.insert(merges.end(), these.begin(), these.end());
          continue;
        }
        if (!seen.insert(key).second)
          throw InputError(file, keyLine, key, "duplicate key '" + key + "'");
        Node child = convert(kv.second, file, st);
        if (child.isNull() || child.line == 0) child.line = keyLine;
        n.map.emplace_back(key, std::move(child));
      }
      // Merged maps fill only the keys the map does not set itself (YAML 1.1 merge semantics).
      for (const auto& m : merges) {
        Node merged = convert(m, file, st);
        for (auto& [k, v] : merged.map)
          if (seen.insert(k).second) n.map.emplace_back(k, std::move(v));
      }
      break;
    }
    default:
      n.type = Node::Type::Null;
  }
  st.ancestors.pop_back();
  return n;
}

Node convert(const YAML::Node& y, const std::string& file) {
  ConvertState st;
  return convert(y, file, st);
}

bool isValueForm(const Node& n) {
  if (!n.isMap() || !n.find("value")) return false;
  for (const auto& [k, v] : n.map)
    if (k != "value" && k != "unit" && k != kSourceKey) return false;
  return true;
}

/// Collapse `{value, unit, source}` maps into scalars, then push group `source:` keys down.
void normalize(Node& n, const std::string& inherited) {
  if (n.isMap()) {
    std::string src = inherited;
    if (Node* s = n.find(kSourceKey)) {
      if (!s->isScalar())
        throw InputError(s->file, s->line, kSourceKey,
                         "'source' must be a string naming where the facts come from, got a " +
                             std::string(s->typeName()));
      src = s->scalar;
      n.erase(kSourceKey);
    }
    for (auto& [k, child] : n.map) {
      if (isValueForm(child)) {
        const Node* v = child.find("value");
        const Node* u = child.find("unit");
        const Node* s = child.find(kSourceKey);
        if (!v->isScalar())
          throw InputError(v->file, v->line, k + ".value",
                           "'value' must be a scalar, got a " + std::string(v->typeName()));
        if ((u && !u->isScalar()) || (s && !s->isScalar()))
          throw InputError(child.file, child.line, k, "'unit' and 'source' must be strings");
        Node sc;
        sc.type = Node::Type::Scalar;
        sc.file = v->file;
        sc.line = v->line;
        sc.scalar = v->scalar + (u && !u->scalar.empty() ? " " + u->scalar : "");
        sc.source = s ? s->scalar : src;
        child = std::move(sc);
      } else {
        normalize(child, src);
      }
    }
  } else if (n.isSeq()) {
    for (auto& e : n.seq) normalize(e, inherited);
  } else if (n.isScalar()) {
    if (n.source.empty()) n.source = inherited;
  }
}

}  // namespace

Node parseYamlText(const std::string& text, const std::string& displayName) {
  YAML::Node y;
  try {
    // A second document ('---') would otherwise be ignored without a word.
    std::vector<YAML::Node> docs = YAML::LoadAll(text);
    if (docs.size() > 1) {
      int line = docs[1].Mark().is_null() ? 0 : docs[1].Mark().line + 1;
      throw InputError(displayName, line, "",
                       "a second YAML document starts here (after a '---' separator): a board "
                       "or preset file holds exactly one");
    }
    if (!docs.empty()) y = docs.front();
  } catch (const YAML::Exception& e) {
    int line = e.mark.is_null() ? 0 : e.mark.line + 1;
    throw InputError(displayName, line, "", "malformed YAML: " + e.msg);
  }
  Node n;
  try {
    n = convert(y, displayName);
  } catch (const YAML::Exception& e) {
    int line = e.mark.is_null() ? 0 : e.mark.line + 1;
    throw InputError(displayName, line, "", "malformed YAML: " + e.msg);
  }
  if (n.isNull()) n.line = 1;
  normalize(n, "");
  return n;
}

namespace {
ParsedFileHook& parsedFileHook() {
  static ParsedFileHook hook;
  return hook;
}
}  // namespace

namespace {
std::vector<std::set<std::pair<std::string, int>>*>& activeReadSets() {
  static std::vector<std::set<std::pair<std::string, int>>*> sets;
  return sets;
}
}  // namespace

struct ReadRecorder::Impl {
  std::set<std::pair<std::string, int>> seen;
};

ReadRecorder::ReadRecorder() : impl_(std::make_unique<Impl>()) {
  activeReadSets().push_back(&impl_->seen);
}

ReadRecorder::~ReadRecorder() {
  auto& sets = activeReadSets();
  sets.erase(std::remove(sets.begin(), sets.end(), &impl_->seen), sets.end());
}

ReadSet ReadRecorder::reads() const { return ReadSet(impl_->seen.begin(), impl_->seen.end()); }

void noteRead(const Node& n) {
  auto& sets = activeReadSets();
  if (sets.empty() || n.file.empty()) return;
  for (auto* s : sets) s->insert({n.file, n.line});
}

struct ReadCapture::Impl {
  std::set<std::pair<std::string, int>> seen;
  std::vector<std::set<std::pair<std::string, int>>*> hidden;
};

ReadCapture::ReadCapture() : impl_(std::make_unique<Impl>()) {
  auto& sets = activeReadSets();
  impl_->hidden = sets;
  sets.assign(1, &impl_->seen);
}

ReadCapture::~ReadCapture() {
  auto& sets = activeReadSets();
  sets.erase(std::remove(sets.begin(), sets.end(), &impl_->seen), sets.end());
  sets.insert(sets.begin(), impl_->hidden.begin(), impl_->hidden.end());
}

ReadSet ReadCapture::reads() const { return ReadSet(impl_->seen.begin(), impl_->seen.end()); }

void noteReads(const ReadSet& reads) {
  for (auto* s : activeReadSets()) s->insert(reads.begin(), reads.end());
}

void setParsedFileHook(ParsedFileHook hook) { parsedFileHook() = std::move(hook); }
ParsedFileHook currentParsedFileHook() { return parsedFileHook(); }

namespace {
/// parse_cache.h: path -> (the file's text, its parsed tree before the hook).
std::map<std::string, std::pair<std::string, Node>>& parseCache() {
  static std::map<std::string, std::pair<std::string, Node>> cache;
  return cache;
}

/// The parsed tree of `path` with text `text`: the cached one when the text is unchanged.
Node parseCached(const std::string& path, std::string text) {
  auto& cache = parseCache();
  auto it = cache.find(path);
  if (it != cache.end() && it->second.first == text) return it->second.second;
  Node n = parseYamlText(text, path);
  cache[path] = {std::move(text), n};
  return n;
}

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "", "cannot read file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

int preparseYamlTree(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->path().extension() != ".yaml") continue;
    try {
      parseCached(it->path().string(), readText(it->path().string()));
    } catch (const std::exception&) {
      // Reported where the file is used.
    }
  }
  return static_cast<int>(parseCache().size());
}

Node parseYamlFile(const std::string& path) {
  Node n = parseCached(path, readText(path));
  if (const auto& hook = parsedFileHook()) hook(path, n);
  return n;
}

// ---------------------------------------------------------------- presets

namespace {

/// Merge `over` onto `base`: maps key by key, everything else replaces.
void mergeInto(Node& base, const Node& over) {
  if (!base.isMap() || !over.isMap()) {
    auto presets = base.presets;
    base = over;
    if (base.presets.empty()) base.presets = presets;
    return;
  }
  base.file = over.file;
  base.line = over.line;
  for (const auto& [k, v] : over.map) {
    if (Node* b = base.find(k))
      mergeInto(*b, v);
    else
      base.map.emplace_back(k, v);
  }
}

std::string canonicalPath(const fs::path& p) {
  std::error_code ec;
  auto c = fs::weakly_canonical(p, ec);
  return ec ? p.lexically_normal().string() : c.string();
}

std::string displayPath(const fs::path& p) {
  return p.lexically_normal().string();
}

Node loadPreset(const Node& presetKey, const std::string& includingFile,
                const std::string& yamlPath, std::vector<std::string>& stack);

void resolveIn(Node& n, const std::string& yamlPath, std::vector<std::string>& stack) {
  if (n.isSeq()) {
    for (size_t i = 0; i < n.seq.size(); ++i)
      resolveIn(n.seq[i], yamlPath + "[" + std::to_string(i) + "]", stack);
    return;
  }
  if (!n.isMap()) return;
  for (auto& [k, v] : n.map) resolveIn(v, yamlPath.empty() ? k : yamlPath + "." + k, stack);
  const Node* p = n.find(kPresetKey);
  if (!p) return;
  Node key = *p;
  Node base = loadPreset(key, n.file, yamlPath, stack);
  n.erase(kPresetKey);
  Node own = n;
  auto presets = base.presets;
  mergeInto(base, own);
  base.file = own.file;
  base.line = own.line;
  base.presets = presets;
  base.presetAsWritten = key.scalar;
  n = std::move(base);
}

Node loadPreset(const Node& key, const std::string& includingFile, const std::string& yamlPath,
                std::vector<std::string>& stack) {
  std::string where = yamlPath.empty() ? std::string(kPresetKey) : yamlPath + "." + kPresetKey;
  if (!key.isScalar() || key.scalar.empty())
    throw InputError(key.file, key.line, where,
                     "expected a preset file path (relative to this file), got a " +
                         std::string(key.typeName()));
  fs::path rel(key.scalar);
  fs::path full = rel.is_absolute() ? rel : fs::path(includingFile).parent_path() / rel;
  std::error_code ec;
  if (!fs::is_regular_file(full, ec))
    throw InputError(key.file, key.line, where,
                     "unknown preset '" + key.scalar + "': no file " + displayPath(full) +
                         " (preset paths are relative to the file that names them)");
  std::string canon = canonicalPath(full);
  if (std::find(stack.begin(), stack.end(), canon) != stack.end()) {
    std::string chain;
    for (const auto& s : stack) chain += s + " -> ";
    throw InputError(key.file, key.line, where,
                     "preset cycle: " + chain + canon + " (a preset must not include itself)");
  }
  Node tree = parseYamlFile(displayPath(full));
  if (!tree.isMap())
    throw InputError(
        tree.file, tree.line, "",
        "a preset file must hold a map of fields, got a " + std::string(tree.typeName()));
  stack.push_back(canon);
  resolveIn(tree, "", stack);
  stack.pop_back();
  tree.presets.push_back(displayPath(full));
  return tree;
}

/// The leaves of `n` that did not come from any of `presetFiles` (the board's own facts).
bool keepOwn(Node& n, const std::vector<std::string>& presetFiles) {
  bool fromPreset = std::find(presetFiles.begin(), presetFiles.end(), n.file) != presetFiles.end();
  if (!n.isMap()) return !fromPreset;
  std::vector<std::pair<std::string, Node>> kept;
  for (auto& [k, v] : n.map)
    if (keepOwn(v, presetFiles)) kept.emplace_back(k, std::move(v));
  n.map = std::move(kept);
  return !n.map.empty();
}

void collectPresets(const Node& n, std::vector<std::string>& out) {
  out.insert(out.end(), n.presets.begin(), n.presets.end());
  for (const auto& [k, v] : n.map) collectPresets(v, out);
  for (const auto& e : n.seq) collectPresets(e, out);
}

}  // namespace

Node loadMapFile(const std::string& path) {
  Node root = parseYamlFile(path);
  resolvePresets(root);
  if (!root.isMap()) throw InputError(path, root.line, "", "expected a map at the top level");
  return root;
}

void resolvePresets(Node& root) {
  std::vector<std::string> stack;
  if (!root.file.empty()) stack.push_back(canonicalPath(root.file));
  resolveIn(root, "", stack);
}

// ---------------------------------------------------------------- overrides

std::string overridePathSyntax() {
  return "PATH=VALUE, PATH = KEY{.KEY} where a KEY may be followed by [INDEX]: "
         "[0] (position), [NAME] (the element whose 'name' is NAME) or [*] (every element); "
         "e.g. clusters[0].core.clock_mhz=1800, clusters[*].l2.size=1MiB, dram.data_rate=3200MT/s. "
         "A path that starts inside a cluster (core.clock_mhz, l2.size) means the first cluster. "
         "VALUE takes units like the YAML (2GHz, 32KiB, 15ns). PATH.preset=FILE swaps a group's "
         "preset (FILE relative to the board file), keeping the board's own facts for that group.";
}

std::pair<std::string, std::string> splitOverride(const std::string& a) {
  auto eq = a.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("--set", 0, a, "expected PATH=VALUE (" + overridePathSyntax() + ")");
  auto trim = [](std::string s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    size_t i = 0;
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    return s.substr(i);
  };
  return {trim(a.substr(0, eq)), trim(a.substr(eq + 1))};
}

namespace {

struct Segment {
  std::string key;
  bool indexed = false;
  std::string index;  ///< digits, a name, or "*"
};

/// The position an all-digit [INDEX] names; an index too long for size_t (clusters[99999999999999999999])
/// is past the end of any list, not an internal error.
size_t indexOf(const std::string& digits) {
  size_t i = 0;
  for (char c : digits) {
    if (i > (std::numeric_limits<size_t>::max() - 9) / 10) return std::numeric_limits<size_t>::max();
    i = i * 10 + static_cast<size_t>(c - '0');
  }
  return i;
}

std::vector<Segment> parsePath(const std::string& path) {
  std::vector<Segment> segs;
  size_t i = 0;
  auto fail = [&](const std::string& why) {
    throw InputError("--set", 0, path, why + " (" + overridePathSyntax() + ")");
  };
  while (i < path.size()) {
    Segment s;
    while (i < path.size() && path[i] != '.' && path[i] != '[') s.key += path[i++];
    if (s.key.empty()) fail("empty key in override path");
    if (i < path.size() && path[i] == '[') {
      auto close = path.find(']', i);
      if (close == std::string::npos) fail("unclosed '[' in override path");
      s.indexed = true;
      s.index = path.substr(i + 1, close - i - 1);
      if (s.index.empty()) fail("empty [] in override path");
      i = close + 1;
    }
    segs.push_back(s);
    if (i < path.size()) {
      if (path[i] != '.') fail("expected '.' after ']' in override path");
      ++i;
      if (i == path.size()) fail("override path ends with '.'");
    }
  }
  if (segs.empty()) fail("empty override path");
  return segs;
}

std::vector<std::string> keysOf(const Node& n) {
  std::vector<std::string> k;
  for (const auto& kv : n.map) k.push_back(kv.first);
  return k;
}

struct OverrideCtx {
  std::string fullPath, value, baseDir;
};

void applyAt(Node& n, const std::vector<Segment>& segs, size_t at, const std::string& done,
             const OverrideCtx& ctx);

void applyPreset(Node& group, const std::string& groupPath, const OverrideCtx& ctx) {
  Node key;
  key.type = Node::Type::Scalar;
  key.scalar = ctx.value;
  key.file = "--set";
  // Relative preset paths in --set resolve against the board file's folder.
  Node own = group;
  std::vector<std::string> old;
  collectPresets(group, old);
  keepOwn(own, old);
  std::vector<std::string> stack;
  Node base = loadPreset(key, (fs::path(ctx.baseDir) / "board.yaml").string(), groupPath, stack);
  auto presets = base.presets;
  if (own.isMap()) mergeInto(base, own);
  base.presets = presets;
  base.presetAsWritten = ctx.value;
  base.file = group.file;
  base.line = group.line;
  group = std::move(base);
}

void applyAt(Node& n, const std::vector<Segment>& segs, size_t at, const std::string& done,
             const OverrideCtx& ctx) {
  const Segment& s = segs[at];
  bool last = at + 1 == segs.size();
  std::string here = done.empty() ? s.key : done + "." + s.key;
  if (!n.isMap())
    throw InputError("--set", 0, ctx.fullPath,
                     "'" + done + "' is a " + n.typeName() + ", it has no key '" + s.key + "'");
  if (last && !s.indexed && s.key == kPresetKey) {
    applyPreset(n, done, ctx);
    return;
  }
  Node* child = n.find(s.key);
  if (!child) {
    if (!last || s.indexed)
      throw InputError("--set", 0, ctx.fullPath,
                       "unknown key '" + s.key + "' under '" + (done.empty() ? "(top)" : done) +
                           "'" + suggestion(s.key, keysOf(n)));
    // A field not given in the YAML: create it; the schema validates the key afterwards.
    Node v;
    v.type = Node::Type::Scalar;
    v.scalar = ctx.value;
    v.file = "--set";
    v.source = "--set " + ctx.fullPath + "=" + ctx.value;
    n.set(s.key, std::move(v));
    return;
  }
  std::vector<Node*> targets;
  if (s.indexed) {
    if (!child->isSeq())
      throw InputError(
          "--set", 0, ctx.fullPath,
          "'" + here + "' is a " + child->typeName() + ", not a list: drop the [" + s.index + "]");
    if (s.index == "*") {
      for (auto& e : child->seq) targets.push_back(&e);
    } else if (std::all_of(s.index.begin(), s.index.end(), ::isdigit)) {
      size_t i = indexOf(s.index);
      if (i >= child->seq.size())
        throw InputError("--set", 0, ctx.fullPath,
                         "index " + s.index + " out of range: '" + here + "' has " +
                             std::to_string(child->seq.size()) + " element(s)");
      targets.push_back(&child->seq[i]);
    } else {
      std::vector<std::string> names;
      for (auto& e : child->seq) {
        const Node* nm = e.isMap() ? e.find("name") : nullptr;
        if (nm && nm->isScalar()) {
          names.push_back(nm->scalar);
          if (nm->scalar == s.index) targets.push_back(&e);
        }
      }
      if (targets.empty())
        throw InputError(
            "--set", 0, ctx.fullPath,
            "no element named '" + s.index + "' in '" + here + "'" + suggestion(s.index, names));
    }
    here += "[" + s.index + "]";
  } else {
    targets.push_back(child);
  }
  for (Node* t : targets) {
    if (last) {
      if (t->isMap() || t->isSeq())
        throw InputError("--set", 0, ctx.fullPath,
                         "'" + here + "' is a group (" + t->typeName() + "), set one of its keys" +
                             (t->isMap() ? suggestion("", keysOf(*t)) : ""));
      t->type = Node::Type::Scalar;
      t->scalar = ctx.value;
      t->file = "--set";
      t->line = 0;
      t->source = "--set " + ctx.fullPath + "=" + ctx.value;
    } else {
      applyAt(*t, segs, at + 1, here, ctx);
    }
  }
}

}  // namespace

void applyOverride(Node& root, const std::string& path, const std::string& value,
                   const std::string& baseDir, const std::string& shorthandPrefix) {
  std::string full = path;
  auto segs = parsePath(path);
  if (!shorthandPrefix.empty() && root.isMap() && !root.find(segs[0].key)) {
    // "core.clock_mhz" -> "clusters[0].core.clock_mhz" when 'core' is a key of the first cluster.
    auto pre = parsePath(shorthandPrefix);
    const Node* p = &root;
    for (const auto& s : pre) {
      p = p && p->isMap() ? p->find(s.key) : nullptr;
      if (p && s.indexed) {
        size_t i = std::all_of(s.index.begin(), s.index.end(), ::isdigit) ? indexOf(s.index) : 0;
        p = p->isSeq() && i < p->seq.size() ? &p->seq[i] : nullptr;
      }
    }
    if (p && p->isMap() && p->find(segs[0].key)) {
      full = shorthandPrefix + "." + path;
      segs = parsePath(full);
    }
  }
  OverrideCtx ctx{full, value, baseDir};
  applyAt(root, segs, 0, "", ctx);
}

}  // namespace socsim::config
