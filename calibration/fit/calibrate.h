#pragma once
/// @file calibrate.h
/// @brief `socsim calibrate`: fits the free parameters (param_registry.h) to the measured
///        dataset, in stages that follow the physics, and writes calibration/params/<group>.yaml
///        and calibration/reports/<group>.{csv,md}.
///
/// Method, per fit group (one or more families fitted together):
///  - rows: the group's measured rows that the model predicts at the starting point and that
///    count under the scoring policy `socsim validate` applies (validation::scoringExclusion:
///    the flags, then a zero measured value, then a prediction that restates a configured fact,
///    `excluded:config-echo`);
///  - fixed values: the committed params of the groups before this one in stage order
///    (paramsSeenBy); the parameters later groups fit stay at their defaults for these rows;
///  - candidates: free parameters in the stage's config folders that the group's rows read:
///    keys of the presets and workload profiles parsed while predicting the rows that a model
///    consumed (config::ReadRecorder; a key of a parsed file no model reads is not offered),
///    minus the folders an earlier stage's group claims (held where that stage left them); a
///    parameter another group's params file fits is not offered (an earlier group's at its
///    fitted value, a later group's at its default: GroupResult::heldAtDefault), nor one the
///    rows of an earlier group of the same stage read (GroupResult::heldForEarlier);
///  - budget: at most one fitted parameter per ten rows used; when there are more candidates,
///    a one-step sensitivity screen keeps the ones whose move can remove most of the residuals
///    (screenGain);
///  - loss: mean Cauchy loss (scale 0.25) of log(predicted/measured), or of (predicted -
///    measured)/100 for percentage rows (CPU load), plus 0.002 x the squared distance from the
///    default in bound-normalized coordinates (regularization toward the documented defaults);
///  - joint rows (`--joint`, CalibrateOptions::jointLaterRows; kernel and I/O stages): a
///    parameter shared with later groups is fitted on every row that reads it: the scored rows
///    of the later groups selected in the run whose boards' models consume a fitted parameter
///    join the loss (each row once), predicted at those groups' committed values; the group's
///    budget, report rows, reported loss and `--check` stay its own rows';
///  - warm start (CalibrateOptions::warmStart, the default): the group's committed fitted
///    parameters (its params file and .lobo.csv, committedFitted) that are still candidates are
///    kept without re-screening and start at their committed values; the screen fills the rest
///    of the budget from the start point. The regularization still pulls toward the documented
///    defaults (the start point is only where the optimizer begins), and the fit ends at the
///    lowest data loss of the defaults, the start point and the optimizer's point, so it is
///    never worse than the committed values on the same rows. `--cold` starts from the defaults
///    and screens every candidate (the behaviour before session 7);
///  - optimizer: NLopt LN_SBPLX (or LN_BOBYQA) on bound-normalized coordinates (log scale for
///    positive bounds), integers rounded, evaluations memoized and capped;
///  - each evaluation is one `validation::validate` run over those rows: one forked worker per
///    board, the board loaded with the trial values in place (the override hook is inherited by
///    the workers), so nothing is re-elaborated in the parent. Each worker records the config
///    files it parsed (board, presets, workload profiles) and the scalars its models consumed
///    (config::ReadRecorder; the storage data notes a device or controller preset only for the
///    board whose peripheral picks it); a board's predictions are memoized on the values of the
///    parameters it consumed, so an evaluation re-runs only the boards whose inputs changed (a
///    screening step of one eMMC part's parameter runs the board with that part);
///  - leave-one-board-out: for each board, the fitted parameters its rows read are refitted
///    without its rows (the other fitted parameters stay at their full-fit values; the refit
///    starts at the full fit's values, or at the defaults with `--cold`, at most
///    `loboEvaluations` evaluations); its rows predicted at the refit values give the LOBO
///    residuals, the 80 % intervals and their coverage. The report lists each refit's trials.
#include <iosfwd>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "calibration/dataset/measured_row.h"
#include "calibration/fit/param_overrides.h"
#include "calibration/fit/param_registry.h"

namespace socsim::calib {

/// A fit group: the families fitted together, and the config folders (prefixes of registry
/// scopes) whose parameters the group may fit.
struct FitGroup {
  std::string name;   ///< also the params/report file stem
  std::string stage;  ///< memory | cores | kernel | io
  std::vector<std::string> families;
  std::vector<std::string> scopePrefixes;
};

/// All fit groups in stage order (memory system first, then cores, kernel paths, I/O).
const std::vector<FitGroup>& fitGroups();
/// The group fitting `family`, or nullptr.
const FitGroup* groupOfFamily(const std::string& family);

/// The committed values a group's fit and `--check` see: those of the params files of the
/// groups at or before `group` in fitGroups() order (the stage order), the group's own file
/// included; the files of the groups fitted after it are left out, so their parameters stay at
/// the documented defaults for its rows. A group's fit and report thus depend only on its own
/// and the earlier groups' values: refitting a later group (the kernel paths) cannot stale an
/// earlier group's report (the memory rows bw_file_rd and bw_mmap_rd o2c read kernel paths),
/// while refitting an earlier group moves the later groups' rows (refit those after it, in stage
/// order). `socsim validate` applies every file. An unknown `group` keeps every value.
ParamSet paramsSeenBy(const ParamSet& committed, const std::string& group);

struct CalibrateOptions {
  std::string sourceDir;          ///< holds configs/ and calibration/
  std::vector<std::string> groups;  ///< group names to fit (empty: all, in stage order)
  int jobs = 2;                   ///< worker processes per evaluation
  int maxEvaluations = 60;        ///< optimizer evaluations per group (screening not counted)
  int maxScreen = 40;             ///< candidates screened at most (nearest the rows first)
  /// Evaluations per leave-one-out refit (refitWithout): the reduced budget of the CV refits.
  int loboEvaluations = 15;
  /// Cross-validation only (`validate --cv ... --cv-groups`): the committed fit groups the
  /// refits may touch (empty: every group whose fitted parameters move the held-out rows). A
  /// group left out keeps its committed values, which were fitted with the held-out unit's rows:
  /// for the rows it moves the fold is a partial leave-out (crossValidate says which groups on
  /// its log). For studies of one stage when another (memory: ~15 s per evaluation) is too
  /// costly to refit with enough evaluations.
  std::vector<std::string> cvGroups;
  double maxSecondsPerGroup = 600;  ///< optimizer time cap per group
  /// Total time of the run (0: none): the groups share it by the cost of one evaluation each
  /// (measured in a pre-pass when several groups are fitted); within a group, screening
  /// stops at 30 % of its share, the optimizer at 70 %, the LOBO refits share the rest.
  double timeBudgetSeconds = 1800;
  std::string algorithm = "sbplx";  ///< sbplx | bobyqa
  /// Start each group's fit from its committed values (calibration/params/<group>.yaml) and
  /// keep its committed fitted parameters without re-screening; false (`--cold`): start from
  /// the documented defaults and screen every candidate.
  bool warmStart = true;
  /// Shared parameters fitted on every row that reads them: a group of the kernel or I/O stage
  /// adds to its loss the scored rows of the later groups this run selects (all in a full run)
  /// that read a parameter it fits, predicted at those groups' committed values (warm; they
  /// cannot fit it: its folder is claimed by this group's stage or held for it). Each row counts
  /// once, whatever its family: the rows are the evidence about the parameter, and a family
  /// weight would let 8 rt-latency rows count as much as 400 lmbench-os rows. The memory and
  /// cores groups are left out: every later row reads the core and memory parameters, and their
  /// own benchmarks isolate them (joining every I/O row to each CPU group would multiply the full
  /// run's cost). Session 10: lmbench-os fitted switch_instructions 2000 -> 3730 on lat_ctx
  /// alone; crypto reads it 2-5 times per request (10.5 % vs 7.8 % at 2000). false (the default,
  /// `--joint` sets it): the staged fit, each group on its own rows. Not the default yet: each
  /// joint group costs one evaluation of every later reading group's rows, and each of its
  /// evaluations re-runs their boards, which the time allotment (fitNeedSeconds, from the own
  /// rows' pre-pass) does not count; unmeasured in a full run.
  bool jointLaterRows = false;
  bool write = true;              ///< write calibration/params and calibration/reports
  std::ostream* log = nullptr;    ///< progress lines
  /// Cross-validation (crossValidate) only: one line per held-out fold (its refits' evaluations,
  /// stop reasons, elapsed time and an estimate of the time left), written even when `log` is
  /// null (`socsim validate --cv` into a redirected stderr).
  std::ostream* foldLog = nullptr;
};

/// Per-family in-sample summary over the rows used.
struct FamilyFit {
  std::string family;
  int rows = 0;
  double mdapeBefore = 0, mdapeAfter = 0;  ///< fraction (rel rows) or pp (pp rows)
  bool pp = false;
};

struct FittedParam {
  std::string name;
  double defaultValue = 0, value = 0;
  std::string unit;
  double sensitivity = 0;
  /// Committed fitted parameter kept by the warm start without re-screening (sensitivity 0).
  bool kept = false;
  double startValue = 0;  ///< where the optimizer began (committed value, or the default)
};

/// Leave-one-board-out choice for one board: the fitted parameters' values refitted without
/// its rows, and `lobo` or `no-donor` (the board's fitted components have no other board).
struct LoboChoice {
  std::string board, status;
  std::vector<std::pair<const FreeParam*, double>> values;
  /// The held-out refit: parameters refitted (those with a donor), the optimizer's trials
  /// (a trial the memo answered included), the evaluations that ran boards, its wall seconds,
  /// and why it stopped (`max-evals`, `time`, `stalled`, `converged`; empty: nothing refitted).
  int refitParams = 0, trials = 0, evaluations = 0;
  double seconds = 0;
  std::string stop;
};

/// Prediction-interval quantiles of one family, from its LOBO residuals (log(pred/meas), or
/// (pred - meas)/100 for percentage rows): the measured value lies in
/// [pred * exp(-q90), pred * exp(-q10)] for 80 % of LOBO rows.
struct FamilyInterval {
  std::string family;
  bool pp = false;
  int rows = 0;
  double q10 = 0, q90 = 0;
  double loboMdape = 0;   ///< fraction (rel) or pp
  int coverageRows = 0;   ///< LOBO rows checked against the other boards' quantiles
  double coverage = 0;    ///< share of them inside their 80 % interval
};

struct GroupResult {
  std::string group;
  int rowsUsed = 0, rowsNotPredicted = 0;
  /// Predicted rows the scoring policy leaves out, as `socsim validate` does
  /// (validation::scoringExclusion: `config-echo`, `zero-measured`), and why ("12 config-echo").
  int rowsExcluded = 0;
  std::string excludedReasons;
  int candidates = 0, screened = 0, budget = 0;
  /// Free parameters of the stage's folders in files these rows parse that no model consumed
  /// for them (config::ReadRecorder): not offered to the screen or the optimizer.
  int unreadCandidates = 0;
  std::vector<FittedParam> fitted;
  /// Parameters these rows' models read that a later group's params file fits: held at their
  /// defaults in this fit and its report (paramsSeenBy), fitted by that later group.
  std::vector<std::string> heldAtDefault;
  /// Parameters these rows' models read that the rows of an earlier group of the same stage
  /// (with overlapping folders) read too: not offered here, held where that group's fit left
  /// them (or at their defaults), so a fit here never moves that group's rows after its fit.
  std::vector<std::string> heldForEarlier;
  double lossBefore = 0, lossAfter = 0;
  /// Warm start: the data loss of the committed values on these rows (the start point; equal
  /// to lossBefore for a cold start), and where they came from ("calibration/params/g.yaml at
  /// commit abc1234"); lossAfter <= min(lossBefore, lossStart) without joint rows (with them,
  /// jointLossAfter <= min(jointLossBefore, jointLossStart)).
  bool warmStart = false;
  double lossStart = 0;
  int keptFitted = 0;  ///< committed fitted parameters kept without re-screening
  /// Where the kept parameters came from: "calibration/params/<group>.yaml at <commit>", or,
  /// without a params file, "calibration/reports/<group>.lobo.csv" (the committed free set,
  /// started at the defaults: startAtDefaults).
  std::string startFrom;
  bool startAtDefaults = false;
  std::vector<FamilyFit> families;
  int evaluations = 0;   ///< evaluations (each runs the boards whose inputs changed)
  int boardRuns = 0;     ///< board worker runs over all evaluations
  double seconds = 0;    ///< whole group, LOBO refits included
  /// Where the group's time went (`socsim calibrate`'s timing table), seconds of wall time:
  double allotSeconds = 0;    ///< its share of --time-budget (or 3 x --max-seconds without one)
  double prepassSeconds = 0;  ///< its pre-pass evaluation (several groups under a time budget)
  double setupSeconds = 0;    ///< first evaluation at the starting point, candidate selection
  double screenSeconds = 0, optimizeSeconds = 0;  ///< sensitivity screen; optimizer
  double loboSeconds = 0;  ///< of which the LOBO refits
  /// Why the screen ended: `all`, `first N of M (--max-screen)`, `time after K of N`,
  /// `budget 0`, `no candidates`; why the optimizer ended: `converged`, `stalled` (no gain in
  /// max(10, 2n + 2) evaluations), `max-evals`, `time`, `nothing to fit`.
  std::string screenStop, optimizerStop;
  /// Skipped by the pre-pass: fewer than 10 scored rows (budget 0) or no candidate parameter,
  /// so the group was given no time share (its report is still written).
  bool nothingToFit = false;
  int loboEvaluations = 0;  ///< evaluation cap of each LOBO refit
  /// The optimizer's evaluation cap: --max-evals, or under a time budget as many evaluations as
  /// the optimizer's part of the allotment holds at the cost of one evaluation of the group (its
  /// pre-pass, or its first evaluation), when that is more (fitEvaluationCap).
  int maxEvaluations = 0;
  /// Where the fit ended: `fitted` (lower data loss than the start point and the defaults),
  /// `kept the committed values` (a warm start the optimizer did not improve on), `kept the
  /// defaults` (nothing found below the defaults' loss), `nothing to fit`.
  std::string outcome;
  std::string note;  ///< why nothing was fitted, etc.
  /// The later groups whose rows read the fitted parameters and joined the loss
  /// (CalibrateOptions::jointLaterRows), their row count, and the joint data loss (those rows
  /// and the group's own, each row once) at the defaults, the start point and the chosen point
  /// (equal to lossBefore, lossStart, lossAfter without joint rows). The chosen point has the
  /// lowest joint loss; lossAfter is the own rows' loss there.
  std::vector<std::string> jointGroups;
  int jointRows = 0;
  double jointLossBefore = 0, jointLossStart = 0, jointLossAfter = 0;
  std::vector<LoboChoice> lobo;
  std::vector<FamilyInterval> intervals;
};

/// The warm start in words, for the params file's provenance, the report, the log and the
/// command's summary: "9 committed fitted parameters kept from calibration/params/g.yaml at
/// commit abc1234", or without a params file "the committed free set from
/// calibration/reports/g.lobo.csv (3 parameters), started at the defaults" (session 9's
/// "warm start from no committed params file (the defaults): 3 committed fitted parameters
/// kept" read as a contradiction), or "no committed fit: the defaults".
std::string warmStartText(const GroupResult& g);

/// Why a fit kept its start point, for a result other than `fitted` or `nothing to fit` (the
/// optimizer's stop: `stalled`, `time ...`); those two (and an empty outcome) need no reason.
bool outcomeNeedsReason(const std::string& outcome);

/// Fit the selected groups, one after the other (each sees the values the earlier ones wrote).
std::vector<GroupResult> calibrate(const std::vector<MeasuredRow>& rows,
                                   const CalibrateOptions& opt);

/// The wall time a group's fit needs under a time budget, in seconds, from the wall time of one
/// evaluation of its rows (`evalSeconds`, the pre-pass), the parameters it will fit (`dims`:
/// min(budget, candidates)) and the screening steps it will take (`screenSteps`: the candidates
/// beyond the committed fitted ones a warm start keeps, up to --max-screen, when the budget has
/// room): the start evaluations, half an evaluation per screening step (a step re-runs only the
/// boards that read the parameter), and min(--max-evals, max(10, 2 dims + 2)) optimizer
/// evaluations (the stall window: a warm start that finds nothing better stops after it), over
/// 0.7 (the LOBO refits get the last 30 % of a group's time).
double fitNeedSeconds(double evalSeconds, int dims, int screenSteps, const CalibrateOptions& opt);

/// The optimizer's evaluation cap of a group: `maxEvaluations` (--max-evals), raised under a time
/// budget (`timeBudget` > 0) to the evaluations that fit in `optimizerSeconds` (the optimizer's
/// part of the group's allotment) at `evalSeconds` an evaluation (its pre-pass or first
/// evaluation; a repeat the memo answers costs less, so the time cap still ends a run that
/// lands on new points). Session 8: lmbench-os stopped at --max-evals with 150 s of its 408 s
/// left.
int fitEvaluationCap(int maxEvaluations, double timeBudget, double optimizerSeconds,
                     double evalSeconds);

/// The time allotment of the next group of a `socsim calibrate` run: `remainingSeconds` of the
/// budget are left, `needs` holds fitNeedSeconds of this group (first) and of the groups after
/// it. Each group is first promised min(its need, `floorSeconds`) (a cheap group with many
/// parameters, such as Ethernet, is not starved by the proportional share of the expensive
/// ones); the group gets the larger of that and its need's proportional share of the
/// remaining time, but never the floors promised to the later groups. At least 1 s.
double timeAllotment(double remainingSeconds, const std::vector<double>& needs, double floorSeconds);

/// The time cap and trial floor of the next cross-validation refit under a time budget
/// (crossValidate): `remainingSeconds` are left for the refits still to run, `costs` holds the
/// estimated seconds of one evaluation of each of them (this refit first; its group's measured
/// refit evaluations, or half its first full evaluation before any). The refits share the time by
/// cost: each gets the same number of trials T, and a refit runs T trials plus its start and end
/// predictions, so T = remainingSeconds / sum(costs) - 2; the cap is costs[0] x T. T is at least
/// `minTrials` (a refit gets enough trials to move from its start point even when the budget is
/// short: the budget is a target, not a hard limit). Session 9: the old equal share,
/// (time left) / (refits left), left the expensive groups (memory, coremark-pro) no time for
/// one evaluation, so they were never refitted and their held-out rows were predicted at the
/// documented defaults.
struct CvRefitAllot {
  double seconds = 0;  ///< the refit's optimizer time cap
  int trials = 0;      ///< T: the trials its share holds (at least minTrials)
};
CvRefitAllot cvRefitAllotment(double remainingSeconds, const std::vector<double>& costs,
                              int minTrials);

/// `--check`: for each selected group with a committed report, predict the report's rows with
/// the committed parameters and compare with the report (loss and per-family MdAPE within
/// `tolerance` relative/absolute, per-row drift counted) and that its committed fitted
/// parameters are within the budget. Returns true when all match.
struct CheckResult {
  std::string group;
  bool ok = false;
  int rows = 0, rowsDrifted = 0;
  /// Report rows the scoring policy (validation::scoringExclusion) now leaves out: the report
  /// counted rows `validate` does not score; the check fails (refit the group).
  int rowsExcluded = 0;
  double lossCommitted = 0, lossNow = 0;
  /// The group's committed fitted parameters (its params file and .lobo.csv) and its budget,
  /// one per ten report rows: a group over budget fails the check.
  int fitted = 0, budget = 0;
  std::string message;
};
/// `--check`'s tolerance on one family's MdAPE (a fraction for relative rows, pp for CPU-load
/// rows): max(0.5 pp, 2 % of the committed MdAPE) x max(1, sqrt(25 / rows)).
/// Why: the check is for stale reports, not for numeric noise. The loss, a mean over every row
/// of the group, is checked to 2 % relative; a median is held to the same relative 2 %, with a
/// 0.5 pp floor for well-fitted families (a 2 % MdAPE). A median over few rows sits on one or
/// two order statistics and jumps across the gap to the next row when one row moves; its
/// sampling spread grows as 1/sqrt(rows). So the tolerance widens by sqrt(25 / rows) below
/// 25 rows: an 8-row family at 127 % (rt-latency) gets 4.5 pp, not 0.5 pp; the 300-row memory
/// families keep 0.5 pp. A per-row drift is still counted and the group's loss still checked.
double checkMdapeTolerance(double committedMdape, int rows, bool pp);

/// The screen's score of one candidate: the share of the squared residuals (clipped to +-1) a
/// move of it along the screened step can remove under a linear model, `residuals` at the
/// starting point and `change` their change for one screening step, the move limited to
/// `roomBack` steps the other way and `roomAhead` steps this way (its bounds). 0 when no
/// feasible move lowers them (a parameter at a bound that only makes things worse).
double screenGain(const std::vector<double>& residuals, const std::vector<double>& change,
                  double roomBack, double roomAhead);

std::vector<CheckResult> checkCalibration(const std::vector<MeasuredRow>& rows,
                                          const CalibrateOptions& opt);

/// Cross-validation by refitting (`socsim validate --cv lobo|release`): for each held-out unit
/// (a fold: a board for `lobo`, a guide's source id for `release`), every fit group with a
/// committed fit (calibration/params/<group>.yaml and calibration/reports/<group>.csv) whose
/// report rows include the unit's rows is refitted without them, in stage order (a later stage
/// sees the earlier stages' refit values), by refitWithout in calibrate.cpp: only the fitted
/// parameters that move the held-out rows are refitted, within
/// CalibrateOptions::loboEvaluations evaluations; the other fitted parameters keep their
/// committed values. A group none of whose rows is held out was fitted without the unit already.
///
/// Start-point policy (honest): every refitted parameter starts at its documented default, never
/// at a value a fit that saw the held-out unit chose (the committed value: that is the
/// optimistic warm start of the LOBO columns in `socsim calibrate`'s reports). A refit keeps the
/// default unless a trial lowers the data loss on the other units' rows.
///
/// Which fitted parameters move a unit's rows: for a group whose own families are among the
/// selected rows', every fitted parameter a model read while predicting the unit's selected
/// rows (config::ReadRecorder; the group was fitted on such rows, so a parameter they read moves
/// them); for the other groups (an earlier stage's parameters under a later stage's family), one
/// prediction with all the group's fitted values moved (a group that moves no unit's row is not
/// refitted), then one screening prediction per parameter of a group that moved some. The
/// screen stops at 25 % of CalibrateOptions::timeBudgetSeconds; a parameter it did not reach
/// counts as moving the units its group moved whose rows read it. The choice of free
/// parameters thus comes from the committed fit (its fitted set, which saw every board, and
/// their committed values for the screen's step); only their values are refitted without the
/// unit, from the defaults.
///
/// Time budget (CalibrateOptions::timeBudgetSeconds > 0): after the screen, each group to be
/// refitted gets its first prediction pass (the cost of one of its evaluations), then the time
/// left minus one final prediction pass (the cost of the first prediction of the selected rows)
/// is shared by the refits still to run by cost (cvRefitAllotment: the same number of trials
/// each, so an expensive group gets a longer cap, at least min(--cv-evals, n + 2) trials for n
/// refitted parameters; a refit that stops early leaves its time to the later ones). A refit
/// costs at least its start and end predictions, so the budget is a target, not a hard limit.
struct CvPlan {
  std::string mode = "lobo";  ///< lobo | release
  /// Per unit: the values replacing the committed ones when its rows are predicted, by
  /// parameter name (FreeParam::name(); look up in the caller's registry: the plan outlives
  /// the registry crossValidate scanned, so it holds no pointers into it).
  std::map<std::string, std::vector<std::pair<std::string, double>>> valuesByUnit;
  /// Families of the groups with a committed fit (their rows are cross-validated).
  std::vector<std::string> families;
  /// family \x1f unit \x1f board -> `no-donor` for held-out rows whose refitted parameters
  /// have no other row to learn from; absent: `lobo` / `release`.
  std::map<std::string, std::string> noDonor;
  std::vector<std::string> groups;  ///< groups with a committed fit
  /// Of those, the groups refitted for some unit (a fitted parameter of theirs moves a selected
  /// row of a unit whose rows they were fitted on); the others are neither refitted nor run.
  std::vector<std::string> refitGroups;
  /// Groups a refit would have touched that CalibrateOptions::cvGroups left out: they kept
  /// their committed values (fitted with the held-out rows) in every fold.
  std::vector<std::string> keptGroups;
  int refits = 0, evaluations = 0, boardRuns = 0;
  /// One refit of one group for one held-out unit: what it got and why it stopped.
  struct Refit {
    std::string unit, group;
    int params = 0;        ///< parameters refitted (with a donor)
    int trials = 0;        ///< optimizer trials (memo answers included)
    int evaluations = 0;   ///< predictions that ran boards
    double seconds = 0;    ///< wall time of the refit
    double allotSeconds = 0;  ///< its optimizer time cap (0: no time budget)
    /// converged | stalled | max-evals | time | interrupted (Ctrl-C / SIGTERM) | "" (nothing
    /// refitted)
    std::string stop;
  };
  std::vector<Refit> refitLog;
  /// Fitted parameters taken as moving the selected rows that read them (in the units their
  /// group's prediction moved, for a group whose family is not selected).
  int byReads = 0;
  /// Screening predictions: other stages' groups' fitted values moved together, then halved
  /// where they moved a selected unit's rows (crossValidate).
  int groupScreens = 0;
  double screenSeconds = 0;
  /// Units whose refits all landed on the committed values: their held-out predictions equal
  /// the in-sample ones (the fit does not depend on that unit's rows), which is a result, not a
  /// skipped refit.
  int unitsAtCommitted = 0;
  /// Units whose fold a stop signal cut (Ctrl-C / SIGTERM under a StopSignalGuard, seen
  /// before one of their refits started or stopping a running optimizer as a time cap does):
  /// they have no entry in valuesByUnit and validateCv reports their rows `failed:interrupted`
  /// (never the committed values: those would be in-sample, not cross-validated).
  std::set<std::string> interrupted;
  double seconds = 0;
};
/// Which of `n` groups move which of `units`, by group testing: `moves(lo, hi, among)` gives
/// the units of `among` whose rows change when the fitted values of groups [lo, hi) move
/// together (one prediction); a pooled move that moves a unit is halved, each half asked about
/// the units the pool moved. Returns group index -> units it moves (groups that move none are
/// absent). With k moving groups it asks about 2 k log2(n) times instead of n (crossValidate's
/// screen of other stages' groups). It takes a unit a pool does not move as moved by none of
/// the pool's groups (their moves cancelling exactly on every row is not expected).
std::map<size_t, std::set<std::string>> groupsMovingUnits(
    size_t n, const std::set<std::string>& units,
    const std::function<std::set<std::string>(size_t, size_t, const std::set<std::string>&)>& moves);
/// The held-out unit of a row: its board (`lobo`) or its guide's source id (`release`).
std::string cvUnit(const MeasuredRow& r, const std::string& mode);
/// Plan the refits for the units of `selected` (`mode` lobo or release).
CvPlan crossValidate(const std::vector<MeasuredRow>& selected, const CalibrateOptions& opt,
                     const std::string& mode);

/// Which free parameters the models read (`socsim params --scan`): every row of `rows` with a
/// board and a fit group is predicted once with the committed parameters (one worker per
/// board, `opt.jobs` at a time), recording the scalars each model consumed
/// (config::ReadRecorder). Returns, per registry parameter name consumed by some row, the number
/// of boards whose rows read it; a parameter absent from the map is read by no prediction of
/// the measured data.
std::map<std::string, int> scanParamReads(const std::vector<MeasuredRow>& rows,
                                          const CalibrateOptions& opt);

/// The committed read scan: calibration/reports/params-read.csv below `sourceDir` (written by
/// `socsim params --scan`), parameter name -> `read` | `unread` (empty map when absent).
std::map<std::string, std::string> readParamScan(const std::string& sourceDir);
/// Write that file for registry `reg` from a scan result.
void writeParamScan(const std::string& sourceDir, const ParamRegistry& reg,
                    const std::map<std::string, int>& reads);

/// @brief The committed fit's free set of a group: the parameters its params file
///        (`<sourceDir>/calibration/params/<group>.yaml`) sets and those its
///        `calibration/reports/<group>.lobo.csv` lists (a fitted parameter that ended at its
///        default is not written to the params file). The warm start keeps these.
/// @throws InputError for a parameter in either file that the registry does not know.
std::vector<const FreeParam*> committedFitted(const std::string& sourceDir, const std::string& group,
                                              const ParamRegistry& reg);

/// readParamDir of a committed calibration/params folder `dir`, which holds one file per fit
/// group: InputError for a `<name>.yaml` whose name is no fit group (a group that was renamed or
/// removed: its values would apply to every run and never be refitted or checked) or whose
/// `group:` key names another group.
ParamSet readCommittedParams(const std::string& dir, const ParamRegistry& reg);

/// Install the committed calibration/params/*.yaml below `sourceDir` (the override hook);
/// returns how many values are applied. InputError for a bad params file.
int installCommittedParams(const std::string& sourceDir,
                           std::function<void(const std::string&)> warn = nullptr);

}  // namespace socsim::calib
