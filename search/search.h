// The search: expectiminimax over the event tree with *-minimax pruning (Star1, Star2),
// iterative deepening and a shared transposition table, behind a small engine facade that
// reports through callbacks and never prints.
//
// Values are expected results in [-1, 1]. Inside the search they are from player 1's view
// (max nodes are player 1's decisions, min nodes player 2's), so no sign flips between two
// nodes of the same player; everything handed out (Line::value, wdl) is from the view of
// the player whose decision was searched.
//
// Depth unit: one action. A decision of the player on turn consumes one unit; chance
// outcomes and placements consume none, so the horizon always falls on a decision point
// and never between an attack and its outcome. Depth 2 is one full turn.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "baselines.h"
#include "position.h"
#include "race.h"
#include "tunables.h"

namespace dejarik::tables {
class Tablebase;
}

namespace dejarik::search {

// The deepest search, in actions (32 turns: far beyond any horizon the search reaches).
inline constexpr int kMaxDepth = 64;

struct Limits {
    int depth = 0;                               // actions; 0 = no limit
    std::uint64_t nodes = 0;                     // 0 = no limit
    std::int64_t movetimeMs = 0;                 // 0 = no limit
    std::array<std::int64_t, 2> timeMs{-1, -1};  // clocks of players 1 and 2; -1 = none
    std::array<std::int64_t, 2> incMs{0, 0};
    bool infinite = false;  // run until stop(), even past a depth limit's completion

    [[nodiscard]] bool unlimited() const {
        return depth == 0 && nodes == 0 && movetimeMs == 0 && timeMs[0] < 0 && timeMs[1] < 0;
    }
};

// One root decision with its value and principal variation.
struct Line {
    Event move;
    double value = 0;    // expected result for the deciding player, on the search's scale
    bool exact = false;  // the value is proven (no evaluation below it)
    // What the value means, per mille, deciding player's view (eval::wdl): W - L is the
    // reported expected result, the protocol's ev.
    std::array<int, 3> wdl{0, 1000, 0};
    std::vector<Event> pv;  // starts with move; likeliest outcomes between decisions
};

// Progress, sent after each completed iteration (and each MultiPV line of it).
struct Info {
    int depth = 0;
    int seldepth = 0;
    std::int64_t timeMs = 0;
    std::uint64_t nodes = 0;  // every node entered: decision, chance, placement
    std::uint64_t nps = 0;
    int hashfull = 0;  // per mille
    int multipv = 1;   // 1-based rank of `line`
    Line line;
};

// The end of a search.
struct Report {
    Event best;               // Event() (None) only when nothing can be decided
    std::vector<Line> lines;  // ranked, MultiPV many at most
    int depth = 0;
    std::uint64_t nodes = 0;
    std::int64_t timeMs = 0;
    // Searcher::start only: the search could not get the memory it needed (under an
    // address-space limit) and ended without a decision.
    bool outOfMemory = false;
};

struct Options {
    int hashMiB = 64;
    int threads = 1;
    int multiPv = 1;
};

// How the search plays for the player it decides for, against whom (Searcher::setPlay).
struct Play {
    // A draw is worth -contempt to that player (eval::Contempt): an engine that must beat
    // weaker play trades some safety for fewer draws. 0: none.
    double contempt = 0;
    // The opponent as a model: none, the minimax opponent; a baseline player, whose
    // decisions are averaged over the ones it chooses among (baselineChoices), so that the
    // search plays for what that player will do.
    std::optional<Baseline> opponent;
    // The least decisive share (eval::decisiveShare) an attack of the player the search
    // decides for must have while that player has another legal action (dropPoorAttacks);
    // 0: every attack. Under holochess's dice every attack removes a piece one roll in six
    // either way, and only a push onto a boxed-in piece tips the share: against `random` the
    // engine gains by attacking only such pieces (docs/search.md, "Attack share").
    double attackShare = 0;
    // The edge, in logits, the search credits that player with at every leaf short of
    // certain, its evaluation's or an endgame table's (eval::withEdge): against a baseline
    // the engine outplays, a lottery at even odds, its own or the opponent's, costs it what
    // its play would have won from the material the lottery may lose (docs/search.md,
    // "Edge"). 0: none.
    double edge = 0;

    bool operator==(const Play&) const = default;
};

using InfoCallback = std::function<void(const Info&)>;
using DoneCallback = std::function<void(const Report&)>;

class Searcher {
  public:
    Searcher();
    ~Searcher();  // stops a running search and joins its threads
    Searcher(const Searcher&) = delete;
    Searcher& operator=(const Searcher&) = delete;

    // Blocking; not while a search runs. Sizes the table (allocated here, or by the first
    // search when setOptions was never called) and the pool of threads that live from search
    // to search, each with its worker (history, evaluation cache).
    void setOptions(const Options& options);
    [[nodiscard]] const Options& options() const;
    // Blocking; not while a search runs.
    void clearHash();
    // Blocking; not while a search runs. The endgame tables probed at every node with at
    // most four creatures (null: none): under DrawTurns 0 their values are exact; under
    // DrawTurns N a value counts, as an evaluation, when its attack comes before the quiet
    // draw (docs/search.md). Tables of another rule mix answer nothing.
    void setTables(std::shared_ptr<const tables::Tablebase> tables);
    // Blocking; not while a search runs. The evaluation weights every search uses from now
    // on (the compiled-in defaults until called); new weights empty the table, whose values
    // were found with the old ones.
    void setTunables(const eval::Tunables& tunables);
    [[nodiscard]] const eval::Tunables& tunables() const;
    // Not while a search runs. Contempt and the opponent model of the searches from now on
    // (none until called); the table is emptied when a search finds them (or the side they
    // are for) changed.
    void setPlay(const Play& play);

    // Non-blocking: searches the decision due in `pos` (which must be at a decision or
    // placement point of a game not over) on a background thread. onInfo is called from
    // that thread; onDone exactly once, from that thread, when the search ends by a limit
    // or by stop(). `pos` (and its Rules) must outlive the search.
    void start(const Position& pos, const Limits& limits, InfoCallback onInfo, DoneCallback onDone);
    // Non-blocking: asks a running search to end; onDone follows promptly.
    void stop();
    // Blocking: returns once the running search (if any) has called onDone.
    void wait();
    [[nodiscard]] bool searching() const;

    // Blocking: a whole search in the calling thread's control, for tools and tests.
    Report run(const Position& pos, const Limits& limits, InfoCallback onInfo = {});

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Plain expectiminimax to `depth` actions, no pruning, no table: the reference the pruned
// search must agree with. Value for player 1; counts the nodes it enters.
[[nodiscard]] double expectiminimax(const Position& pos, int depth, std::uint64_t& nodes);

// Under DrawTurns N a table value counts kTableFade^(quiet + distance) of itself: faded by
// the quiet actions from the last attack to the one that realises it, so that the side it
// serves hurries toward that attack (docs/tables.md, "In the search and the engine").
inline constexpr double kTableFade = 0.99;

// The last actions before the quiet draw, in which Play::attackShare no longer holds: an
// attack at any odds may then be worth more than the draw.
inline constexpr int kAttackShareLate = 20;

// Removes from the decisions `list` of `pos` the attacks whose decisive share, with the
// board's boxed-in pieces, is below `minShare`, unless the list holds nothing else or the
// quiet counter is within kAttackShareLate actions of the quiet draw.
void dropPoorAttacks(const Position& pos, EventList& list, double minShare);

// Under an opponent model (Play::opponent) a table value counts only from this size on:
// the tables assume optimal play by the modelled side, which only a decisive value
// survives (docs/search.md, "Opponent model").
inline constexpr double kModelledTableDecisive = 0.5;

// Under an opponent model a depth limit is raised by this many actions where the modelled
// side can be left without a legal move by the pieces on the board
// (race::canBeLeftWithoutMove), so that it must attack whatever the odds: boxing a baseline's
// last pieces in takes more turns than a depth limit of a few actions sees, and the armies
// that allow it are small enough to search deeper (docs/search.md, "Opponent model").
inline constexpr int kBoxingExtension = 2;

// The actions a depth limit is raised by at this root under `play` (kBoxingExtension or 0).
[[nodiscard]] int depthExtension(const Position& root, const Play& play,
                                 race::WithoutMoveCache& withoutMove);

// The pruned search without a transposition table, at a fixed depth, for comparison with
// expectiminimax, probing `tables` when given (as the searcher).
// Value for player 1; counts the nodes it enters.
[[nodiscard]] double prunedValue(const Position& pos, int depth, std::uint64_t& nodes,
                                 const tables::Tablebase* tables = nullptr);

}  // namespace dejarik::search
