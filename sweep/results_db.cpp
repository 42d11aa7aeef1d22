#include "sweep/results_db.h"

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "common/error.h"

namespace socsim::sweep {

namespace fs = std::filesystem;

namespace {

const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS sweeps(
  sweep_id TEXT PRIMARY KEY, name TEXT NOT NULL, spec_file TEXT, spec_text TEXT, method TEXT,
  n_points INTEGER, created_utc TEXT, socsim_version TEXT, calibration TEXT);
CREATE TABLE IF NOT EXISTS sweep_params(
  sweep_id TEXT, position INTEGER, key TEXT, PRIMARY KEY(sweep_id, position));
CREATE TABLE IF NOT EXISTS queries(
  sweep_id TEXT, board_index INTEGER, query_index INTEGER, family TEXT, benchmark TEXT, metric TEXT,
  params TEXT, unit TEXT, PRIMARY KEY(sweep_id, board_index, query_index));
CREATE TABLE IF NOT EXISTS points(
  sweep_id TEXT, point_index INTEGER, board_index INTEGER, board TEXT, overrides TEXT,
  status TEXT NOT NULL, error TEXT, resolved_config TEXT, run_seconds REAL, socsim_version TEXT,
  calibration TEXT, backend TEXT, host TEXT, finished_utc TEXT, PRIMARY KEY(sweep_id, point_index));
CREATE TABLE IF NOT EXISTS point_values(
  sweep_id TEXT, point_index INTEGER, position INTEGER, key TEXT, value_text TEXT, value_num REAL,
  PRIMARY KEY(sweep_id, point_index, position));
CREATE TABLE IF NOT EXISTS predictions(
  sweep_id TEXT, point_index INTEGER, query_index INTEGER, status TEXT NOT NULL, predicted REAL,
  lo REAL, hi REAL, reason TEXT, note TEXT, PRIMARY KEY(sweep_id, point_index, query_index));
CREATE TABLE IF NOT EXISTS breakdown(
  sweep_id TEXT, point_index INTEGER, query_index INTEGER, position INTEGER, part TEXT, seconds REAL,
  PRIMARY KEY(sweep_id, point_index, query_index, position));
INSERT OR IGNORE INTO meta VALUES('schema', 'socsim-sweep-1');
)sql";

/// A prepared statement with positional binds.
class Stmt {
 public:
  Stmt(sqlite3* db, const std::string& sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st_, nullptr) != SQLITE_OK)
      throw std::runtime_error(std::string("sqlite: ") + sqlite3_errmsg(db) + " in: " + sql);
  }
  ~Stmt() { sqlite3_finalize(st_); }
  Stmt& bind(int i, const std::string& v) {
    sqlite3_bind_text(st_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& bind(int i, const char* v) { return bind(i, std::string(v)); }
  Stmt& bind(int i, int v) {
    sqlite3_bind_int(st_, i, v);
    return *this;
  }
  Stmt& bind(int i, double v) {
    sqlite3_bind_double(st_, i, v);
    return *this;
  }
  Stmt& bind(int i, const std::optional<double>& v) {
    if (v) sqlite3_bind_double(st_, i, *v);
    else sqlite3_bind_null(st_, i);
    return *this;
  }
  /// Run to completion (writes) and reset for reuse.
  void run() {
    int rc = sqlite3_step(st_);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) throw std::runtime_error(std::string("sqlite: ") + sqlite3_errmsg(db_));
    sqlite3_reset(st_);
    sqlite3_clear_bindings(st_);
  }
  bool step() {
    int rc = sqlite3_step(st_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) throw std::runtime_error(std::string("sqlite: ") + sqlite3_errmsg(db_));
    return false;
  }
  std::string text(int c) const {
    auto* p = sqlite3_column_text(st_, c);
    return p ? reinterpret_cast<const char*>(p) : "";
  }
  int integer(int c) const { return sqlite3_column_int(st_, c); }
  std::optional<double> real(int c) const {
    if (sqlite3_column_type(st_, c) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_double(st_, c);
  }

 private:
  sqlite3* db_;
  sqlite3_stmt* st_ = nullptr;
};

std::string nowUtc() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string hostName() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

}  // namespace

ResultsDb::ResultsDb(const std::string& file, bool networkSafe) : file_(file) {
  fs::path parent = fs::path(file).parent_path();
  if (!parent.empty() && !fs::exists(parent)) throw InputError(file, 0, "--db", "folder does not exist");
  if (sqlite3_open_v2(file.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw InputError(file, 0, "--db", "cannot open the results database: " + msg);
  }
  sqlite3_busy_timeout(db_, 30000);
  try {
    exec(networkSafe ? "PRAGMA journal_mode=DELETE" : "PRAGMA journal_mode=WAL");
    exec("PRAGMA synchronous=NORMAL");
    exec(kSchema);
    Stmt s(db_, "SELECT value FROM meta WHERE key='schema'");
    if (!s.step() || s.text(0) != "socsim-sweep-1") throw std::runtime_error("unknown schema");
  } catch (const std::exception& e) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw InputError(file, 0, "--db", std::string("not a socsim sweep database (") + e.what() + ")");
  }
}

ResultsDb::~ResultsDb() {
  if (db_) sqlite3_close(db_);
}

void ResultsDb::exec(const std::string& sql) const {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "?";
    sqlite3_free(err);
    throw std::runtime_error("sqlite: " + msg);
  }
}

void ResultsDb::registerSweep(const std::string& id, const Spec& spec, const std::vector<Point>& points,
                              const std::vector<std::vector<wl::Query>>& queries, const std::string& version,
                              const std::string& calibration) {
  exec("BEGIN IMMEDIATE");
  try {
    Stmt(db_, "INSERT OR IGNORE INTO sweeps VALUES(?,?,?,?,?,?,?,?,?)")
        .bind(1, id).bind(2, spec.name).bind(3, spec.file).bind(4, spec.text).bind(5, spec.method)
        .bind(6, static_cast<int>(points.size())).bind(7, nowUtc()).bind(8, version).bind(9, calibration)
        .run();
    Stmt kp(db_, "INSERT OR IGNORE INTO sweep_params VALUES(?,?,?)");
    for (size_t i = 0; i < spec.parameters.size(); ++i)
      kp.bind(1, id).bind(2, static_cast<int>(i)).bind(3, spec.parameters[i].key).run();
    Stmt q(db_, "INSERT OR IGNORE INTO queries VALUES(?,?,?,?,?,?,?,?)");
    for (size_t b = 0; b < queries.size(); ++b)
      for (size_t i = 0; i < queries[b].size(); ++i) {
        const auto& w = queries[b][i];
        q.bind(1, id).bind(2, static_cast<int>(b)).bind(3, static_cast<int>(i)).bind(4, w.family)
            .bind(5, w.benchmark).bind(6, w.metric).bind(7, w.params).bind(8, w.unit).run();
      }
    Stmt p(db_, "INSERT OR IGNORE INTO points(sweep_id, point_index, board_index, board, overrides, status) "
                "VALUES(?,?,?,?,?,'pending')");
    Stmt v(db_, "INSERT OR IGNORE INTO point_values VALUES(?,?,?,?,?,?)");
    for (const auto& pt : points) {
      p.bind(1, id).bind(2, pt.index).bind(3, pt.boardIndex).bind(4, spec.boards[static_cast<size_t>(pt.boardIndex)])
          .bind(5, join(pt.overrides, "\n")).run();
      for (size_t i = 0; i < pt.swept.size(); ++i) {
        double num = numericValue(pt.swept[i].second);
        v.bind(1, id).bind(2, pt.index).bind(3, static_cast<int>(i)).bind(4, pt.swept[i].first)
            .bind(5, pt.swept[i].second);
        if (num == num) v.bind(6, num);
        v.run();
      }
    }
    exec("COMMIT");
  } catch (...) {
    exec("ROLLBACK");
    throw;
  }
}

std::set<int> ResultsDb::finished(const std::string& id, bool includeFailed) const {
  std::set<int> out;
  Stmt s(db_, std::string("SELECT point_index FROM points WHERE sweep_id=? AND status IN ('ok'") +
                  (includeFailed ? ",'failed')" : ")"));
  s.bind(1, id);
  while (s.step()) out.insert(s.integer(0));
  return out;
}

void ResultsDb::record(const std::string& id, const PointResult& r, const std::string& version,
                       const std::string& calibration, const std::string& backend) {
  exec("BEGIN IMMEDIATE");
  try {
    Stmt(db_, "DELETE FROM predictions WHERE sweep_id=? AND point_index=?").bind(1, id).bind(2, r.index).run();
    Stmt(db_, "DELETE FROM breakdown WHERE sweep_id=? AND point_index=?").bind(1, id).bind(2, r.index).run();
    Stmt(db_, "UPDATE points SET status=?, error=?, resolved_config=?, run_seconds=?, socsim_version=?, "
              "calibration=?, backend=?, host=?, finished_utc=? WHERE sweep_id=? AND point_index=?")
        .bind(1, r.ok ? "ok" : "failed").bind(2, r.error).bind(3, r.resolvedConfig).bind(4, r.runSeconds)
        .bind(5, version).bind(6, calibration).bind(7, backend).bind(8, hostName()).bind(9, nowUtc())
        .bind(10, id).bind(11, r.index).run();
    if (sqlite3_changes(db_) != 1) throw std::runtime_error("point " + std::to_string(r.index) + " is not registered");
    Stmt p(db_, "INSERT INTO predictions VALUES(?,?,?,?,?,?,?,?,?)");
    Stmt b(db_, "INSERT INTO breakdown VALUES(?,?,?,?,?,?)");
    for (size_t q = 0; q < r.predictions.size(); ++q) {
      const auto& x = r.predictions[q];
      p.bind(1, id).bind(2, r.index).bind(3, static_cast<int>(q)).bind(4, x.status)
          .bind(5, x.status == "ok" ? std::optional<double>(x.value) : std::nullopt)
          .bind(6, x.lo).bind(7, x.hi).bind(8, x.reason).bind(9, x.note).run();
      for (size_t k = 0; k < x.breakdown.size(); ++k)
        b.bind(1, id).bind(2, r.index).bind(3, static_cast<int>(q)).bind(4, static_cast<int>(k))
            .bind(5, x.breakdown[k].first).bind(6, x.breakdown[k].second).run();
    }
    exec("COMMIT");
  } catch (...) {
    exec("ROLLBACK");
    throw;
  }
}

int ResultsDb::merge(const std::string& shardFile) {
  {
    ResultsDb check(shardFile, true);  // schema check; throws InputError for a foreign file
  }
  Stmt(db_, "ATTACH DATABASE ? AS shard").bind(1, shardFile).run();
  int n = 0;
  try {
    exec("BEGIN IMMEDIATE");
    exec("INSERT OR IGNORE INTO sweeps SELECT * FROM shard.sweeps");
    exec("INSERT OR IGNORE INTO sweep_params SELECT * FROM shard.sweep_params");
    exec("INSERT OR IGNORE INTO queries SELECT * FROM shard.queries");
    exec("INSERT OR IGNORE INTO point_values SELECT * FROM shard.point_values");
    exec("INSERT OR IGNORE INTO points SELECT * FROM shard.points");
    // A finished point in the shard replaces a pending (or older) record here.
    const char* done = "(SELECT sweep_id, point_index FROM shard.points WHERE status != 'pending')";
    exec(std::string("DELETE FROM predictions WHERE (sweep_id, point_index) IN ") + done);
    exec(std::string("DELETE FROM breakdown WHERE (sweep_id, point_index) IN ") + done);
    exec("INSERT OR REPLACE INTO points SELECT * FROM shard.points WHERE status != 'pending'");
    n = sqlite3_changes(db_);
    exec(std::string("INSERT INTO predictions SELECT * FROM shard.predictions WHERE (sweep_id, point_index) IN ") + done);
    exec(std::string("INSERT INTO breakdown SELECT * FROM shard.breakdown WHERE (sweep_id, point_index) IN ") + done);
    exec("COMMIT");
  } catch (...) {
    exec("ROLLBACK");
    exec("DETACH DATABASE shard");
    throw;
  }
  exec("DETACH DATABASE shard");
  return n;
}

std::vector<SweepInfo> ResultsDb::sweeps() const {
  std::vector<SweepInfo> out;
  Stmt s(db_, "SELECT sweep_id, name, spec_file, spec_text, method, n_points, created_utc, socsim_version, "
              "calibration, (SELECT count(*) FROM points p WHERE p.sweep_id=s.sweep_id AND status='ok'), "
              "(SELECT count(*) FROM points p WHERE p.sweep_id=s.sweep_id AND status='failed') "
              "FROM sweeps s ORDER BY created_utc DESC, sweep_id");
  while (s.step()) {
    SweepInfo i;
    i.id = s.text(0);
    i.name = s.text(1);
    i.specFile = s.text(2);
    i.specText = s.text(3);
    i.method = s.text(4);
    i.points = s.integer(5);
    i.createdUtc = s.text(6);
    i.socsimVersion = s.text(7);
    i.calibration = s.text(8);
    i.ok = s.integer(9);
    i.failed = s.integer(10);
    i.pending = i.points - i.ok - i.failed;
    out.push_back(std::move(i));
  }
  for (auto& i : out) {
    Stmt k(db_, "SELECT key FROM sweep_params WHERE sweep_id=? ORDER BY position");
    k.bind(1, i.id);
    while (k.step()) i.keys.push_back(k.text(0));
  }
  return out;
}

SweepInfo ResultsDb::find(const std::string& sel) const {
  auto all = sweeps();
  if (all.empty()) throw InputError(file_, 0, "--db", "the database holds no sweep");
  if (sel.empty()) return all.front();
  for (const auto& i : all)
    if (i.id == sel || i.name == sel) return i;
  for (const auto& i : all)
    if (sel.size() >= 4 && i.id.compare(0, sel.size(), sel) == 0) return i;
  std::string names;
  for (const auto& i : all) names += (names.empty() ? "" : ", ") + i.name + " (" + i.id + ")";
  throw InputError(file_, 0, "--sweep", "no sweep '" + sel + "' in the database; it holds: " + names);
}

std::vector<ResultRow> ResultsDb::results(const std::string& id) const {
  std::vector<ResultRow> out;
  Stmt s(db_, "SELECT p.point_index, p.board, p.status, p.error, q.family, q.benchmark, q.metric, q.params, "
              "q.unit, r.status, r.predicted, r.lo, r.hi, r.reason "
              "FROM points p JOIN queries q ON q.sweep_id=p.sweep_id AND q.board_index=p.board_index "
              "LEFT JOIN predictions r ON r.sweep_id=p.sweep_id AND r.point_index=p.point_index "
              "AND r.query_index=q.query_index WHERE p.sweep_id=? ORDER BY p.point_index, q.query_index");
  s.bind(1, id);
  std::map<int, std::vector<std::string>> values;
  {
    Stmt v(db_, "SELECT point_index, value_text FROM point_values WHERE sweep_id=? ORDER BY point_index, position");
    v.bind(1, id);
    while (v.step()) values[v.integer(0)].push_back(v.text(1));
  }
  while (s.step()) {
    ResultRow r;
    r.point = s.integer(0);
    r.board = s.text(1);
    r.values = values[r.point];
    std::string pointStatus = s.text(2);
    r.family = s.text(4);
    r.benchmark = s.text(5);
    r.metric = s.text(6);
    r.params = s.text(7);
    r.unit = s.text(8);
    if (pointStatus == "ok") {
      r.status = s.text(9);
      r.predicted = s.real(10);
      r.lo = s.real(11);
      r.hi = s.real(12);
      r.reason = s.text(13);
    } else {
      r.status = pointStatus;  // failed | pending
      r.reason = s.text(3);
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<ResultsDb::BreakdownRow> ResultsDb::breakdown(const std::string& id) const {
  std::vector<BreakdownRow> out;
  Stmt s(db_, "SELECT b.point_index, q.benchmark, q.params, b.part, b.seconds FROM breakdown b "
              "JOIN points p ON p.sweep_id=b.sweep_id AND p.point_index=b.point_index "
              "JOIN queries q ON q.sweep_id=b.sweep_id AND q.board_index=p.board_index AND q.query_index=b.query_index "
              "WHERE b.sweep_id=? ORDER BY b.point_index, b.query_index, b.position");
  s.bind(1, id);
  while (s.step()) out.push_back({s.integer(0), s.text(1), s.text(2), s.text(3), *s.real(4)});
  return out;
}

std::vector<ResultsDb::PointRow> ResultsDb::points(const std::string& id) const {
  std::vector<PointRow> out;
  std::map<int, std::vector<std::string>> values;
  {
    Stmt v(db_, "SELECT point_index, value_text FROM point_values WHERE sweep_id=? ORDER BY point_index, position");
    v.bind(1, id);
    while (v.step()) values[v.integer(0)].push_back(v.text(1));
  }
  Stmt s(db_, "SELECT point_index, board, status, error, backend, host, run_seconds FROM points WHERE sweep_id=? "
              "ORDER BY point_index");
  s.bind(1, id);
  while (s.step()) {
    PointRow p;
    p.index = s.integer(0);
    p.board = s.text(1);
    p.status = s.text(2);
    p.error = s.text(3);
    p.backend = s.text(4);
    p.host = s.text(5);
    p.runSeconds = s.real(6);
    p.values = values[p.index];
    out.push_back(std::move(p));
  }
  return out;
}

std::string calibrationFingerprint(const std::string& sourceDir) {
  fs::path dir = fs::path(sourceDir) / "calibration" / "params";
  if (!fs::is_directory(dir)) return "none (model defaults; calibration/params absent)";
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::string all;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    all += f.lexically_relative(dir).string() + "\n" + ss.str();
  }
  return "calibration/params " + std::to_string(files.size()) + " files, fnv1a " + hashHex(all);
}

}  // namespace socsim::sweep
