#include "spsa_match.h"

#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <atomic>

namespace dejarik::tune {

namespace {

std::optional<arena::EngineSpec> sideSpec(const SpsaMatch& match, const std::string& name,
                                          const std::filesystem::path* weights,
                                          std::string& error) {
    arena::EngineSpec spec;
    std::vector<std::string> items = match.each;
    items.push_back("cmd=" + match.engine);
    items.push_back("name=" + name);
    if (weights) items.push_back("option.EvalFile=" + weights->string());
    if (auto e = spec.apply(items)) {
        error = *e;
        return std::nullopt;
    }
    if (auto e = spec.finish(true)) {
        error = *e;
        return std::nullopt;
    }
    return spec;
}

}  // namespace

std::optional<std::string> checkSpsaMatch(const SpsaMatch& match) {
    std::string error;
    if (!sideSpec(match, "plus", nullptr, error)) return error;
    return std::nullopt;
}

std::optional<TrialResult> playTrial(const SpsaMatch& match, const eval::Tunables& plus,
                                     const eval::Tunables& minus, int iteration,
                                     std::string& error) {
    const auto plusFile = match.directory / "plus.txt", minusFile = match.directory / "minus.txt";
    for (const auto& [file, weights] : {std::pair{&plusFile, &plus}, std::pair{&minusFile, &minus}})
        if (auto err = eval::saveTunables(file->string(), *weights)) {
            error = *err;
            return std::nullopt;
        }
    arena::RunConfig config;
    config.ruleOptions = match.rules.options;
    config.ruleAssignments = match.rules.assignments;
    for (const auto& [name, file] :
         {std::pair{"plus", &plusFile}, std::pair{"minus", &minusFile}}) {
        auto spec = sideSpec(match, name, file, error);
        if (!spec) return std::nullopt;
        config.engines.push_back(*spec);
    }
    config.pairs = static_cast<std::uint64_t>(match.pairs);
    config.seed = match.seed + static_cast<std::uint64_t>(iteration);
    config.diceMode = arena::DiceMode::Duplicate;
    config.concurrency = match.concurrency;
    config.log =
        std::make_shared<spdlog::logger>("spsa", std::make_shared<spdlog::sinks::null_sink_mt>());
    const std::atomic<bool> interrupt{false};
    const auto outcome = arena::runTournament(config, interrupt, error);
    if (!outcome) return std::nullopt;
    const auto stats = arena::tally(outcome->results);
    if (!stats.at(0).faults.empty()) {
        error =
            "a game was lost by a fault (an illegal event, a crash, a stall or the clock): "
            "check --engine and --each";
        return std::nullopt;
    }
    const auto& pairs = stats.at(0).pairs;
    if (pairs.empty()) {
        error = "no pair was played";
        return std::nullopt;
    }
    TrialResult r;
    for (const arena::PairSample& p : pairs) {
        r.result += 2 * p.score - 1;
        r.attackLuck += p.attackLuck;
        r.showdownLuck += p.showdownLuck;
    }
    const auto n = static_cast<double>(pairs.size());
    r.result /= n;
    r.attackLuck /= n;
    r.showdownLuck /= n;
    return r;
}

double LuckControl::adjust(const TrialResult& trial) {
    const double adjusted =
        trial.result - coefficients_[0] * trial.attackLuck - coefficients_[1] * trial.showdownLuck;
    history_.push_back({trial.result, trial.attackLuck, trial.showdownLuck});
    if (history_.size() >= arena::kMinimumLuckPairs) {
        const arena::LuckAdjusted fit = arena::luckAdjusted(history_);
        coefficients_ = fit.coefficients;
        varianceRatio_ = fit.varianceRatio;
    }
    return adjusted;
}

}  // namespace dejarik::tune
