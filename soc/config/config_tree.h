#pragma once
/// @file config_tree.h
/// @brief The YAML tree the loader works on: parsed once with yaml-cpp, every node knowing the
///        file and line it came from and (for scalars) the source of the fact.
///
/// Steps, in order (see loader.h for the whole pipeline):
///  1. `parseYamlFile` reads one file. The value form `{value: V, unit: U, source: S}` becomes
///     a scalar "V U" with source S, and a group's `source: S` key becomes the source of every
///     scalar below it that has none of its own (nested groups inherit it).
///  2. `resolvePresets` replaces each map holding `preset: PATH` (PATH relative to the file
///     that names it) by the preset's tree with the map's other keys merged on top: maps merge
///     key by key, scalars and sequences replace. Presets may name presets; cycles are errors.
///  3. `applyOverride` applies one `--set PATH=VALUE` (path syntax in overridePathSyntax()).
/// Nothing here knows a schema; conversion to params structs is in schema_io.h.
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace socsim::config {

/// A parsed YAML node with its origin.
struct Node {
  enum class Type { Null, Scalar, Map, Seq };
  Type type = Type::Null;
  std::string scalar;                             ///< for Scalar
  std::vector<std::pair<std::string, Node>> map;  ///< for Map, in file order
  std::vector<Node> seq;                          ///< for Seq
  std::string file;                               ///< file the node was written in
  int line = 0;                                   ///< 1-based line (0 = unknown)
  std::string source;                             ///< fact source of a Scalar ("" = none stated)
  /// Preset files merged into this map, innermost first (for preset overrides and provenance).
  std::vector<std::string> presets;
  /// The preset path exactly as written by the including file (for the resolved output).
  std::string presetAsWritten;

  bool isMap() const { return type == Type::Map; }
  bool isSeq() const { return type == Type::Seq; }
  bool isScalar() const { return type == Type::Scalar; }
  bool isNull() const { return type == Type::Null; }
  /// Child of a map by key, or nullptr.
  const Node* find(const std::string& key) const;
  Node* find(const std::string& key);
  /// Remove a key from a map; returns whether it was there.
  bool erase(const std::string& key);
  /// Set (replace or append) a key of a map.
  Node& set(const std::string& key, Node value);
  /// "map", "sequence", "scalar", "null".
  const char* typeName() const;
};

/// Keys with a meaning to the loader in every group (never schema fields).
inline constexpr const char* kPresetKey = "preset";
inline constexpr const char* kSourceKey = "source";

/// Called by parseYamlFile with the path as given and the parsed tree (after step 1, before
/// any preset is resolved): the loader hook of the calibration override layer
/// (calibration/fit/param_overrides.h), which puts fitted parameter values in place of the
/// presets' defaults. Empty by default; setting an empty function removes it.
using ParsedFileHook = std::function<void(const std::string& path, Node& root)>;
void setParsedFileHook(ParsedFileHook hook);
/// The hook now installed (empty when none).
ParsedFileHook currentParsedFileHook();

/// Scalars a model actually consumed, by the file and line they were written at: the
/// calibration layer's way to tell a free parameter some prediction reads from one that only
/// sits in a parsed file (a preset key the including file replaces, a group no model asks for,
/// a field no reader converts). `noteRead` is called where a scalar becomes a model's value
/// (schema_io.h convertScalar, and the few readers that convert scalars themselves); it costs
/// nothing while no recorder is active.
using ReadSet = std::vector<std::pair<std::string, int>>;
/// Record that the scalar `n` was consumed (no-op unless a ReadRecorder is active).
void noteRead(const Node& n);
/// While alive, every noteRead in this process is recorded (nested recorders each see them).
class ReadRecorder {
 public:
  ReadRecorder();
  ~ReadRecorder();
  ReadRecorder(const ReadRecorder&) = delete;
  ReadRecorder& operator=(const ReadRecorder&) = delete;
  /// The (file as given, line) pairs recorded so far, without repeats, sorted.
  ReadSet reads() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// While alive, the scalars consumed are recorded here only, hidden from the recorders alive
/// when it was made (nest it inside them, LIFO): a loader that converts many presets ahead of
/// need (every storage device of configs/) captures each one's reads and notes them again with
/// noteReads when a board uses that preset, so a board's recorded reads are the presets it uses.
class ReadCapture {
 public:
  ReadCapture();
  ~ReadCapture();
  ReadCapture(const ReadCapture&) = delete;
  ReadCapture& operator=(const ReadCapture&) = delete;
  /// The (file as given, line) pairs captured so far, without repeats, sorted.
  ReadSet reads() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};
/// Record `reads` (from a ReadCapture) in the active recorders, as if consumed now.
void noteReads(const ReadSet& reads);

/// Parse a YAML file into a Node (step 1). Throws InputError naming file and line for
/// unreadable files, malformed YAML (yaml-cpp's ParserException), duplicate keys, non-scalar
/// map keys and malformed value forms.
Node parseYamlFile(const std::string& path);
/// Same for YAML text; `displayName` names it in errors.
Node parseYamlText(const std::string& text, const std::string& displayName);

/// Step 2. `root` was parsed from root.file; nested presets resolve against their own file.
/// Errors: unknown preset path (file not found), preset cycle (the chain is named), a preset
/// whose top level is not a map, `preset` not a string.
void resolvePresets(Node& root);

/// Steps 1 and 2 for a data file whose top level must be a map (workload and controller data):
/// parse `path`, resolve its presets. Throws InputError naming the file when the top level is
/// not a map.
Node loadMapFile(const std::string& path);

/// Step 3. `path` uses overridePathSyntax(); `value` is the text after '='. A scalar value
/// replaces the node (its source becomes "--set PATH=VALUE"). `...preset=FILE` re-resolves
/// the group on top of FILE (relative to `baseDir`, normally the board file's folder), keeping
/// the facts the board itself gave for that group. Errors (file "--set", the path, nearest
/// valid key): unknown map key, index out of range, unknown cluster name, indexing a non-list.
/// `shorthandPrefix` is prepended when the first segment is not a top-level key but is a key
/// of shorthandPrefix's node (e.g. "clusters[0]" lets "core.clock_mhz" mean
/// "clusters[0].core.clock_mhz"). Keys that do not exist yet are created at the last level only
/// (schema validation later rejects unknown ones with the nearest valid key).
void applyOverride(Node& root, const std::string& path, const std::string& value,
                   const std::string& baseDir, const std::string& shorthandPrefix = "");

/// Parse "PATH=VALUE"; throws InputError for a missing '='.
std::pair<std::string, std::string> splitOverride(const std::string& assignment);

/// A human description of the override path syntax (for --help and docs).
std::string overridePathSyntax();

/// Levenshtein distance (for "did you mean").
int editDistance(const std::string& a, const std::string& b);
/// The candidate nearest to `word` by edit distance ("" when candidates is empty).
std::string nearest(const std::string& word, const std::vector<std::string>& candidates);
/// " (did you mean 'x'?)" or, when nothing is close, " (valid keys: a, b, c)".
std::string suggestion(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace socsim::config
