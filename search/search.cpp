#include "search.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <new>
#include <span>
#include <thread>
#include <vector>

#include "attack.h"
#include "eval.h"
#include "memory.h"
#include "model_cap.h"
#include "star.h"
#include "tablebase.h"
#include "thread_pool.h"
#include "timeman.h"
#include "ttable.h"
#include "zobrist.h"

namespace dejarik::search {

namespace {

using Clock = std::chrono::steady_clock;

constexpr double kInfinity = 2.0;  // beyond every value: a window edge that never cuts

// The quiet counter is not in the position key; where the draw is within reach of search
// or evaluation (RULES §8.4: 100 actions or fewer left) the number of actions left is
// mixed into the table key, so values from different distances to the draw never mix.
// Nor are the rules: their fingerprint is mixed in too, so entries written under one rule
// mix are never read under another (a GUI may change a rule option without `newgame`).
// Buckets 0..kQuietCap each distance the evaluator tells apart, the last one every
// distance beyond.
constexpr int kQuietBuckets = eval::kQuietCap + 2;
constexpr std::array<std::uint64_t, kQuietBuckets> kQuietKeys = [] {
    std::array<std::uint64_t, kQuietBuckets> keys{};
    std::uint64_t state = 0x51E7C0DEull;
    for (auto& k : keys)
        k = zobrist::splitmix64(state);
    return keys;
}();

[[nodiscard]] std::uint64_t tableKey(const Position& pos) {
    int bucket = kQuietBuckets - 1;
    if (const int drawTurns = pos.rules().drawTurns(); drawTurns > 0) {
        const std::uint32_t limit = 2 * static_cast<std::uint32_t>(drawTurns);
        const std::uint32_t left = limit > pos.quiet() ? limit - pos.quiet() : 0;
        bucket = static_cast<int>(std::min<std::uint32_t>(left, kQuietBuckets - 1));
    }
    return pos.key() ^ kQuietKeys[bucket] ^ pos.rules().fingerprint();
}

// Modelled: a decision of the opponent under Play::opponent, the mean over its choices.
enum class NodeKind : std::uint8_t { Terminal, Max, Min, Chance, Modelled };

[[nodiscard]] NodeKind kindOf(const Position& pos) {
    if (pos.isOver()) return NodeKind::Terminal;
    if (pos.chanceDue()) return NodeKind::Chance;
    return pos.decider() == Player::One ? NodeKind::Max : NodeKind::Min;
}

[[nodiscard]] double terminalValue(const Position& pos) {
    return pos.winProbability(Player::One) - pos.winProbability(Player::Two);
}

// Only the decision of the player on turn spends depth; outcomes and placements finish the
// action that was started.
[[nodiscard]] int childDepth(const Position& pos, int depth) {
    return pos.phase() == Phase::Decision ? depth - 1 : depth;
}

// A rough worth of a creature for ordering attacks: what its ratings buy.
[[nodiscard]] double worth(const Rules& rules, Creature c) {
    const Ratings& r = rules.ratings(c);
    return r.attack + r.defence + r.movement;
}

// Ordering scores: the table's move above every attack, attacks above every history value.
constexpr std::uint32_t kTableMoveScore = 0xFFFFFFFFu;
constexpr std::uint32_t kAttackBase = 0xC0000000u;  // attacks: kAttackBase +- 2^29
constexpr int kHistoryLimit = 1 << 28;              // history is halved before it gets here

// Only an attack expected to gain this much material goes before the quiet moves; the
// others go after every quiet move with a history score. An attack is the dearest decision
// to search (a chance node of two to four subtrees), and one that gains little rarely
// refutes anything: searched first it only sets a loose bound that the cheap quiet moves
// then have to beat. Bench at the same depth: 20,811,585 nodes with every attack first,
// 17,227,475 with losing ones last (threshold 0), 15,986,156 (0.5), 15,495,331 (1.5),
// 14,526,151 (3), 13,651,290 (4), 13,870,820 (6), 13,894,631 (9), 14,569,459 with no
// attack first at all (docs/search.md, "Ordering").
constexpr double kAttackFirstGain = 4;

// An attack's ordering score: its expected material gain (a score per pair of creatures, so
// no piece counts as boxed in), a push worth a quarter, in steps of 2^-20; 0, with the quiet
// moves never played in the search so far, below kAttackFirstGain.
[[nodiscard]] std::uint32_t attackOrderScore(const Rules& rules, Creature a, Creature d) {
    const double gain =
        eval::attackGain(rules.combat(a, d).probability, {worth(rules, d), worth(rules, a), 0.25},
                         rules.blockedPush(), eval::Boxed{});
    if (gain < kAttackFirstGain) return 0;
    const double steps = std::clamp(gain * (1 << 20), -double(1 << 29), double(1 << 29));
    return kAttackBase + static_cast<std::uint32_t>(static_cast<std::int32_t>(std::lround(steps)));
}

[[nodiscard]] std::uint64_t elapsedMs(Clock::time_point since) {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since).count());
}

// What a worker is told to stop by: the shared flag, plus (for the thread that manages
// time) the deadline and the node budget.
struct Control {
    std::atomic<bool>* stop = nullptr;
    Clock::time_point start = Clock::now();
    std::int64_t hardMs = 0;     // 0: none
    std::uint64_t maxNodes = 0;  // 0: none
    // Nodes of the helper threads, added in steps of 1024 (lazy SMP only).
    std::atomic<std::uint64_t>* helperNodes = nullptr;
};

// One search thread's state: history, counters, caches and the recursive search. Workers
// share only the transposition table and the stop flag. A worker lives as long as its
// thread in the searcher's pool, from search to search.
class Worker {
  public:
    // Readies the worker for a new search. Counters, history and attack scores start afresh,
    // so that a search's result does not depend on the searches before it. The evaluation
    // cache and the evaluator's memo stay: both hold exact values keyed by all they depend
    // on (the table key carries the rules' fingerprint and the quiet bucket), so they only
    // save work.
    // `play` holds for `decider`, the player at the root.
    void begin(TranspositionTable* tt, const Control& control, bool managesTime,
               const tables::Tablebase* tables, const Play& play = {},
               Player decider = Player::One) {
        opponent_ = play.opponent;
        modelled_ = opponent(decider);
        attackShare_ = play.attackShare;
        edge_ = {decider, play.edge};
        if (!opponent_)
            cap_.reset();
        else if (!cap_ || cap_->model() != *opponent_ || cap_->modelled() != modelled_)
            cap_.emplace(*opponent_, modelled_);
        const eval::Contempt contempt =
            play.contempt > 0 ? eval::Contempt{decider, play.contempt} : eval::Contempt{};
        if (contempt.side != contempt_.side || contempt.value != contempt_.value) {
            // The cached evaluations were made with the other contempt.
            contempt_ = contempt;
            std::fill_n(evalCache_.get(), kEvalBuckets, EvalBucket{});
        }
        tt_ = tt;
        tables_ = tables;
        control_ = control;
        managesTime_ = managesTime;
        stopped_ = false;
        nodes_ = 0;
        heuristic_ = 0;
        seldepth_ = 0;
        history_ = {};
        attackRules_ = nullptr;  // a new Rules may stand where the last one stood
    }

    double search(const Position& pos, int depth, double alpha, double beta, int ply);

    // New evaluation weights: the evaluation cache, which holds values of the old ones, is
    // emptied.
    void setTunables(const eval::Tunables& tunables) {
        memo_.setTunables(tunables);
        std::fill_n(evalCache_.get(), kEvalBuckets, EvalBucket{});
    }

    [[nodiscard]] std::uint64_t nodes() const { return nodes_; }
    [[nodiscard]] std::uint64_t heuristicCount() const { return heuristic_; }
    [[nodiscard]] int seldepth() const { return seldepth_; }
    void resetSeldepth() { seldepth_ = 0; }
    [[nodiscard]] bool stopped() const { return stopped_; }
    void setStopped(bool s) { stopped_ = s; }
    void orderDecisions(const Position& pos, EventList& list, Event ttMove);
    // The decisions the search weighs at a decision or placement point: every legal one,
    // less the attacks Play::attackShare leaves out for the player it decides for.
    void generateDecisions(const Position& pos, EventList& list) const {
        pos.generate(list);
        if (attackShare_ > 0 && pos.decider() != modelled_)
            dropPoorAttacks(pos, list, attackShare_);
    }

  private:
    double searchDecision(const Position& pos, int depth, double alpha, double beta, int ply);
    double searchChance(const Position& pos, int depth, double alpha, double beta, int ply);
    double searchModelled(const Position& pos, int depth, double alpha, double beta, int ply);
    // The node's kind, a decision of the modelled opponent being Modelled.
    [[nodiscard]] NodeKind kind(const Position& pos) const {
        const NodeKind k = kindOf(pos);
        if (opponent_ && (k == NodeKind::Max || k == NodeKind::Min) && pos.decider() == modelled_)
            return NodeKind::Modelled;
        return k;
    }
    double probe(const Position& child, int depth, double alpha, double beta, int ply);
    // The endgame tables' value of a position (player 1's view), where they answer: at most
    // four creatures (the cheap test first) and the set present. Under DrawTurns 0 it is
    // the game's value. Under DrawTurns N the tables' values are those of the game without
    // the quiet draw (docs/tables.md, "Distances"): one counts only if the attack that
    // realises it comes before the draw (quiet + distance < 2N), and then as an evaluation
    // that shrinks by kTableFade per quiet action before that attack, so that the side it
    // serves hurries toward the attack and the other delays it; past the draw the search
    // goes on below as without tables.
    bool tableValue(const Position& pos, double& value) {
        if (!tables_ || pos.occupied().count() > tables_->maxPieces()) return false;
        const std::optional<tables::TableValue> t = tables_->probeWithDistance(pos);
        if (!t) return false;
        // A table value assumes optimal play by both sides; under an opponent model the
        // modelled side plays otherwise, and a value short of decisive (a draw above all)
        // may still be won against it: the search goes on below as without tables.
        if (opponent_ && std::abs(t->value) < kModelledTableDecisive) return false;
        const int drawTurns = pos.rules().drawTurns();
        if (drawTurns == 0 || pos.isOver()) {
            value = t->value;
            return true;
        }
        // The quiet count at which the attack comes: counted from the last attack, not from
        // here, so that moving between states next to the attack costs the mover as much as
        // it costs the clock (faded by the distance alone, every such state was worth the
        // full value, and the winner shuffled among them instead of attacking).
        const int attackAt = static_cast<int>(pos.quiet()) + t->distance;
        if (attackAt >= 2 * drawTurns) return false;
        ++heuristic_;  // not the game's value: never `exact`
        value = edged(pos, t->value * std::pow(kTableFade, attackAt));
        return true;
    }
    // The evaluation of a leaf, held to the race cap under an opponent model.
    double evaluate(const Position& pos) {
        ++heuristic_;
        const double v = cachedEvaluation(pos);
        return edged(pos, cap_ ? cap_->apply(pos, v) : v);
    }
    // A leaf's value with Play::edge (after the cap: the edge is what play makes of the
    // armies the cap allows).
    [[nodiscard]] double edged(const Position& pos, double v) const {
        return edge_.logit > 0 ? eval::withEdge(v, pos, edge_, memo_.tunables()) : v;
    }
    // The evaluator behind a per-thread cache: two actions a turn make the same leaf appear
    // through many move orders, and an evaluation costs far more than a lookup.
    double cachedEvaluation(const Position& pos) {
        const std::uint64_t key = tableKey(pos);
        EvalBucket& b = evalCache_[key & (kEvalBuckets - 1)];
        if (b.entries[0].key == key) return b.entries[0].value;
        if (b.entries[1].key == key) return b.entries[1].value;
        // The newer entry moves to the second slot and the older one leaves.
        b.entries[1] = b.entries[0];
        b.entries[0] = {key, contempt_.value > 0 ? eval::evaluate(pos, memo_, contempt_)
                                                 : eval::evaluate(pos, memo_)};
        return b.entries[0].value;
    }
    // A finished game's value, a draw worth -contempt to the contempt's side.
    [[nodiscard]] double terminal(const Position& pos) const {
        return contempt_.value > 0 ? eval::contemptOfOver(pos, contempt_) : terminalValue(pos);
    }
    // Starts loading what searching `child` at `depth` reads first: its endgame table entry
    // when it has few enough creatures, its evaluation cache slot when it is a leaf, else
    // its table cluster.
    void prefetchFor(const Position& child, int depth) const {
        if (tables_ && child.occupied().count() <= tables_->maxPieces()) tables_->prefetch(child);
        const std::uint64_t key = tableKey(child);
        if (child.phase() == Phase::Decision && depth <= 0)
            __builtin_prefetch(&evalCache_[key & (kEvalBuckets - 1)]);
        else if (tt_)
            tt_->prefetch(key);
    }
    bool enter(int ply);
    // What a decision node (searched, probed or modelled) is worth before any of its
    // decisions is looked at: nothing once the search stops, the endgame tables' value, or
    // the evaluation at the horizon. False when the node must be searched.
    bool settledOnEntry(const Position& pos, int depth, int ply, double& value) {
        if (!enter(ply)) {
            value = 0;
            return true;
        }
        if (tableValue(pos, value)) return true;
        if (pos.phase() == Phase::Decision && depth <= 0) {
            value = evaluate(pos);
            return true;
        }
        return false;
    }
    // The transposition table's entry for `key` settles the node within (alpha, beta): true
    // with its value. Any entry found gives its best decision to `move` (when asked).
    bool tableCutoff(std::uint64_t key, int depth, double alpha, double beta, double& value,
                     Event* move = nullptr);
    void store(std::uint64_t key, double value, int depth, double alpha, double beta, Event move,
               std::uint64_t heuristicBefore);
    // A cutoff by a quiet decision: its history grows with the depth it saved; the player's
    // table is halved before a value could reach the attack scores.
    void rewardHistory(Player p, Event e, int depth) {
        int& h = history_[index(p)][e.from().index()][e.to().index()];
        h += depth * depth + 1;
        if (h >= kHistoryLimit)
            for (auto& row : history_[index(p)])
                for (int& v : row)
                    v /= 2;
    }

    TranspositionTable* tt_ = nullptr;
    const tables::Tablebase* tables_ = nullptr;
    Control control_;
    bool managesTime_ = false;
    bool stopped_ = false;
    std::uint64_t nodes_ = 0;
    std::uint64_t heuristic_ = 0;  // evaluations and heuristic table values used so far
    int seldepth_ = 0;
    std::array<std::array<std::array<int, Cell::kCount>, Cell::kCount>, 2> history_{};
    const Rules* attackRules_ = nullptr;  // the rules attackScore_ was made for
    std::array<std::array<std::uint32_t, kMaxCreatures>, kMaxCreatures> attackScore_{};
    struct EvalEntry {
        std::uint64_t key = 0;
        double value = 0;
    };
    // Two entries a bucket, one cache line holds two buckets.
    struct EvalBucket {
        std::array<EvalEntry, 2> entries;
    };
    static constexpr std::size_t kEvalBuckets = 1 << 14;  // 512 KiB
    LargeArray<EvalBucket> evalCache_ = makeLargeArray<EvalBucket>(kEvalBuckets);
    eval::Memo memo_;
    eval::Contempt contempt_;           // none: value 0
    std::optional<Baseline> opponent_;  // Play::opponent, for the player modelled_
    Player modelled_ = Player::Two;
    double attackShare_ = 0;          // Play::attackShare, for the player who is not modelled_
    eval::Edge edge_;                 // Play::edge, for the same player
    std::optional<ModelCap> cap_;     // under opponent_, kept from search to search
    std::uint64_t capsComputed_ = 0;  // cap_->computed() at the last poll
};

// Counts the node and polls the stop conditions: the node budget exactly, the clock every
// 1024 nodes, when other threads' counts are published too, and after every race cap the
// model computed (the first nodes with new armies cost milliseconds each: 1024 of them
// once took 100 ms, over a 25 ms movetime).
bool Worker::enter(int ply) {
    ++nodes_;
    seldepth_ = std::max(seldepth_, ply);
    const bool counted = (nodes_ & 1023) == 0;
    bool poll = counted;
    if (cap_ && cap_->computed() != capsComputed_) {
        capsComputed_ = cap_->computed();
        poll = true;
    }
    if (counted && control_.helperNodes && !managesTime_)
        control_.helperNodes->fetch_add(1024, std::memory_order_relaxed);
    if (managesTime_) {
        const std::uint64_t others =
            control_.helperNodes ? control_.helperNodes->load(std::memory_order_relaxed) : 0;
        if ((control_.maxNodes && nodes_ + others >= control_.maxNodes) ||
            (poll && control_.hardMs &&
             static_cast<std::int64_t>(elapsedMs(control_.start)) >= control_.hardMs))
            control_.stop->store(true, std::memory_order_relaxed);
    }
    if (control_.stop->load(std::memory_order_relaxed)) stopped_ = true;
    return !stopped_;
}

bool Worker::tableCutoff(std::uint64_t key, int depth, double alpha, double beta, double& value,
                         Event* move) {
    TTData e;
    if (!tt_ || !tt_->probe(key, e)) return false;
    if (move) *move = e.move;
    if (e.depth < depth) return false;
    const double v = e.value;
    const bool cut = e.bound == Bound::Exact || (e.bound == Bound::Lower && v >= beta) ||
                     (e.bound == Bound::Upper && v <= alpha);
    if (cut) {
        value = v;
        if (e.heuristic) ++heuristic_;
    }
    return cut;
}

void Worker::store(std::uint64_t key, double value, int depth, double alpha, double beta,
                   Event move, std::uint64_t heuristicBefore) {
    if (!tt_ || stopped_) return;
    TTData d;
    d.value = static_cast<float>(value);
    d.depth = static_cast<std::int8_t>(std::clamp(depth, 0, 127));
    d.bound = value <= alpha ? Bound::Upper : value >= beta ? Bound::Lower : Bound::Exact;
    d.heuristic = heuristic_ != heuristicBefore;
    d.move = move;
    tt_->store(key, d);
}

double Worker::search(const Position& pos, int depth, double alpha, double beta, int ply) {
    switch (kind(pos)) {
        case NodeKind::Terminal:
            if (!enter(ply)) return 0;
            return terminal(pos);
        case NodeKind::Chance:
            return searchChance(pos, depth, alpha, beta, ply);
        case NodeKind::Modelled:
            return searchModelled(pos, depth, alpha, beta, ply);
        case NodeKind::Max:
        case NodeKind::Min:
            return searchDecision(pos, depth, alpha, beta, ply);
    }
    return 0;
}

// Ordering: the table's move, then attacks by expected material gain, then moves and
// placements by history. Each event becomes one 64-bit key — score, then the event's place
// in the list (earlier first among equals), then its code — so that sorting the keys is a
// stable sort of the events, with a single word moved per step.
void Worker::orderDecisions(const Position& pos, EventList& list, Event ttMove) {
    const Rules& rules = pos.rules();
    if (&rules != attackRules_) {
        attackRules_ = &rules;
        for (int a = 0; a < rules.creatureCount(); ++a)
            for (int d = 0; d < rules.creatureCount(); ++d)
                attackScore_[a][d] =
                    attackOrderScore(rules, static_cast<Creature>(a), static_cast<Creature>(d));
    }
    const Player p = pos.decider();
    const int n = list.size();
    std::array<std::uint64_t, EventList::kCapacity> keys;  // the first n are set
    const std::uint16_t ttCode = ttMove.code();
    const auto& history = history_[index(p)];
    for (int i = 0; i < n; ++i) {
        // Read from the code itself: decoding every event would cost more than scoring it.
        const std::uint16_t code = list.code(i);
        const Event e = Event::fromCode(code);
        std::uint32_t score;
        if (code == ttCode) {
            score = kTableMoveScore;
        } else if (e.kind() == EventKind::Attack) {
            score = attackScore_[static_cast<int>(pos.at(e.from()).creature())]
                                [static_cast<int>(pos.at(e.to()).creature())];
        } else {
            score = static_cast<std::uint32_t>(history[e.from().index()][e.to().index()]);
        }
        keys[i] = (std::uint64_t{score} << 32) | (std::uint64_t(255 - i) << 16) | code;
    }
    // Insertion sort, descending: lists are short.
    for (int i = 1; i < n; ++i) {
        const std::uint64_t k = keys[i];
        int j = i - 1;
        for (; j >= 0 && keys[j] < k; --j)
            keys[j + 1] = keys[j];
        keys[j + 1] = k;
    }
    for (int i = 0; i < n; ++i)
        list.setCode(i, static_cast<std::uint16_t>(keys[i]));
}

// Alpha-beta at a decision of either player, fail-soft, values from player 1's view: a
// max node for player 1, a min node for player 2. The same player may decide twice in a
// row (two actions a turn), which is why nothing is negated.
double Worker::searchDecision(const Position& pos, int depth, double alpha, double beta, int ply) {
    if (double v; settledOnEntry(pos, depth, ply, v)) return v;

    const std::uint64_t key = tableKey(pos);
    const std::uint64_t heuristicBefore = heuristic_;
    Event ttMove;
    if (double v; tableCutoff(key, depth, alpha, beta, v, &ttMove)) return v;

    EventList list;
    generateDecisions(pos, list);
    orderDecisions(pos, list, ttMove);
    const bool maximizing = pos.decider() == Player::One;
    const int nextDepth = childDepth(pos, depth);
    double best = maximizing ? -kInfinity : kInfinity;
    Event bestMove;
    double a = alpha, b = beta;
    // Each child is made one step ahead, so that the memory its search reads first is on
    // its way while the previous child is searched (+3-5% nps; a cutoff wastes one make).
    const int n = list.size();
    Position next = pos;
    if (n > 0) {
        next.apply(list[0]);
        prefetchFor(next, nextDepth);
    }
    for (int i = 0; i < n; ++i) {
        const Event e = list[i];
        const Position child = next;
        if (i + 1 < n) {
            next = pos;
            next.apply(list[i + 1]);
            prefetchFor(next, nextDepth);
        }
        const double v = search(child, nextDepth, a, b, ply + 1);
        if (stopped_) return 0;
        if (maximizing ? v > best : v < best) {
            best = v;
            bestMove = e;
            if (maximizing)
                a = std::max(a, v);
            else
                b = std::min(b, v);
            if (a >= b) {
                if (e.kind() != EventKind::Attack) rewardHistory(pos.decider(), e, depth);
                break;
            }
        }
    }
    store(key, best, depth, alpha, beta, bestMove, heuristicBefore);
    return best;
}

// Star2's probe of a decision node: its first move only, which bounds the node's value
// from the deciding player's side (below for player 1, above for player 2). A depth-0
// decision node is simply evaluated, which is its value at this depth.
double Worker::probe(const Position& child, int depth, double alpha, double beta, int ply) {
    if (double v; settledOnEntry(child, depth, ply, v)) return v;
    Event first;
    if (tt_) {
        TTData e;
        if (tt_->probe(tableKey(child), e)) first = e.move;
    }
    EventList list;
    generateDecisions(child, list);
    if (first.isNone() || !list.contains(first)) {
        orderDecisions(child, list, Event());
        first = list[0];
    }
    Position grandchild = child;
    grandchild.apply(first);
    return search(grandchild, childDepth(child, depth), alpha, beta, ply + 1);
}

// A chance node: the expected value of the outcomes, with *-minimax pruning (Ballard).
// Each outcome's value is known to lie in [lo, hi] — [-1, 1] at first, narrowed by the
// table and by Star2 probes — so the node's value lies between the probability-weighted
// sums of the bounds; once that interval leaves (alpha, beta) the node is cut. Star1 then
// searches each outcome with the window that would decide the node, and cuts as soon as
// one outcome's value settles it.
double Worker::searchChance(const Position& pos, int depth, double alpha, double beta, int ply) {
    if (!enter(ply)) return 0;
    const std::uint64_t key = tableKey(pos);
    const std::uint64_t heuristicBefore = heuristic_;
    if (double v; tableCutoff(key, depth, alpha, beta, v)) return v;

    struct Child {
        Position pos;
        double p;
        double lo = -1;
        double hi = 1;
        NodeKind kind;
        bool inTable = false;
    };
    // An attack has at most four outcomes, kept on the stack; Rays of Death's roll has 25.
    std::array<Child, 4> few{
        Child{pos, 0, -1, 1, NodeKind::Terminal}, Child{pos, 0, -1, 1, NodeKind::Terminal},
        Child{pos, 0, -1, 1, NodeKind::Terminal}, Child{pos, 0, -1, 1, NodeKind::Terminal}};
    std::vector<Child> many;
    std::span<Child> children = few;
    if (pos.phase() == Phase::Roll) {
        many.assign(rays::kRollOutcomes, Child{pos, 0, -1, 1, NodeKind::Terminal});
        children = many;
    }
    int n = 0;
    EventList outcomes;
    pos.generate(outcomes);
    for (const Event o : outcomes) {
        Child& c = children[n++];
        c.p = pos.probability(o);
        c.pos.apply(o);
        c.kind = kind(c.pos);
        // Decisions at depth 0 are evaluated, never stored: no table entry to look for.
        c.inTable = tt_ && c.kind != NodeKind::Terminal &&
                    !(c.pos.phase() == Phase::Decision && depth <= 0);
        if (c.kind != NodeKind::Terminal) prefetchFor(c.pos, depth);
    }
    // Likeliest first: they move the bounds the most. (Insertion sort of at most four.)
    for (int i = 1; i < n; ++i)
        for (int j = i; j > 0 && children[j].p > children[j - 1].p; --j)
            std::swap(children[j], children[j - 1]);

    for (int i = 0; i < n; ++i) {
        Child& c = children[i];
        double v;
        if (c.kind == NodeKind::Terminal) {
            c.lo = c.hi = terminal(c.pos);
        } else if (tableValue(c.pos, v)) {
            c.lo = c.hi = v;  // the endgame tables know it: no search below
        } else if (c.inTable) {
            TTData e;
            if (tt_->probe(tableKey(c.pos), e) && e.depth >= depth) {
                if (e.heuristic) ++heuristic_;
                if (e.bound != Bound::Upper) c.lo = std::max(c.lo, static_cast<double>(e.value));
                if (e.bound != Bound::Lower) c.hi = std::min(c.hi, static_cast<double>(e.value));
                if (c.lo > c.hi) c.lo = c.hi = e.value;  // float rounding of a settled value
            }
        }
    }

    auto sumLo = [&] {
        double s = 0;
        for (int i = 0; i < n; ++i)
            s += children[i].p * children[i].lo;
        return s;
    };
    auto sumHi = [&] {
        double s = 0;
        for (int i = 0; i < n; ++i)
            s += children[i].p * children[i].hi;
        return s;
    };
    auto cutoff = [&](double& value) {
        const double lo = sumLo(), hi = sumHi();
        if (lo >= beta) return value = lo, true;
        if (hi <= alpha) return value = hi, true;
        return false;
    };
    auto windowFor = [&](const Child& c) {
        return star::window(c.p, c.lo, c.hi, sumLo(), sumHi(), alpha, beta);
    };
    auto settle = [&](double value) {
        store(key, value, depth, alpha, beta, Event(), heuristicBefore);
        return value;
    };
    double value;
    if (cutoff(value)) return settle(value);

    // Star2: probe each outcome's first decision, which bounds it from its decider's side.
    for (int i = 0; i < n; ++i) {
        Child& c = children[i];
        if (c.lo == c.hi) continue;
        // A modelled decision's first move bounds nothing (its value is a mean); at depth 0
        // it is evaluated like any other.
        if (c.kind == NodeKind::Modelled && !(c.pos.phase() == Phase::Decision && depth <= 0))
            continue;
        const star::Window w = windowFor(c);
        const double low = std::max(w.a, -1.0), high = std::min(w.b, 1.0);
        const double v = probe(c.pos, depth, low, high, ply + 1);
        if (stopped_) return 0;
        if (c.pos.phase() == Phase::Decision && depth <= 0) {
            c.lo = c.hi = v;  // evaluated: the exact value at this depth
        } else if (c.kind == NodeKind::Max && v > low) {
            c.lo = std::max(c.lo, v);
        } else if (c.kind == NodeKind::Min && v < high) {
            c.hi = std::min(c.hi, v);
        }
        if (cutoff(value)) return settle(value);
    }

    // Star1: each outcome in turn, with the window that decides the node.
    for (int i = 0; i < n; ++i) {
        Child& c = children[i];
        if (c.lo == c.hi) continue;
        const star::Window w = windowFor(c);
        const double v = search(c.pos, depth, std::max(w.a, -1.0), std::min(w.b, 1.0), ply + 1);
        if (stopped_) return 0;
        if (v <= w.a) return settle(star::failLow(w, c.p, v, alpha));
        if (v >= w.b) return settle(star::failHigh(w, c.p, v, beta));
        c.lo = c.hi = v;
    }
    return settle(sumLo());
}

// A decision of the modelled opponent: the mean over the decisions it chooses among, each
// searched with Star1's window for a chance node of equally likely outcomes (nothing is
// known of a decision before it is searched: every bound starts at [-1, 1]).
double Worker::searchModelled(const Position& pos, int depth, double alpha, double beta, int ply) {
    if (double v; settledOnEntry(pos, depth, ply, v)) return v;
    const std::uint64_t key = tableKey(pos);
    const std::uint64_t heuristicBefore = heuristic_;
    if (double v; tableCutoff(key, depth, alpha, beta, v)) return v;
    auto settle = [&](double value) {
        store(key, value, depth, alpha, beta, Event(), heuristicBefore);
        return value;
    };
    EventList list;
    baselineChoices(*opponent_, pos, list);
    const int n = list.size();
    const double p = 1.0 / n;
    const int nextDepth = childDepth(pos, depth);
    double sumLo = -1, sumHi = 1;
    for (int i = 0; i < n; ++i) {
        Position child = pos;
        child.apply(list[i]);
        const star::Window w = star::window(p, -1, 1, sumLo, sumHi, alpha, beta);
        const double v = search(child, nextDepth, std::max(w.a, -1.0), std::min(w.b, 1.0), ply + 1);
        if (stopped_) return 0;
        if (v <= w.a) return settle(star::failLow(w, p, v, alpha));
        if (v >= w.b) return settle(star::failHigh(w, p, v, beta));
        sumLo = w.othersLo + p * v;
        sumHi = w.othersHi + p * v;
    }
    return settle(sumLo);
}

// The memo only saves work (evaluate(pos, memo) is exactly evaluate(pos)): without it every
// leaf of a custom army would solve the material model afresh.
double plainExpectiminimax(const Position& pos, int depth, std::uint64_t& nodes, eval::Memo& memo) {
    ++nodes;
    if (pos.isOver()) return terminalValue(pos);
    if (pos.phase() == Phase::Decision && depth <= 0) return eval::evaluate(pos, memo);
    if (pos.chanceDue())
        return *expectOverOutcomes(pos, [&](const Position& child) {
            return std::optional<double>(plainExpectiminimax(child, depth, nodes, memo));
        });
    EventList list;
    pos.generate(list);
    const bool maximizing = pos.decider() == Player::One;
    double best = maximizing ? -kInfinity : kInfinity;
    for (const Event e : list) {
        Position child = pos;
        child.apply(e);
        const double v = plainExpectiminimax(child, childDepth(pos, depth), nodes, memo);
        best = maximizing ? std::max(best, v) : std::min(best, v);
    }
    return best;
}

// The principal variation below a root decision, read back from the table: the stored
// best decisions, and the likeliest outcome at chance nodes, as far as the iteration that
// produced it looked (deeper entries of earlier searches would show lines it never saw).
std::vector<Event> extractPv(const TranspositionTable& tt, const Position& root, Event first,
                             int depth) {
    std::vector<Event> pv{first};
    Position pos = root;
    int left = childDepth(root, depth);
    pos.apply(first);
    while (!pos.isOver() && !(pos.phase() == Phase::Decision && left <= 0) &&
           pv.size() < 4 * kMaxDepth) {
        EventList list;
        pos.generate(list);
        Event next;
        if (pos.chanceDue()) {
            double bestP = -1;
            for (const Event o : list)
                if (pos.probability(o) > bestP) bestP = pos.probability(o), next = o;
        } else {
            TTData e;
            if (!tt.probe(tableKey(pos), e) || e.move.isNone() || !list.contains(e.move)) break;
            next = e.move;
        }
        left = childDepth(pos, left);
        pv.push_back(next);
        pos.apply(next);
    }
    return pv;
}

struct RootMove {
    Event move;
    double value = -kInfinity;  // deciding player's view
    bool exact = false;         // a proven value (no evaluation below)
    bool bounded = false;       // value is only a bound (failed outside the window)
};

// What a stopped iteration (MultiPV 1) has shown, as Stockfish uses it: its first root
// decision is the last iteration's best, searched with a full window; a later one that came
// out above the window was valued exactly at the new depth, and above every one before it.
// That decision, or nothing when none did. Without this, the time spent on the last,
// unfinished iteration was lost: one action of depth costs five to ten times the nodes of
// the one before, so a doubling of the time often finished no further iteration. When no
// iteration has finished (`first`), the first decision counts too: its value is the only
// searched one there is, and without it the answer fell back on a static evaluation.
std::optional<RootMove> betterInStoppedIteration(std::span<const RootMove> searched, bool first) {
    const RootMove* top = nullptr;
    for (const RootMove& rm :
         searched.subspan(first ? 0 : std::min<std::size_t>(1, searched.size())))
        if (!rm.bounded && (top == nullptr || rm.value > top->value)) top = &rm;
    if (top == nullptr) return std::nullopt;
    return *top;
}

}  // namespace

double expectiminimax(const Position& pos, int depth, std::uint64_t& nodes) {
    eval::Memo memo;
    return plainExpectiminimax(pos, depth, nodes, memo);
}

double prunedValue(const Position& pos, int depth, std::uint64_t& nodes,
                   const tables::Tablebase* tables) {
    std::atomic<bool> stop{false};
    Control control;
    control.stop = &stop;
    Worker w;
    w.begin(nullptr, control, false, tables);
    const double v = w.search(pos, depth, -kInfinity, kInfinity, 0);
    nodes = w.nodes();
    return v;
}

void dropPoorAttacks(const Position& pos, EventList& list, double minShare) {
    const Rules& rules = pos.rules();
    if (rules.drawTurns() > 0 &&
        static_cast<int>(pos.quiet()) >= 2 * rules.drawTurns() - kAttackShareLate)
        return;
    const auto isAttack = [](Event e) { return e.kind() == EventKind::Attack; };
    if (std::all_of(list.begin(), list.end(), isAttack)) return;
    list.keepIf([&](Event e) {
        if (!isAttack(e)) return true;
        const auto& odds =
            rules.combat(pos.at(e.from()).creature(), pos.at(e.to()).creature()).probability;
        return eval::decisiveShare(odds, rules.blockedPush(),
                                   eval::boxedIn(pos, e.from(), e.to())) >= minShare;
    });
}

int depthExtension(const Position& root, const Play& play, race::WithoutMoveCache& withoutMove) {
    if (!play.opponent || root.rules().courtier()) return 0;
    const Player decider = root.decider();
    const int others = static_cast<int>(root.pieces(decider).count());
    return withoutMove(root.rules(), root.army(opponent(decider)), others) ? kBoxingExtension : 0;
}

struct Searcher::Impl {
    Options options;
    eval::Tunables tunables;  // every worker's memo has these
    Play play;
    // What the table's values were found with besides the position: the Play, and for whom
    // (the side only matters when something of it is on).
    struct Flavour {
        Play play;
        Player decider = Player::One;
        bool operator==(const Flavour& o) const {
            const bool sided =
                play.contempt > 0 || play.opponent || play.attackShare > 0 || play.edge > 0;
            return play == o.play && (!sided || decider == o.decider);
        }
    };
    Flavour flavour;
    race::WithoutMoveCache withoutMove;  // for depthExtension, on the search thread only
    std::shared_ptr<const tables::Tablebase> tables;  // probed when set
    TranspositionTable tt;  // sized by setOptions, or else by the first search
    std::atomic<bool> stop{false};
    std::atomic<bool> running{false};
    std::mutex mutex;
    std::condition_variable stopSignal;
    // One worker per thread of Options::threads, kept from search to search: workers[0] is
    // the main search's, workers[t] helper t's. Declared before the pool, so that the
    // threads are joined before the workers they use go.
    std::vector<std::unique_ptr<Worker>> workers;
    // Thread 0 runs the searches start() launches (run() searches on the calling thread);
    // thread t > 0 is helper t of lazy SMP.
    ThreadPool pool;
    std::atomic<bool> helpersStop{false};
    std::atomic<std::uint64_t> helperNodes{0};  // published by the helpers as they go

    Impl() : pool(1) { resizeWorkers(1); }
    // Strong: if a worker cannot be had this throws and nothing has changed.
    void resizeWorkers(int count);
    void sizeTable();
    void startHelpers(const Position& root, const EventList& legal, int maxDepth,
                      const Control& control);
    std::uint64_t stopHelpers();
    std::size_t searchIteration(Worker& main, const Position& root, int depth, int multiPv,
                                std::vector<RootMove>& rootMoves, bool& solved);
    [[nodiscard]] Line lineOf(const Position& root, const RootMove& rm, double value,
                              int depth) const;
    Report run(const Position& pos, const Limits& limits, const InfoCallback& onInfo);
};

void Searcher::Impl::resizeWorkers(int count) {
    std::vector<std::unique_ptr<Worker>> added;
    for (int t = static_cast<int>(workers.size()); t < count; ++t) {
        added.push_back(std::make_unique<Worker>());
        added.back()->setTunables(tunables);
    }
    pool.resize(count);
    workers.resize(static_cast<std::size_t>(std::min<int>(count, workers.size())));
    for (auto& w : added)
        workers.push_back(std::move(w));
}

Searcher::Searcher() : impl_(std::make_unique<Impl>()) {}

Searcher::~Searcher() {
    stop();
    wait();
}

void Searcher::setOptions(const Options& options) {
    // The table first: if it cannot be had, this throws and nothing has changed.
    if (impl_->tt.megabytes() != options.hashMiB) impl_->tt.resize(options.hashMiB);
    impl_->resizeWorkers(std::max(1, options.threads));
    impl_->options = options;
}

const Options& Searcher::options() const {
    return impl_->options;
}

void Searcher::clearHash() {
    impl_->tt.clear();
}

void Searcher::setTunables(const eval::Tunables& tunables) {
    wait();
    if (tunables == impl_->tunables) return;
    impl_->tunables = tunables;
    for (auto& w : impl_->workers)
        w->setTunables(tunables);
    // Entries hold values of the old weights: a search must not mix them with the new.
    impl_->tt.clear();
}

void Searcher::setPlay(const Play& play) {
    wait();
    impl_->play = play;
}

const eval::Tunables& Searcher::tunables() const {
    return impl_->tunables;
}

void Searcher::setTables(std::shared_ptr<const tables::Tablebase> tables) {
    wait();
    impl_->tables = std::move(tables);
}

void Searcher::start(const Position& pos, const Limits& limits, InfoCallback onInfo,
                     DoneCallback onDone) {
    wait();
    impl_->stop.store(false);
    impl_->running.store(true);
    impl_->pool.launch(0,
                       [this, pos, limits, onInfo = std::move(onInfo), onDone = std::move(onDone)] {
                           // An exception would end the process on this thread; the
                           // caller hears of a failed allocation in the report instead.
                           Report report;
                           try {
                               report = impl_->run(pos, limits, onInfo);
                           } catch (const std::bad_alloc&) {
                               report.outOfMemory = true;  // run threw before `report` was assigned
                           }
                           impl_->running.store(false);
                           if (onDone) onDone(report);
                       });
}

void Searcher::stop() {
    {
        std::lock_guard lock(impl_->mutex);
        impl_->stop.store(true);
    }
    impl_->stopSignal.notify_all();
}

void Searcher::wait() {
    impl_->pool.wait(0);
}

bool Searcher::searching() const {
    return impl_->running.load();
}

Report Searcher::run(const Position& pos, const Limits& limits, InfoCallback onInfo) {
    wait();
    impl_->stop.store(false);
    return impl_->run(pos, limits, onInfo);
}

void Searcher::Impl::sizeTable() {
    if (tt.megabytes() == options.hashMiB) return;
    try {
        tt.resize(options.hashMiB);
    } catch (const std::bad_alloc&) {
        if (tt.megabytes() == 0) tt.resize(1);
    }
}

// Helpers: the main thread's iterative deepening, staggered in depth, feeding the table.
// They search until stopHelpers(); `root` and `legal` must live until then.
void Searcher::Impl::startHelpers(const Position& root, const EventList& legal, int maxDepth,
                                  const Control& control) {
    helpersStop.store(false);
    helperNodes.store(0);
    Control helperControl = control;
    helperControl.stop = &helpersStop;
    const double sign = perspective(root.decider());
    for (int t = 1; t < static_cast<int>(workers.size()); ++t) {
        Worker* w = workers[static_cast<std::size_t>(t)].get();
        w->begin(&tt, helperControl, false, tables.get(), play, root.decider());
        pool.launch(t, [this, w, &root, &legal, maxDepth, t, sign] {
            for (int d = 1 + (t & 1); d <= maxDepth && !helpersStop.load(); ++d) {
                // Alpha-beta over the root as the main thread does it: a root decision only
                // needs to be shown no better than the best so far, which keeps a helper's
                // iteration as cheap as the main thread's and lets it run ahead.
                double best = -kInfinity;  // the decider's view
                for (const Event e : legal) {
                    Position child = root;
                    child.apply(e);
                    const double alpha = sign > 0 ? best : -kInfinity;
                    const double beta = sign > 0 ? kInfinity : -best;
                    const double v = w->search(child, childDepth(root, d), alpha, beta, 1);
                    if (w->stopped()) return;
                    best = std::max(best, sign * v);
                }
            }
        });
    }
}

// Returns once every helper has stopped, with their node count, final then. Idempotent.
std::uint64_t Searcher::Impl::stopHelpers() {
    helpersStop.store(true);
    std::uint64_t nodes = 0;
    for (int t = 1; t < static_cast<int>(workers.size()); ++t) {
        pool.wait(t);
        nodes += workers[static_cast<std::size_t>(t)]->nodes();
    }
    return nodes;
}

// One iteration over the root decisions, in the order of the last one. With MultiPV k the
// best k get exact values and the rest are only shown to be worse. Returns how many root
// decisions were searched to the end: all of them, or fewer when the search was stopped
// (those first ones then hold this depth's values, unsorted, the rest the last depth's).
std::size_t Searcher::Impl::searchIteration(Worker& main, const Position& root, int depth,
                                            int multiPv, std::vector<RootMove>& rootMoves,
                                            bool& solved) {
    const double sign = perspective(root.decider());
    solved = true;
    for (std::size_t i = 0; i < rootMoves.size(); ++i) {
        RootMove& rm = rootMoves[i];
        double threshold = -kInfinity;
        if (static_cast<int>(i) >= multiPv) {
            std::vector<double> values;
            for (std::size_t j = 0; j < i; ++j)
                values.push_back(rootMoves[j].value);
            std::nth_element(values.begin(), values.begin() + (multiPv - 1), values.end(),
                             std::greater<>());
            threshold = values[multiPv - 1];
        }
        const double alpha = sign > 0 ? threshold : -kInfinity;
        const double beta = sign > 0 ? kInfinity : -threshold;
        Position child = root;
        child.apply(rm.move);
        const std::uint64_t heuristicBefore = main.heuristicCount();
        const double v = main.search(child, childDepth(root, depth), alpha, beta, 1);
        if (main.stopped()) return i;
        const bool proven = main.heuristicCount() == heuristicBefore;
        rm.value = sign * v;
        rm.bounded = threshold > -kInfinity && rm.value <= threshold;
        rm.exact = proven && !rm.bounded;
        solved = solved && proven;
    }
    std::stable_sort(rootMoves.begin(), rootMoves.end(),
                     [](const RootMove& x, const RootMove& y) { return x.value > y.value; });
    return rootMoves.size();
}

// A root decision as it is handed out, in the deciding player's view, with the principal
// variation the table holds to `depth`.
Line Searcher::Impl::lineOf(const Position& root, const RootMove& rm, double value,
                            int depth) const {
    const double sign = perspective(root.decider());
    Line line;
    line.move = rm.move;
    // Reported without Play::edge, taken out at the root's quiet count: the value says what
    // the game is worth, not how the engine weighs lotteries. Exact values never had it.
    line.value = rm.exact ? value
                          : sign * eval::withEdge(sign * value, root, {root.decider(), -play.edge},
                                                  tunables);
    line.exact = rm.exact;
    const auto w = eval::wdl(root, sign * line.value, tunables,
                             rm.exact ? eval::Certainty::Exact : eval::Certainty::Estimate);
    line.wdl = sign > 0 ? w : std::array<int, 3>{w[2], w[1], w[0]};
    line.pv = extractPv(tt, root, rm.move, depth);
    return line;
}

// Iterative deepening at the root, on the calling thread, with helper threads of the pool
// searching the same root into the shared table (lazy SMP). The root is a decision (or
// placement) of one player; root values are kept from that player's view.
Report Searcher::Impl::run(const Position& root, const Limits& limits, const InfoCallback& onInfo) {
    Report report;
    const Clock::time_point start = Clock::now();
    if (root.isOver() || root.chanceDue()) return report;

    // Sized here only when setOptions never ran. This runs on the search thread, where a
    // failed allocation must not escape: the search then makes do with the smallest table.
    sizeTable();
    tt.newSearch();
    const TimePlan plan = planTime(limits, root.decider());
    const int maxDepth =
        limits.depth > 0
            ? std::min(limits.depth + depthExtension(root, play, withoutMove), kMaxDepth)
            : kMaxDepth;

    Control control;
    control.stop = &stop;
    control.start = start;
    control.hardMs = plan.hardMs;
    control.maxNodes = plan.maxNodes;
    control.helperNodes = workers.size() > 1 ? &helperNodes : nullptr;
    Worker& main = *workers[0];
    if (const Flavour f{play, root.decider()}; !(f == flavour)) {
        tt.clear();  // its values were found with another contempt, model, share or edge
        flavour = f;
    }
    main.begin(&tt, control, true, tables.get(), play, root.decider());

    EventList legal;
    main.generateDecisions(root, legal);
    {
        TTData e;
        const Event ttMove = tt.probe(tableKey(root), e) ? e.move : Event();
        main.orderDecisions(root, legal, ttMove);
    }
    std::vector<RootMove> rootMoves;
    for (const Event e : legal)
        rootMoves.push_back(RootMove{e});
    const int multiPv = std::clamp(options.multiPv, 1, static_cast<int>(rootMoves.size()));

    startHelpers(root, legal, maxDepth, control);
    // The helpers read `root` and `legal`: they stop before this frame ends, however it ends.
    struct HelperStop {
        Impl& impl;
        ~HelperStop() { (void)impl.stopHelpers(); }
    } helperStop{*this};
    int completedDepth = 0;
    std::vector<RootMove> best = rootMoves;
    double instability = 0;
    for (int depth = 1; depth <= maxDepth; ++depth) {
        main.resetSeldepth();
        bool solved = false;
        const std::size_t searched = searchIteration(main, root, depth, multiPv, rootMoves, solved);
        if (searched < rootMoves.size()) {
            if (multiPv == 1)
                if (const auto better = betterInStoppedIteration(
                        std::span<const RootMove>(rootMoves).first(searched),
                        completedDepth == 0)) {
                    const auto at = std::ranges::find(best, better->move, &RootMove::move);
                    std::rotate(best.begin(), at, at + 1);
                    best.front() = *better;
                }
            break;
        }
        instability =
            nextInstability(instability, depth > 1 && !(rootMoves[0].move == best[0].move));
        best = rootMoves;
        completedDepth = depth;

        const std::int64_t ms = static_cast<std::int64_t>(elapsedMs(start));
        if (onInfo) {
            const std::uint64_t nodes = main.nodes() + helperNodes.load();
            for (int k = 0; k < multiPv; ++k) {
                Info info;
                info.depth = depth;
                info.seldepth = main.seldepth();
                info.timeMs = ms;
                info.nodes = nodes;
                info.nps = ms > 0 ? nodes * 1000 / static_cast<std::uint64_t>(ms) : nodes * 1000;
                info.hashfull = tt.hashfull();
                info.multipv = k + 1;
                info.line = lineOf(root, rootMoves[k], rootMoves[k].value, depth);
                onInfo(info);
            }
            // The report has just woken whoever reads it (a GUI reading the engine's output),
            // often onto this core, where it would wait for this thread's time slice to end:
            // 3-4 ms with two engines on a busy two-core machine, when this thread had slept
            // long before the search (tools/bench-latency, go -> first info). Let it run now.
            std::this_thread::yield();
        }
        const Progress progress{ms, solved, static_cast<int>(rootMoves.size()),
                                criticalDecision(root, best[0].move), instability};
        if (!anotherIteration(plan, progress)) break;
        if (stop.load()) break;
    }
    const std::uint64_t helperTotal = stopHelpers();

    // `go infinite` answers only when told to stop.
    if (plan.untilStopped) {
        std::unique_lock lock(mutex);
        stopSignal.wait(lock, [this] { return stop.load(); });
    }

    report.depth = completedDepth;
    report.nodes = main.nodes() + helperTotal;
    report.timeMs = static_cast<std::int64_t>(elapsedMs(start));
    const double sign = perspective(root.decider());
    for (int k = 0; k < multiPv && k < static_cast<int>(best.size()); ++k) {
        double value = best[k].value;
        if (value == -kInfinity) {
            // Stopped before one decision was searched: the static value after it.
            Position child = root;
            child.apply(best[k].move);
            value = sign * (child.isOver() ? terminalValue(child)
                                           : eval::withEdge(eval::evaluate(child, tunables), child,
                                                            {root.decider(), play.edge}, tunables));
        }
        report.lines.push_back(lineOf(root, best[k], value, std::max(completedDepth, 1)));
    }
    report.best = report.lines.empty() ? Event() : report.lines.front().move;
    return report;
}

}  // namespace dejarik::search
