#pragma once
/// @file workload.h
/// @brief Synthetic benchmarks and how they plug into `socsim run` / `socsim validate`.
///
/// A Workload declares which measured rows it predicts (`covers`) and predicts one row at a
/// time from the board's models. It receives only the row's identity (`Query`: family,
/// benchmark, metric, params, unit) — never the measured value — so no measured number can flow
/// into a prediction (DESIGN.md modelling rule 3).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace socsim::soc {
struct BoardConfig;
class Platform;
}  // namespace socsim::soc

namespace socsim::wl {

/// The identity of one measured row (no value).
struct Query {
  std::string family;
  std::string benchmark;
  std::string metric;
  std::string params;  ///< `key=value;...` as in the measured CSV
  std::string unit;
  /// The document (guide, i.e. software release) the row was measured in, as the measured CSV's
  /// `source` column; "" when unknown (`socsim run` on a board). A set-up fact, not a value:
  /// workloads whose software path changed between releases (OpenSSL's crypto engine) use it.
  std::string source;

  Query() = default;
  Query(std::string family_, std::string benchmark_, std::string metric_, std::string params_,
        std::string unit_, std::string source_ = {})
      : family(std::move(family_)),
        benchmark(std::move(benchmark_)),
        metric(std::move(metric_)),
        params(std::move(params_)),
        unit(std::move(unit_)),
        source(std::move(source_)) {}
};

/// Where simulated time went, for `socsim explain` (DESIGN.md modelling rule 4).
/// Each part: name (e.g. "core.issue", "l1d", "l2", "interconnect", "dram.row_miss",
/// "dram.refresh", "driver.cpu") and its share of the benchmark's time in seconds.
struct Breakdown {
  std::vector<std::pair<std::string, double>> seconds;
  void add(const std::string& part, double s) { seconds.emplace_back(part, s); }
};

struct Prediction {
  double value = 0;         ///< in the query's unit
  Breakdown breakdown;
  std::string note;         ///< optional human note (e.g. "kernel path is a placeholder")
  /// Non-empty when the value restates a configured fact rather than a modelled outcome (an
  /// ALSA stream's requested bit rate, a display mode's refresh rate, a cpufreq clock): names
  /// the fact. `socsim validate` prints such rows but does not score them (`excluded:config-echo`),
  /// so a near-zero error by construction does not flatter the statistics.
  std::string configEcho;
};

/// Everything a workload may look at to predict: the resolved board config and, built on first
/// use, the elaborated SystemC platform (one per process; see DESIGN.md SystemC notes).
class RunContext {
 public:
  virtual ~RunContext() = default;
  virtual const soc::BoardConfig& board() const = 0;
  /// Elaborates the platform on first call; later calls return the same one.
  virtual soc::Platform& platform() = 0;
};

/// Thrown by `predict` when the board lacks what the benchmark needs or the model does not
/// cover this case yet; the row is reported `not-modelled` with this reason.
struct NotModelled {
  std::string reason;
};

class Workload {
 public:
  virtual ~Workload() = default;
  /// Short unique name ("lmbench-mem", "dhrystone").
  virtual std::string name() const = 0;
  /// True when this workload predicts rows like `q`.
  virtual bool covers(const Query& q) const = 0;
  /// Predict one row; throws NotModelled when it cannot.
  virtual Prediction predict(RunContext& ctx, const Query& q) = 0;
};

/// All workloads, in registration order.
class Registry {
 public:
  void add(std::unique_ptr<Workload> w) { items_.push_back(std::move(w)); }
  /// First workload covering `q`, or nullptr.
  Workload* find(const Query& q) const;
  const std::vector<std::unique_ptr<Workload>>& all() const { return items_; }

 private:
  std::vector<std::unique_ptr<Workload>> items_;
};

/// The built-in workloads (each workload file contributes one register function, called here;
/// explicit calls so that static linking keeps them).
Registry& builtinRegistry();

}  // namespace socsim::wl
