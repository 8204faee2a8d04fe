#include "tournament.h"

#include <spdlog/spdlog.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>

#include "deals.h"
#include "text_file.h"

namespace dejarik::arena {

namespace {

// Why the last system call failed, as ": reason" (a stream's failure leaves errno set by
// the write that failed), or nothing.
std::string systemReason() {
    return errno != 0 ? ": " + std::string(std::strerror(errno)) : std::string();
}

// Collects finished games from the workers: appends them to the files at once (so that an
// interruption loses nothing finished), keeps the tally, prints progress and runs the SPRT.
class Collector {
  public:
    Collector(const RunConfig& config, ResultsFile results, std::ofstream* resultsOut,
              std::ofstream* recordsOut, std::uint64_t pairsTotal)
        : config_(config),
          results_(std::move(results)),
          resultsOut_(resultsOut),
          recordsOut_(recordsOut),
          pairsTotal_(pairsTotal),
          lastProgress_(Clock::now()) {}

    void add(const GameLine& line, GameRecord record) {
        const std::lock_guard lock(mutex_);
        results_.games.push_back(line);
        errno = 0;
        if (resultsOut_) {
            *resultsOut_ << ResultsFile::formatGame(line);
            resultsOut_->flush();
            if (!*resultsOut_) writeFailed(config_.resultsPath);
        }
        if (recordsOut_) {
            *recordsOut_ << formatRecord(record);
            recordsOut_->flush();
            if (!*recordsOut_) writeFailed(config_.recordsPath);
        }
        if (config_.keepRecords) records_.push_back(std::move(record));

        if (config_.sprt && results_.encounters.size() == 1 && !sprtStop_) {
            const EncounterStats stats = tally(results_)[0];
            const double llr = sprtLlr(*config_.sprt, stats);
            const SprtDecision d = config_.sprt->decide(llr);
            if (d != SprtDecision::Continue) {
                sprtStop_ = SprtStop{d, llr, stats.penta.pairs()};
                stopDispatch_ = true;
            }
        }
        if (config_.progress && Clock::now() - lastProgress_ >= config_.progressInterval) {
            *config_.progress << formatProgress(results_, pairsTotal_, config_.sprt) << std::endl;
            lastProgress_ = Clock::now();
        }
    }

    [[nodiscard]] bool stopDispatch() const { return stopDispatch_.load(); }

    // The first file that could not be written (a full disk): the run stops there, since
    // games it can no longer keep are not worth playing.
    [[nodiscard]] std::optional<std::string> writeError() {
        const std::lock_guard lock(mutex_);
        return writeError_;
    }

    RunOutcome finish(bool interrupted) {
        const std::lock_guard lock(mutex_);
        if (config_.progress)
            *config_.progress << formatProgress(results_, pairsTotal_, config_.sprt) << std::endl;
        RunOutcome out;
        out.results = results_;
        out.interrupted = interrupted;
        out.sprtStop = sprtStop_;
        out.records = std::move(records_);
        return out;
    }

  private:
    void writeFailed(const std::string& path) {
        if (!writeError_)
            writeError_ = "cannot write '" + path + "'" + systemReason() +
                          ": the run stopped; the games before are in it";
        stopDispatch_ = true;
    }

    const RunConfig& config_;
    std::mutex mutex_;
    ResultsFile results_;
    std::ofstream* resultsOut_;
    std::ofstream* recordsOut_;
    std::uint64_t pairsTotal_;
    Clock::time_point lastProgress_;
    std::vector<GameRecord> records_;
    std::optional<SprtStop> sprtStop_;
    std::optional<std::string> writeError_;
    std::atomic<bool> stopDispatch_{false};
};

// The finished games of the run's results file, for --resume: the file must be this run's
// (fingerprint, engines, encounters), hold only games of its schedule, each with one result
// (what merge accepts); a last line cut by an interruption is dropped from the file, and its
// game played again.
std::optional<std::vector<GameLine>> gamesToResume(const RunConfig& config,
                                                   const ResultsFile& results, std::string& error) {
    const auto text = readTextFile(config.resultsPath, error);
    if (!text) return std::nullopt;
    // npos + 1 is 0: no line at all is whole.
    const std::size_t whole = text->rfind('\n') + 1;
    auto previous = parseResults(std::string_view(*text).substr(0, whole), error);
    if (!previous) {
        error = config.resultsPath + ": " + error;
        return std::nullopt;
    }
    if (const auto why = otherRun(results, "this run", *previous)) {
        error = "results file '" + config.resultsPath + "' " + *why;
        return std::nullopt;
    }
    const std::uint64_t total = config.pairs * results.encounters.size();
    for (const auto& g : previous->games) {
        const Job job = jobAt(g.job, results.encounters.size());
        if (g.job >= total || job.encounter != g.encounter || job.round != g.round) {
            error = fmt::format(
                "results file '{}': job {} (round {}, encounter {}) is not in "
                "this run's schedule of {} pairs",
                config.resultsPath, g.job, g.round + 1, g.encounter, config.pairs);
            return std::nullopt;
        }
    }
    auto merged = mergeResults({*previous}, error);
    if (!merged) {
        error = "results file '" + config.resultsPath + "': " + error;
        return std::nullopt;
    }
    if (whole < text->size()) {
        std::error_code ec;
        std::filesystem::resize_file(config.resultsPath, whole, ec);
        if (ec) {
            error = "cannot drop the unfinished last line of '" + config.resultsPath +
                    "': " + ec.message();
            return std::nullopt;
        }
        config.log->warn("{}: dropped an unfinished last line; its game is played again",
                         config.resultsPath);
    }
    return std::move(merged->games);
}

}  // namespace

std::optional<RuleSettings> ruleSettings(const std::string& ruleset,
                                         const std::vector<std::string>& items,
                                         std::string& error) {
    RuleSettings s;
    if (auto e = s.options.set("Ruleset", ruleset)) {
        error = *e;
        return std::nullopt;
    }
    s.assignments.emplace_back("Ruleset", ruleset);
    for (const auto& item : items) {
        if (auto e = s.options.setAssignment(item)) {
            error = "--option " + *e;
            return std::nullopt;
        }
        const auto eq = item.find('=');
        s.assignments.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    }
    return s;
}

ResultsFile resultsHeader(const RunConfig& config) {
    ResultsFile r;
    for (std::size_t i = 0; i < config.engines.size(); ++i) {
        r.engines.push_back(config.engines[i].name);
        r.description.push_back("engine " + std::to_string(i) + ": " +
                                config.engines[i].describe());
    }
    r.encounters = scheduleEncounters(config.kind, static_cast<int>(config.engines.size()));
    r.pairs = config.pairs;
    r.description.push_back("rules: " + Rules(config.ruleOptions).describe());
    r.description.push_back("tournament: " + std::string(tournamentKindName(config.kind)) + ", " +
                            std::to_string(config.pairs) + " pairs per encounter");
    r.description.push_back("seed: " + std::to_string(config.seed));
    r.description.push_back("dice: " + std::string(diceModeName(config.diceMode)));
    if (config.deals.empty()) {
        r.description.push_back("deals: random");
    } else {
        std::string all;
        for (const auto& d : config.deals)
            all += d + "\n";
        r.description.push_back("deals: " + std::to_string(config.deals.size()) +
                                " from a file, hash " + fingerprintOf(all));
    }
    r.description.push_back("max-turns: " + std::to_string(config.referee.maxTurns));
    std::string joined;
    for (const auto& d : r.description)
        joined += d + "\n";
    r.fingerprint = fingerprintOf(joined);
    return r;
}

std::string dealOf(const RunConfig& config, std::uint64_t round) {
    if (!config.deals.empty()) return config.deals[round % config.deals.size()];
    return randomDeal(Rules(config.ruleOptions), config.seed, round);
}

std::optional<RunOutcome> runTournament(const RunConfig& config, const std::atomic<bool>& interrupt,
                                        std::string& error) {
    if (config.engines.size() < 2) {
        error = "a run needs at least two engines";
        return std::nullopt;
    }
    if (config.shardCount < 1 || config.shardIndex < 0 || config.shardIndex >= config.shardCount) {
        error = "bad shard";
        return std::nullopt;
    }
    ResultsFile results = resultsHeader(config);
    if (config.sprt && results.encounters.size() != 1) {
        error = "the SPRT needs a match of exactly two engines";
        return std::nullopt;
    }
    const Rules rules(config.ruleOptions);

    // Resumption: keep the finished games, play only the missing ones.
    std::set<std::pair<std::uint64_t, int>> done;
    // Only a regular file has a size: /dev/null and the like count as empty, not as errors.
    const auto holdsData = [](const std::string& path) {
        std::error_code ec;
        return !path.empty() && std::filesystem::is_regular_file(path, ec) &&
               std::filesystem::file_size(path, ec) > 0;
    };
    const bool exists = holdsData(config.resultsPath);
    // Neither file of an earlier run is written over: its games would be lost.
    for (const auto& [what, path, found] :
         {std::tuple{"results", &config.resultsPath, exists},
          std::tuple{"records", &config.recordsPath, holdsData(config.recordsPath)}})
        if (found && !config.resume) {
            error = std::string(what) + " file '" + *path +
                    "' exists: pass --resume to continue that run, or name another file";
            return std::nullopt;
        }
    if (exists) {
        auto previous = gamesToResume(config, results, error);
        if (!previous) return std::nullopt;
        for (const auto& g : *previous)
            done.emplace(g.job, g.game);
        results.games = std::move(*previous);
    }

    std::optional<std::ofstream> resultsOut, recordsOut;
    if (!config.resultsPath.empty()) {
        errno = 0;
        resultsOut.emplace(config.resultsPath, std::ios::app);
        if (*resultsOut && !exists) *resultsOut << results.header() << std::flush;
        if (!*resultsOut) {
            error = "cannot write '" + config.resultsPath + "'" + systemReason();
            return std::nullopt;
        }
    }
    if (!config.recordsPath.empty()) {
        errno = 0;
        recordsOut.emplace(config.recordsPath, config.resume ? std::ios::app : std::ios::trunc);
        if (!*recordsOut) {
            error = "cannot write '" + config.recordsPath + "'" + systemReason();
            return std::nullopt;
        }
    }

    std::vector<Job> jobs;
    const std::uint64_t total = config.pairs * results.encounters.size();
    for (std::uint64_t j = 0; j < total; ++j) {
        if (j % static_cast<std::uint64_t>(config.shardCount) !=
            static_cast<std::uint64_t>(config.shardIndex))
            continue;
        if (done.contains({j, 0}) && done.contains({j, 1})) continue;
        jobs.push_back(jobAt(j, results.encounters.size()));
    }
    std::uint64_t pairsInShard = 0;
    for (std::uint64_t j = static_cast<std::uint64_t>(config.shardIndex); j < total;
         j += static_cast<std::uint64_t>(config.shardCount))
        ++pairsInShard;

    Collector collector(config, results, resultsOut ? &*resultsOut : nullptr,
                        recordsOut ? &*recordsOut : nullptr, pairsInShard);
    RefereeConfig refereeConfig = config.referee;
    refereeConfig.interrupt = &interrupt;
    std::atomic<std::size_t> next{0};

    const auto worker = [&] {
        std::vector<std::unique_ptr<Seat>> seats(config.engines.size());
        const auto seat = [&](int i) -> Seat* {
            if (!seats[i])
                seats[i] = makeSeat(config.engines[i], config.ruleAssignments, config.timeouts,
                                    config.log, &interrupt);
            return seats[i].get();
        };
        while (!interrupt.load() && !collector.stopDispatch()) {
            const std::size_t k = next++;
            if (k >= jobs.size()) break;
            const Job& job = jobs[k];
            const Encounter& enc = results.encounters[job.encounter];
            const std::string deal = dealOf(config, job.round);
            for (int g = 0; g < 2 && !interrupt.load(); ++g) {
                if (done.contains({job.index, g})) continue;
                const int p1 = g == 0 ? enc.first : enc.second;
                const int p2 = g == 0 ? enc.second : enc.first;
                const GameSpec spec{rules,
                                    deal,
                                    LuckStream(config.seed, job.round, g, config.diceMode),
                                    {seat(p1), seat(p2)},
                                    {config.engines[p1].control, config.engines[p2].control}};
                auto record = playGame(spec, refereeConfig);
                if (!record) break;
                record->seed = config.seed;
                record->round = job.round;
                record->gameInPair = g;
                record->job = job.index;
                record->diceMode = config.diceMode;
                const GameLine line{job.index,
                                    g,
                                    job.encounter,
                                    job.round,
                                    p1,
                                    p2,
                                    record->outcome,
                                    record->termination,
                                    record->turns,
                                    record->events.size(),
                                    record->luck};
                config.log->debug("job {} game {}: {} vs {}: {} ({})", job.index, g + 1,
                                  record->players[0], record->players[1],
                                  outcomeTag(record->outcome),
                                  terminationName(record->termination));
                collector.add(line, std::move(*record));
            }
        }
        for (auto& s : seats)
            if (s) s->shutdown();
    };

    const int threads =
        std::max(1, std::min<int>(config.concurrency, static_cast<int>(jobs.size())));
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back(worker);
    for (auto& t : pool)
        t.join();
    if (auto e = collector.writeError()) {
        error = *e;
        return std::nullopt;
    }
    return collector.finish(interrupt.load());
}

}  // namespace dejarik::arena
