// Fitting what the engine reports a searched value to mean (eval::reported, docs/eval.md,
// "Reported value") to the results of games whose records hold the search's own values.
#pragma once

#include <string>
#include <vector>

#include "analysis.h"
#include "tunables.h"

namespace dejarik::arena {

struct ReportBin {
    double low = 0, high = 0;  // of the reported value
    std::int64_t decisions = 0;
    std::int64_t games = 0;
    double predicted = 0;  // mean reported value
    double actual = 0;     // mean result
    double predictedDraw = 0, actualDraw = 0;
};

struct ReportFit {
    Ruleset ruleset = Ruleset::Kelly;   // of every record
    eval::Tunables tunables;            // the defaults with the ruleset's report model fitted
    double meanSquaredErrorBefore = 0;  // of the recorded ev against the result
    double meanSquaredErrorAfter = 0;   // of the reported value
    std::int64_t decisions = 0;
    std::vector<ReportBin> bins;  // the calibration of the fitted reported value
};

// Least squares of the reported value against the results, and of its draw chance against
// the draws, over every decision of `player` (empty: every engine) in `records` of one
// ruleset whose ev is the search's own value (an engine run with the identity report of
// that ruleset: scale 1, draw 0). Nothing, with the error, when there is no decision or the
// records mix rulesets.
[[nodiscard]] std::optional<ReportFit> fitReport(const std::vector<GameRecord>& records,
                                                 const std::string& player, int bins,
                                                 std::string& error);

// The calibration of the records' ev, taken as the search's own values, as `tunables`' report
// model restates them (ev and wdl): a fit checked on games it was not fitted to.
[[nodiscard]] std::optional<Calibration> calibrateReported(const std::vector<GameRecord>& records,
                                                           const std::string& player, int bins,
                                                           const eval::Tunables& tunables,
                                                           std::string& error);

// The fitted weights as an EvalFile reads them, then the table of the fitted calibration.
[[nodiscard]] std::string formatReportFit(const ReportFit& fit);

}  // namespace dejarik::arena
