// The results file: one line per finished game, written as the game ends, so that a run
// can be resumed and shards can be merged exactly. Format in docs/arena.md.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "game.h"
#include "stats.h"

namespace dejarik::arena {

enum class TournamentKind : std::uint8_t { RoundRobin, Gauntlet };
[[nodiscard]] std::string_view tournamentKindName(TournamentKind k);
[[nodiscard]] std::optional<TournamentKind> parseTournamentKind(std::string_view name);

// Two engines (indices into the run's engine list) that play `pairs` deal pairs. In game 1
// of a pair `first` is player 1, in game 2 `second` is.
struct Encounter {
    int first = 0;
    int second = 1;
    bool operator==(const Encounter&) const = default;
};
[[nodiscard]] std::vector<Encounter> scheduleEncounters(TournamentKind kind, int engines);

// Job j is round j / E of encounter j % E (E encounters): every prefix of the schedule,
// and every shard, covers the encounters evenly.
struct Job {
    std::uint64_t index = 0;
    int encounter = 0;
    std::uint64_t round = 0;
};
[[nodiscard]] Job jobAt(std::uint64_t index, std::size_t encounterCount);

struct GameLine {
    std::uint64_t job = 0;
    int game = 0;  // 0 or 1 within the pair
    int encounter = 0;
    std::uint64_t round = 0;
    int player1 = 0;  // engine indices
    int player2 = 1;
    GameOutcome outcome = GameOutcome::Draw;
    Termination termination = Termination::QuietDraw;
    std::uint32_t turns = 0;
    std::uint64_t events = 0;
    Luck luck;  // player 1's
    bool operator==(const GameLine&) const = default;
};

struct ResultsFile {
    std::string fingerprint;               // a hash of everything that decides the games
    std::vector<std::string> description;  // the settings behind the fingerprint, readable
    std::vector<std::string> engines;      // names
    std::vector<Encounter> encounters;
    std::uint64_t pairs = 0;  // per encounter
    std::vector<GameLine> games;

    [[nodiscard]] std::string header() const;
    [[nodiscard]] static std::string formatGame(const GameLine& g);
};

[[nodiscard]] std::optional<ResultsFile> parseResults(std::string_view text, std::string& error);
[[nodiscard]] std::optional<ResultsFile> readResultsFile(const std::string& path,
                                                         std::string& error);
// Why the games of `file` cannot be counted with those of `run`, called `runName` in the
// reason (another run's settings, or engines and encounters that do not match), or nothing:
// checked by merge and by resume.
[[nodiscard]] std::optional<std::string> otherRun(const ResultsFile& run, std::string_view runName,
                                                  const ResultsFile& file);
// The union of the games of runs with the same fingerprint (shards of one run, or a run
// and its resumption); the same game twice must have the same result.
[[nodiscard]] std::optional<ResultsFile> mergeResults(const std::vector<ResultsFile>& files,
                                                      std::string& error);

struct EncounterStats {
    Wdl wdl;            // for the encounter's first engine
    Pentanomial penta;  // complete pairs only
    std::map<Termination, std::int64_t> terminations;
    std::map<int, std::int64_t> faults;  // engine index -> games it lost by a fault
    std::vector<PairSample> pairs;       // complete pairs, for the luck-adjusted score
};
[[nodiscard]] std::vector<EncounterStats> tally(const ResultsFile& results);
// The SPRT's log-likelihood ratio of an encounter, from the statistic `config` names.
[[nodiscard]] double sprtLlr(const SprtConfig& config, const EncounterStats& stats);

// The final table (and the SPRT line for a match when `sprt` is given).
[[nodiscard]] std::string formatTable(const ResultsFile& results,
                                      const std::optional<SprtConfig>& sprt);
// One progress line.
[[nodiscard]] std::string formatProgress(const ResultsFile& results, std::uint64_t pairsTotal,
                                         const std::optional<SprtConfig>& sprt);

// A 64-bit FNV-1a hash as 16 hex digits.
[[nodiscard]] std::string fingerprintOf(std::string_view text);

}  // namespace dejarik::arena
