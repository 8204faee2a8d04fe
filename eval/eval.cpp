// The handwritten evaluator (docs/eval.md explains the terms and their weights).
//
// Everything is measured in one currency: the logit of player 1's chance to win,
// L = atanh(2W - 1) = ln(W / (1 - W)) / 2, so that tanh(L) is the expected result. The
// backbone is an attrition model built on the exact combat odds (material); the other terms
// are the expected material changes of the attacks each side can make soon, converted to
// the same logit, plus small positional and ruleset terms.
#include "eval/eval.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <span>

#include "movegen.h"

namespace dejarik::eval {

namespace {

constexpr int kMaxPieces = Cell::kCount;

// Win chances are kept inside [kEps, 1 - kEps] before taking logits: |L| <= 3.8, the logit
// of the value limit 0.999.
constexpr double kEps = 5e-4;
constexpr double kValueLimit = 0.999;

// Attacks (threats, exposure): a second attack in the same turn is worth less than the first
// (the position has changed), an attack after a move less than one in place (it spends the
// turn, and the move is only roughly known), and the waiting side's attacks come only after
// the side to move has used its actions, which it can spend fleeing or striking first.
constexpr double kSecondAttack = 0.5;
constexpr double kReachAttack = 0.75;
constexpr double kLaterAfterTwoActions = 0.35;
constexpr double kLaterAfterOneAction = 0.5;
constexpr double kExposure = 0.15;
// Attack gains are changes of the attrition win chance W, turned into logits with the slope
// 1 / (2 W (1 - W)), at most 4 (W outside [0.15, 0.85] is a decided game).
constexpr double kSlopeFloor = 0.125;

// Positional terms, in logits.
constexpr double kMobilityPerCell = 0.004;
constexpr int kMobilityCap = 8;  // cells per piece that still count
// With KingOfTheCentre every attack goes through `a`: a piece there is worth this, more
// for a piece worth more (its attrition worth). Without it the centre earns nothing of its
// own: a piece on `a` can be attacked from twelve cells, and the attacks it makes and
// suffers are counted already (1-ply games lost with a bonus for standing there).
constexpr double kCentreKing = 0.25;
constexpr double kCentreWorth = 2.0;

// Ruleset terms.
constexpr double kSafeRing = 0.5;  // SafeOuterOrbit: share of the lead the hider can void
constexpr double kHoldStep = 0.6;  // CentreWin: a hold counter about to reach N
constexpr double kHoldContested = 0.4;
constexpr double kHoldWin = 6.0;       // a hold win nothing can stop: tanh(6 * 0.5) = 0.995, plus
constexpr double kHoldWinRest = 0.05;  // this share of the rest, so material still counts
constexpr int kQuietHorizon = 30;      // actions before the quiet draw where the value shrinks

// Draw shares (wdl only).
constexpr double kDrawByHiding = 0.6;
constexpr double kDrawByStalemate = 0.5;
constexpr double kDecisive = 0.25;  // exchanges that kill less often than this tend to draws

enum TermId : int {
    kMaterial,
    kPending,
    kThreats,
    kExposureTerm,
    kMobility,
    kCentreTerm,
    kSafeRingTerm,
    kHold,
    kDrawClock,
    kTermCount
};
constexpr std::array<const char*, kTermCount> kTermNames = {
    "material", "pending attack", "threats", "exposure",  "mobility",
    "centre",   "safe ring",      "hold",    "draw clock"};

constexpr std::array<double, kMaxPieces* kMaxPieces + 1> kInverse = [] {
    std::array<double, kMaxPieces * kMaxPieces + 1> t{};
    for (std::size_t i = 1; i < t.size(); ++i)
        t[i] = 1.0 / static_cast<double>(i);
    return t;
}();

// ln x and e^-x by table and short polynomial, free of divisions and of long dependency
// chains: the evaluator takes a few of each per call, and std::log / std::exp (or series
// long enough to need no table) cost more than the rest of a term.

// The tables are built at compile time in long double, far beyond the 1e-16 they need.
[[nodiscard]] constexpr long double logSeries(long double y) {  // ln y for y in [1, 2]
    const long double t = (y - 1) / (y + 1), t2 = t * t;
    long double sum = 0, power = t;
    for (int k = 0; k < 40; ++k, power *= t2)
        sum += power / (2 * k + 1);
    return 2 * sum;
}

// ln x = e ln 2 + ln m, m in [1, 2) split by its top 7 bits j: ln m = -ln c_j + ln(1 + u)
// with c_j close to 1 / m, so that u = m c_j - 1 is below 2^-8 and six terms of the series
// of ln(1 + u) leave an error below 1e-17.
constexpr int kLogBits = 7;
struct LogEntry {
    double inverse;   // c_j
    double minusLog;  // -ln c_j
};
constexpr auto kLogTable = [] {
    std::array<LogEntry, 1 << kLogBits> t{};
    for (int j = 0; j < (1 << kLogBits); ++j) {
        const long double mid = 1.0L + (j + 0.5L) / (1 << kLogBits);
        const double c = static_cast<double>(1.0L / mid);
        t[j] = {c, static_cast<double>(logSeries(1.0L / c))};
    }
    return t;
}();
constexpr double kLn2 = 0.69314718055994530942;

// ln x for a positive normal x, to about 1e-16 absolute near 1.
[[nodiscard]] double fastLog(double x) {
    const auto bits = std::bit_cast<std::uint64_t>(x);
    const int exponent = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
    const double m = std::bit_cast<double>((bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
    const LogEntry& entry = kLogTable[(bits >> (52 - kLogBits)) & ((1u << kLogBits) - 1)];
    const double u = std::fma(m, entry.inverse, -1.0);
    const double u2 = u * u;
    // u - u^2/2 + u^3/3 - u^4/4 + u^5/5 - u^6/6, evaluated in pairs (shorter chains).
    const double poly =
        (u - 0.5 * u2) + u2 * u * ((1.0 / 3 - 0.25 * u) + u2 * (0.2 - u * (1.0 / 6)));
    return exponent * kLn2 + entry.minusLog + poly;
}

// ln(a / b), exactly antisymmetric in a and b (the difference of two logarithms), so that
// logits of player 1 and of player 2 are exact negatives.
[[nodiscard]] double logRatio(double a, double b) {
    return fastLog(a) - fastLog(b);
}

[[nodiscard]] double clampWin(double w) {
    return std::clamp(w, kEps, 1.0 - kEps);
}

// L(w) = ln(w / (1 - w)) / 2 = atanh(2w - 1), of a clamped win chance.
[[nodiscard]] double logit(double w) {
    w = clampWin(w);
    return 0.5 * logRatio(w, 1.0 - w);
}

// 2^(-j/64), j in [0, 64).
constexpr int kExpBits = 6;
constexpr auto kExpTable = [] {
    std::array<double, 1 << kExpBits> t{};
    for (int j = 0; j < (1 << kExpBits); ++j) {
        // e^-y by its Taylor series, y = j ln 2 / 64 < ln 2.
        const long double y = j * 0.693147180559945309417232121458176568L / (1 << kExpBits);
        long double term = 1, sum = 1;
        for (int k = 1; k < 40; ++k) {
            term *= -y / k;
            sum += term;
        }
        t[j] = static_cast<double>(sum);
    }
    return t;
}();

// e^-x for x >= 0, to about 1e-16 relative: x = n ln 2 / 64 - r with |r| <= ln 2 / 128,
// e^-x = 2^-(n / 64) 2^-(n % 64 / 64) e^r, e^r by five terms of its series.
[[nodiscard]] double expNegative(double x) {
    constexpr double kScale = (1 << kExpBits) / kLn2;
    // ln 2 / 64 in two parts, the first with trailing zero bits so that n times it is exact.
    constexpr double kStepHigh = 0x1.62e42fee00000p-7;
    constexpr double kStepLow = 0x1.a39ef35793c76p-39;
    x = std::min(x, 700.0);
    const int n = static_cast<int>(x * kScale + 0.5);
    const double r = (n * kStepHigh - x) + n * kStepLow;
    const double r2 = r * r;
    const double poly =
        (1.0 + r) + r2 * ((0.5 + r * (1.0 / 6)) + r2 * (1.0 / 24 + r * (1.0 / 120)));
    const double scale =
        std::bit_cast<double>(static_cast<std::uint64_t>(1023 - (n >> kExpBits)) << 52);
    return poly * kExpTable[n & ((1 << kExpBits) - 1)] * scale;
}

// tanh, odd by construction, clamped to the value limit.
[[nodiscard]] double squash(double raw) {
    const double e = expNegative(2.0 * std::abs(raw));
    const double t = std::min((1.0 - e) / (1.0 + e), kValueLimit);
    return raw < 0 ? -t : t;
}

[[nodiscard]] constexpr double sign(Player p) {
    return p == Player::One ? 1.0 : -1.0;
}

// ---------------------------------------------------------------------------------------
// The attrition model (material). The game is a war of attrition: kills come one at a
// time, the next one falls on player 2 with the mean "share" of the pairs of pieces still
// standing (a pair's share: of the kills between the two pieces when each attacks the other
// once, the fraction that fall on player 2's piece; exact odds from Rules::combat), and the
// side that loses a piece chooses which (its least useful one). One piece each is the
// showdown (exact odds, Rules::showdown). W(S1, S2), player 1's chance to win:
//   W(S1, {}) = 1, W({}, S2) = 0, W({c}, {e}) = showdown,
//   W(S1, S2) = p * min_e W(S1, S2 - e) + (1 - p) * max_c W(S1 - c, S2).
// Letting the loser choose makes W monotone whatever p is: an extra piece is an extra
// life, never a liability (W(S1 + x, S2) >= p' A + (1 - p') W(S1, S2) with
// A = min_e W(S1, S2 - e) >= W(S1, S2), by induction).

[[nodiscard]] double pairShare(const Rules& rules, Creature p1, Creature p2) {
    const auto& forward = rules.combat(p1, p2).probability;
    const auto& back = rules.combat(p2, p1).probability;
    const double ours =
        forward[static_cast<int>(Outcome::Kill)] + back[static_cast<int>(Outcome::CounterKill)];
    const double theirs =
        forward[static_cast<int>(Outcome::CounterKill)] + back[static_cast<int>(Outcome::Kill)];
    const double decisive = ours + theirs;
    return decisive > 0 ? ours / decisive : 0.5;
}

[[nodiscard]] double showdownWin(const Rules& rules, Creature p1, Creature p2) {
    const auto& sd = rules.showdown(p1, p2);
    return 0.5 + 0.5 * (sd.p1Wins - sd.p2Wins);
}

// Up to this many pieces the model is solved over every subset of the pieces on the board
// (custom armies with a creature twice; standard ones are read from the table below).
constexpr int kSubsetPieces = 12;

// W for every subset of the given pieces: w[mask], bit i for piece i, pieces [0, n1) player
// 1's and [n1, n) player 2's. Subsets come before supersets in numeric order.
void solveSubsets(const Rules& rules, std::span<const Creature> pieces, int n1,
                  std::span<double> w) {
    const int n = static_cast<int>(pieces.size());
    std::array<std::array<double, kSubsetPieces>, kSubsetPieces> share{};
    for (int i = 0; i < n1; ++i)
        for (int j = n1; j < n; ++j)
            share[i][j] = pairShare(rules, pieces[i], pieces[j]);
    const std::uint32_t ones = (1u << n1) - 1;
    for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
        const std::uint32_t m1 = mask & ones, m2 = mask & ~ones;
        const int c1 = std::popcount(m1), c2 = std::popcount(m2);
        if (c2 == 0) {
            w[mask] = c1 > 0 ? 1.0 : 0.5;
            continue;
        }
        if (c1 == 0) {
            w[mask] = 0.0;
            continue;
        }
        if (c1 == 1 && c2 == 1) {
            w[mask] =
                showdownWin(rules, pieces[std::countr_zero(m1)], pieces[std::countr_zero(m2)]);
            continue;
        }
        double sum = 0, theirLoss = 1, ourLoss = 0;
        for (std::uint32_t a = m1; a; a &= a - 1) {
            const int i = std::countr_zero(a);
            for (std::uint32_t b = m2; b; b &= b - 1)
                sum += share[i][std::countr_zero(b)];
            ourLoss = std::max(ourLoss, w[mask & ~(1u << i)]);
        }
        for (std::uint32_t b = m2; b; b &= b - 1)
            theirLoss = std::min(theirLoss, w[mask & ~(1u << std::countr_zero(b))]);
        const double p = sum / (c1 * c2);
        w[mask] = p * theirLoss + (1.0 - p) * ourLoss;
    }
}

// Beyond kSubsetPieces pieces (custom armies only) the subsets are too many: each side is
// assumed to lose its weakest piece first (by mean share), which keeps the cost at n1 * n2.
[[nodiscard]] double solveByRank(const Rules& rules, std::span<const Creature> p1,
                                 std::span<const Creature> p2) {
    const int n1 = static_cast<int>(p1.size()), n2 = static_cast<int>(p2.size());
    if (n1 == 0 || n2 == 0) return n1 == n2 ? 0.5 : n2 == 0 ? 1.0 : 0.0;
    std::array<std::array<double, kMaxPieces>, kMaxPieces> share;
    std::array<double, kMaxPieces> row{}, column{};
    for (int i = 0; i < n1; ++i)
        for (int j = 0; j < n2; ++j) {
            share[i][j] = pairShare(rules, p1[i], p2[j]);
            row[i] += share[i][j];
            column[j] += 1.0 - share[i][j];
        }
    // Strongest first; ties (identical creatures, up to rounding) by creature letter.
    const auto order = [](std::span<const Creature> army, const std::array<double, kMaxPieces>& sum,
                          std::array<std::uint8_t, kMaxPieces>& byRank) {
        const int n = static_cast<int>(army.size());
        std::array<std::int64_t, kMaxPieces> key{};
        for (int i = 0; i < n; ++i) {
            key[i] = std::llround(sum[i] * 1e9) * 16 + (15 - static_cast<int>(army[i]));
            byRank[i] = static_cast<std::uint8_t>(i);
        }
        std::stable_sort(byRank.begin(), byRank.begin() + n,
                         [&](std::uint8_t a, std::uint8_t b) { return key[a] > key[b]; });
    };
    std::array<std::uint8_t, kMaxPieces> r1{}, r2{};
    order(p1, row, r1);
    order(p2, column, r2);
    // Rows i - 1 and i of W(i, j) and of the share sums S(i, j) over the i x j strongest.
    std::array<double, kMaxPieces + 1> wPrev{}, wCur{}, sPrev{}, sCur{};
    for (int i = 1; i <= n1; ++i) {
        wCur[0] = 1.0;
        double acc = 0;
        for (int j = 1; j <= n2; ++j) {
            acc += share[r1[i - 1]][r2[j - 1]];
            sCur[j] = sPrev[j] + acc;
            const double p = sCur[j] * kInverse[i * j];
            wCur[j] = i == 1 && j == 1 ? showdownWin(rules, p1[r1[0]], p2[r2[0]])
                                       : wPrev[j] + p * (wCur[j - 1] - wPrev[j]);
        }
        std::swap(wPrev, wCur);
        std::swap(sPrev, sCur);
    }
    return wPrev[n2];
}

// W of the pieces of both sides, player 1's first.
[[nodiscard]] double solve(const Rules& rules, std::span<const Creature> pieces, int n1) {
    const int n = static_cast<int>(pieces.size());
    if (n > kSubsetPieces) return solveByRank(rules, pieces.first(n1), pieces.subspan(n1));
    std::array<double, 1u << kSubsetPieces> w;
    solveSubsets(rules, pieces, n1, std::span(w.data(), 1u << n));
    return w[(1u << n) - 1];
}

// W of every army pair with each creature at most once on the board (each of the 8
// creatures absent, player 1's or player 2's: 3^8 codes), so that the worth of every piece
// is two table reads. Built once per (ratings, dice model), the only parts of the rules the
// combat and showdown odds depend on; immutable once built.
constexpr int kCodes = 6561;
constexpr std::array<int, kCreatureCount> kPow3 = {1, 3, 9, 27, 81, 243, 729, 2187};

class AttritionTable {
  public:
    explicit AttritionTable(const Rules& rules) {
        std::array<std::array<double, kCreatureCount>, kCreatureCount> share{};
        for (int c = 0; c < kCreatureCount; ++c)
            for (int e = 0; e < kCreatureCount; ++e)
                share[c][e] = pairShare(rules, static_cast<Creature>(c), static_cast<Creature>(e));
        // code - digit * 3^c < code: smaller armies come first.
        for (int code = 0; code < kCodes; ++code) {
            std::array<int, kCreatureCount> p1{}, p2{};
            int n1 = 0, n2 = 0;
            for (int c = 0, rest = code; c < kCreatureCount; ++c, rest /= 3) {
                if (rest % 3 == 1) p1[n1++] = c;
                if (rest % 3 == 2) p2[n2++] = c;
            }
            if (n2 == 0 || n1 == 0) {
                win_[code] = n2 > 0 ? 0.0 : n1 > 0 ? 1.0 : 0.5;
            } else if (n1 == 1 && n2 == 1) {
                win_[code] =
                    showdownWin(rules, static_cast<Creature>(p1[0]), static_cast<Creature>(p2[0]));
            } else {
                double sum = 0, theirLoss = 1, ourLoss = 0;
                for (int i = 0; i < n1; ++i) {
                    for (int j = 0; j < n2; ++j)
                        sum += share[p1[i]][p2[j]];
                    ourLoss = std::max(ourLoss, win_[code - kPow3[p1[i]]]);
                }
                for (int j = 0; j < n2; ++j)
                    theirLoss = std::min(theirLoss, win_[code - 2 * kPow3[p2[j]]]);
                const double p = sum / (n1 * n2);
                win_[code] = p * theirLoss + (1.0 - p) * ourLoss;
            }
        }
    }
    [[nodiscard]] double win(int code) const { return win_[code]; }

    [[nodiscard]] static const AttritionTable& of(const Rules& rules) {
        const int ratings = rules.ruleset() == Ruleset::Holochess ? 1 : 0;
        return kBuilders[ratings * 4 + static_cast<int>(rules.dice())](rules);
    }

  private:
    template <int Key>
    static const AttritionTable& build(const Rules& rules) {
        static const AttritionTable table(rules);
        return table;
    }
    static constexpr std::array<const AttritionTable& (*)(const Rules&), 8> kBuilders = {
        &build<0>, &build<1>, &build<2>, &build<3>, &build<4>, &build<5>, &build<6>, &build<7>};

    std::array<double, kCodes> win_{};
};

// The pieces on the board as the model sees them, player 1's first.
struct Pieces {
    std::array<Creature, kMaxPieces> creature{};
    int n = 0, n1 = 0;
};

Pieces piecesOf(const Position& pos) {
    Pieces out;
    for (const Player p : {Player::One, Player::Two}) {
        for (const Cell c : pos.pieces(p))
            out.creature[out.n++] = pos.at(c).creature();
        if (p == Player::One) out.n1 = out.n;
    }
    return out;
}

// Two summaries of the pairs on the board (explain, wdl): the mean share (the chance that
// the next kill is player 2's piece) and the mean chance that an exchange of two attacks
// kills a piece.
struct PairStats {
    double nextKill = 0.5;
    double decisive = 1;
};

PairStats pairStats(const Position& pos) {
    const Pieces ps = piecesOf(pos);
    PairStats out;
    if (ps.n1 == 0 || ps.n1 == ps.n) return out;
    double share = 0, decisive = 0;
    const Rules& rules = pos.rules();
    for (int i = 0; i < ps.n1; ++i)
        for (int j = ps.n1; j < ps.n; ++j) {
            share += pairShare(rules, ps.creature[i], ps.creature[j]);
            const auto& f = rules.combat(ps.creature[i], ps.creature[j]).probability;
            const auto& b = rules.combat(ps.creature[j], ps.creature[i]).probability;
            decisive += f[0] + f[3] + b[0] + b[3];
        }
    const double pairs = ps.n1 * (ps.n - ps.n1);
    out.nextKill = share / pairs;
    out.decisive = 0.5 * decisive / pairs;
    return out;
}

// ---------------------------------------------------------------------------------------
// The board around the pieces.

// kBall[c][r]: the cells within r steps of c on the empty board.
constexpr std::array<std::array<Bitboard, 4>, Cell::kCount> kBall = [] {
    std::array<std::array<Bitboard, 4>, Cell::kCount> t{};
    for (int c = 0; c < Cell::kCount; ++c) {
        t[c][0] = Bitboard::of(Cell(c));
        for (int r = 1; r < 4; ++r)
            t[c][r] = t[c][r - 1] | board::neighbours(t[c][r - 1]);
    }
    return t;
}();

// The neighbours of a ring cell in a fixed order (ring before, ring after, the other ring,
// and for an inner cell the centre), so that which of them are free is a 3- or 4-bit index.
// An outer cell's fourth neighbour is bit 31, never set in a bitboard.
constexpr std::array<std::array<std::uint8_t, 4>, Cell::kCount> kNeighbourOrder = [] {
    std::array<std::array<std::uint8_t, 4>, Cell::kCount> t{};
    for (int i = 1; i < Cell::kCount; ++i) {
        const Cell c(i);
        const int ray = c.ray();
        const int before = (ray + 10) % 12 + 1, after = ray % 12 + 1;
        const bool inner = c.orbit() == Orbit::Inner;
        t[i][0] = static_cast<std::uint8_t>(inner ? Cell::inner(before).index()
                                                  : Cell::outer(before).index());
        t[i][1] = static_cast<std::uint8_t>(inner ? Cell::inner(after).index()
                                                  : Cell::outer(after).index());
        t[i][2] =
            static_cast<std::uint8_t>(inner ? Cell::outer(ray).index() : Cell::inner(ray).index());
        t[i][3] = inner ? 0 : 31;
    }
    return t;
}();

[[nodiscard]] constexpr int freePattern(int cell, std::uint32_t free) {
    const auto& n = kNeighbourOrder[cell];
    return static_cast<int>(((free >> n[0]) & 1u) | (((free >> n[1]) & 1u) << 1) |
                            (((free >> n[2]) & 1u) << 2) | (((free >> n[3]) & 1u) << 3));
}

// The same patterns for every cell at once: bit c of plane k is set when cell c's k-th
// neighbour (kNeighbourOrder) is empty. Made once per evaluation, read per piece by shifts
// alone.
struct FreePlanes {
    std::uint32_t before, after, across, centre;

    constexpr explicit FreePlanes(Bitboard empty) {
        const std::uint32_t e = empty.bits();
        before = board::ringNext(empty).bits();  // bit c: the cell before c is empty
        after = board::ringPrev(empty).bits();
        across =
            ((e & Bitboard::innerRing().bits()) << 12) | ((e & Bitboard::outerRing().bits()) >> 12);
        centre = (e & 1u) ? Bitboard::innerRing().bits() : 0u;
    }
    [[nodiscard]] constexpr int pattern(int cell) const {
        return static_cast<int>(((before >> cell) & 1u) | (((after >> cell) & 1u) << 1) |
                                (((across >> cell) & 1u) << 2) | (((centre >> cell) & 1u) << 3));
    }
};

// Patterns are ORs of single-cell patterns, so agreeing on every single empty cell is
// agreeing everywhere.
static_assert([] {
    for (int empty = 0; empty < Cell::kCount; ++empty) {
        const FreePlanes planes(Bitboard::of(Cell(empty)));
        for (int c = 1; c < Cell::kCount; ++c)
            if (planes.pattern(c) != freePattern(c, 1u << empty)) return false;
    }
    return true;
}());

// For a piece on a ring cell with movement m (1..3) and a pattern of free neighbours: the
// union of kBall[first][m - 1] (where one move can end, before removing occupied cells) and
// of kBall[first][m] (where an attack after that move can land) over the free first steps.
// The centre, with 12 neighbours, is done by hand.
struct MoveArea {
    Bitboard reach;
    Bitboard range;
};
constexpr auto kMoveArea = [] {
    std::array<std::array<std::array<MoveArea, 16>, 3>, Cell::kCount> t{};
    for (int c = 1; c < Cell::kCount; ++c)
        for (int m = 1; m <= 3; ++m)
            for (int pattern = 0; pattern < 16; ++pattern) {
                MoveArea area;
                for (int k = 0; k < 4; ++k) {
                    const int first = kNeighbourOrder[c][k];
                    if (first == 31 || !(pattern & (1 << k))) continue;
                    area.reach |= kBall[first][m - 1];
                    area.range |= kBall[first][m];
                }
                t[c][m - 1][pattern] = area;
            }
    return t;
}();

// Where a set of cells can attack under the rules' restrictions: the union of
// movegen::attackTargets over the set, for targets anywhere.
[[nodiscard]] Bitboard restrictedRange(Bitboard from, const Rules& rules) {
    if (rules.safeOuterOrbit()) from &= ~Bitboard::outerRing();
    Bitboard range = board::neighbours(from);
    if (rules.kingOfTheCentre())
        range = (range & Bitboard::centre()) |
                (from.has(Cell::centre()) ? Bitboard::innerRing() : Bitboard());
    if (rules.safeOuterOrbit()) range &= ~Bitboard::outerRing();
    return range;
}

// Who may attack what, and what each attack is worth (in changes of player 1's attrition
// win chance, seen from the attacker).
struct AttackSummary {
    double bestDirect = 0;  // best and second-best positive in-place attack
    double secondDirect = 0;
    double second = 0;     // running second best
    double exposed = 0;    // every profitable in-place attack, summed
    double bestReach = 0;  // best positive attack after one move
    double bestAny = -1;   // best attack of any sign, in place or after a move (forced play)
    bool anyDirect = false;
    bool anyReach = false;
    int attacks = 0;
};

// What explain() prints beside the terms.
struct Details {
    int n1 = 0, n2 = 0;
    double win = 0.5;  // attrition win chance of player 1
    std::array<int, 2> attacks{};
    std::array<int, 2> cells{};
    double quietScale = 1;
    int actionsToDraw = kQuietCap;
    bool holdWin = false;
    std::array<double, 2> hide{};
};

struct Scores {
    std::array<std::array<double, 2>, kTermCount> term{};
    Details details;

    [[nodiscard]] double raw() const {
        double r = 0;
        for (const auto& t : term)
            r += t[0] - t[1];
        return r;
    }
};

}  // namespace

// Custom armies' material by army: a direct-mapped table keyed by the count of each
// (player, creature) and by what the model depends on (ratings and dice).
struct Memo::Impl {
    struct Entry {
        std::uint64_t army = ~std::uint64_t{0};
        int rulesKey = -1;
        double win = 0;
        std::array<double, 2 * kCreatureCount> worth{};  // by player * 8 + creature
    };
    std::array<Entry, 256> entries;
    // The standard-army material of recent evaluations: a search's leaves nearly all share
    // a few armies (the one at the root, and those after a kill at a chance node), and
    // reading them back skips the table reads (a table larger than L1) and a logarithm.
    // Direct-mapped, keyed by the army code and the table it was read from.
    struct Army {
        int code = -1;
        const void* table = nullptr;
        double win = 0.5, logitWin = 0, slope = 2;
        std::array<double, 2 * kCreatureCount> worth{};  // by player * 8 + creature
    };
    std::array<Army, 8> armies;
    [[nodiscard]] Army& armySlot(int code) {
        return armies[(static_cast<std::uint32_t>(code) * 0x9E3779B1u) >> 29];
    }
};

Memo::Memo() : impl_(std::make_unique<Impl>()) {}
Memo::~Memo() = default;

namespace {

// Everything about one position that the terms share. Per-cell arrays are indexed by the
// cell of a piece and filled for occupied cells only, never zeroed.
class Evaluator {
  public:
    explicit Evaluator(const Position& pos, Memo::Impl* memo = nullptr)
        : pos_(pos), rules_(pos.rules()), empty_(pos.emptyCells()), planes_(empty_), memo_(memo) {
        restricted_ = rules_.safeOuterOrbit() || rules_.kingOfTheCentre();
        int code = 0;
        std::uint32_t seen = 0;
        bool unique = true;
        for (const Player p : {Player::One, Player::Two}) {
            all_[index(p)] = pos.pieces(p);
            const int digit = p == Player::One ? 1 : 2;
            for (const Cell c : all_[index(p)]) {
                const Creature creature = pos.at(c).creature();
                gather(c, creature);
                mobility_[index(p)] += std::min(std::popcount(reach_[c.index()]), kMobilityCap);
                const std::uint32_t bit = 1u << static_cast<int>(creature);
                unique = unique && !(seen & bit);
                seen |= bit;
                code += digit * kPow3[static_cast<int>(creature)];
            }
        }
        if (unique) {
            const AttritionTable& table = AttritionTable::of(rules_);
            Memo::Impl::Army* slot = memo_ ? &memo_->armySlot(code) : nullptr;
            if (slot && slot->code == code && slot->table == &table) {
                const Memo::Impl::Army& a = *slot;
                win_ = a.win;
                logitWin_ = a.logitWin;
                slope_ = a.slope;
                for (const Player p : {Player::One, Player::Two})
                    for (const Cell c : all_[index(p)])
                        worth_[c.index()] = a.worth[index(p) * kCreatureCount +
                                                    static_cast<int>(creature_[c.index()])];
                return;
            }
            win_ = table.win(code);
            for (const Player p : {Player::One, Player::Two}) {
                const int digit = p == Player::One ? 1 : 2;
                for (const Cell c : all_[index(p)]) {
                    const int without =
                        code - digit * kPow3[static_cast<int>(creature_[c.index()])];
                    worth_[c.index()] = sign(p) * (win_ - table.win(without));
                }
            }
            setSlopes();
            if (slot) {
                Memo::Impl::Army& a = *slot;
                a.code = code;
                a.table = &table;
                a.win = win_;
                a.logitWin = logitWin_;
                a.slope = slope_;
                for (const Player p : {Player::One, Player::Two})
                    for (const Cell c : all_[index(p)])
                        a.worth[index(p) * kCreatureCount +
                                static_cast<int>(creature_[c.index()])] = worth_[c.index()];
            }
        } else {
            customWorth();
            setSlopes();
        }
    }

    // Terms of a decision point where `mover` has `actions` left, or of an attack whose
    // outcome is due (`pending`: then the pair is left out of the attack lists).
    void score(Scores& s, Player mover, int actions, bool pending) {
        Details& d = s.details;
        d.n1 = all_[0].count();
        d.n2 = all_[1].count();
        d.win = win_;
        s.term[kMaterial] = {std::max(logitWin_, 0.0), std::max(-logitWin_, 0.0)};
        if (pending) pendingAttack(s);

        const Player waiter = opponent(mover);
        // Attacks after a move count for the waiting side (its next turn has two actions)
        // and for the mover with two actions left; CentreWin wants to know of them always.
        const bool allReach = rules_.centreWin() > 0;
        const auto withReach = [&](Player p) { return allReach || p == waiter || actions >= 2; };
        const std::array<AttackSummary, 2> attacks = {
            collectAttacks(Player::One, withReach(Player::One), pending),
            collectAttacks(Player::Two, withReach(Player::Two), pending)};

        // Threats: what each side can take, in the order it gets to act.
        const AttackSummary& m = attacks[index(mover)];
        double now = m.bestDirect;
        if (actions >= 2)
            now =
                std::max(m.bestDirect + kSecondAttack * m.secondDirect, kReachAttack * m.bestReach);
        const AttackSummary& w = attacks[index(waiter)];
        const double next =
            std::max(w.bestDirect + kSecondAttack * w.secondDirect, kReachAttack * w.bestReach);
        const double later = actions >= 2 ? kLaterAfterTwoActions : kLaterAfterOneAction;
        s.term[kThreats][index(mover)] = exactGainLogit(mover, now);
        s.term[kThreats][index(waiter)] = later * exactGainLogit(waiter, next);
        d.attacks = {attacks[0].attacks, attacks[1].attacks};

        // Exposure: every attack the enemy can make in place with profit, not just the best.
        for (const Player p : {Player::One, Player::Two})
            s.term[kExposureTerm][index(p)] =
                -kExposure * gainLogit(attacks[index(opponent(p))].exposed);

        // Mobility, and the centre when every attack goes through it.
        for (const Player p : {Player::One, Player::Two}) {
            const int cells = mobility_[index(p)];
            d.cells[index(p)] = cells;
            s.term[kMobility][index(p)] = kMobilityPerCell * cells;
            if (rules_.kingOfTheCentre() && all_[index(p)].has(Cell::centre()))
                s.term[kCentreTerm][index(p)] =
                    kCentreKing * (1.0 + kCentreWorth * std::max(0.0, worth_[0]));
        }

        if (rules_.safeOuterOrbit()) safeRing(s);
        if (rules_.centreWin() > 0) hold(s, mover, actions, attacks);
        // The draw can come before anyone can attack: the mover acts alone until it, with an
        // attack in place, or (two actions away) a move and an attack.
        drawClock(s, actions, m.anyDirect, actions >= 2 && m.anyReach);
    }

  private:
    void setSlopes() {
        logitWin_ = logit(win_);
        slope_ = 0.5 / std::max(win_ * (1.0 - win_), kSlopeFloor);
    }

    void gather(Cell c, Creature creature) {
        const int i = c.index();
        const int steps = rules_.ratings(creature).movement;
        const Bitboard free = board::adjacent(c) & empty_;
        Bitboard reach, range;
        if (steps >= 1 && steps <= 3 && i != 0) {
            const MoveArea& area = kMoveArea[i][steps - 1][planes_.pattern(i)];
            reach = area.reach;
            range = area.range;
        } else if (steps >= 1 && steps <= 3) {
            for (const Cell first : free) {
                reach |= kBall[first.index()][steps - 1];
                range |= kBall[first.index()][steps];
            }
        } else if (steps > 3) {
            reach = movegen::destinations(c, steps, empty_, rules_.centreStraight());
            range = board::neighbours(reach);
        }
        reach &= empty_;
        if (restricted_) range = restrictedRange(reach, rules_);
        creature_[i] = creature;
        free_[i] = free.bits();
        reach_[i] = reach.bits();
        range_[i] = range.bits();
    }

    // Custom armies with a creature twice: the model solved on the spot, once for all
    // subsets when there are few pieces, else once per piece.
    void customWorth() {
        std::array<Creature, kMaxPieces> pieces{};
        std::array<Cell, kMaxPieces> cells{};
        int n = 0;
        // The army as 16 counts of 4 bits; armies with a count over 15 are not memoised.
        std::uint64_t army = 0;
        bool memoisable = memo_ != nullptr;
        for (const Player p : {Player::One, Player::Two}) {
            const int first = n;
            for (const Cell c : all_[index(p)]) {
                cells[n] = c;
                pieces[n++] = creature_[c.index()];
                const int shift =
                    4 * (index(p) * kCreatureCount + static_cast<int>(creature_[c.index()]));
                memoisable = memoisable && ((army >> shift) & 15) != 15;
                army += std::uint64_t{1} << shift;
            }
            // Each side's pieces by creature: the model's floating-point result then depends
            // on the army alone, not on where its pieces stand, so remembering it is exact.
            for (int i = first + 1; i < n; ++i)
                for (int j = i; j > first && pieces[j] < pieces[j - 1]; --j) {
                    std::swap(pieces[j], pieces[j - 1]);
                    std::swap(cells[j], cells[j - 1]);
                }
        }
        const int rulesKey =
            (rules_.ruleset() == Ruleset::Holochess ? 4 : 0) + static_cast<int>(rules_.dice());
        Memo::Impl::Entry* entry = nullptr;
        if (memoisable) {
            entry = &memo_->entries[(army * 0x9E3779B97F4A7C15ull) >> 56];
            if (entry->army == army && entry->rulesKey == rulesKey) {
                win_ = entry->win;
                for (int k = 0; k < n; ++k)
                    worth_[cells[k].index()] =
                        entry->worth[index(pos_.at(cells[k]).owner()) * kCreatureCount +
                                     static_cast<int>(pieces[k])];
                return;
            }
        }
        // Solved, and remembered: pieces of one player and creature are worth the same (the
        // first of them stands for all, so rounding cannot tell them apart).
        solveCustom(pieces, cells, n);
        const int n1 = all_[0].count();
        for (int k = 1; k < n; ++k)
            if (pieces[k] == pieces[k - 1] && (k < n1) == (k - 1 < n1))
                worth_[cells[k].index()] = worth_[cells[k - 1].index()];
        if (entry) {
            entry->army = army;
            entry->rulesKey = rulesKey;
            entry->win = win_;
            for (int k = 0; k < n; ++k)
                entry->worth[index(pos_.at(cells[k]).owner()) * kCreatureCount +
                             static_cast<int>(pieces[k])] = worth_[cells[k].index()];
        }
    }

    void solveCustom(const std::array<Creature, kMaxPieces>& pieces,
                     const std::array<Cell, kMaxPieces>& cells, int n) {
        const int n1 = all_[0].count();
        const auto all = std::span<const Creature>(pieces.data(), n);
        const auto side = [&](int k) { return k < n1 ? Player::One : Player::Two; };
        if (n <= kSubsetPieces) {
            std::array<double, 1u << kSubsetPieces> w;
            solveSubsets(rules_, all, n1, std::span(w.data(), 1u << n));
            const std::uint32_t full = (1u << n) - 1;
            win_ = w[full];
            for (int k = 0; k < n; ++k)
                worth_[cells[k].index()] = sign(side(k)) * (win_ - w[full & ~(1u << k)]);
            return;
        }
        win_ = solve(rules_, all, n1);
        for (int k = 0; k < n; ++k) {
            std::array<Creature, kMaxPieces> rest{};
            int m = 0;
            for (int i = 0; i < n; ++i)
                if (i != k) rest[m++] = pieces[i];
            const int restN1 = k < n1 ? n1 - 1 : n1;
            worth_[cells[k].index()] =
                sign(side(k)) * (win_ - solve(rules_, std::span(rest.data(), m), restN1));
        }
    }

    // The gain, in attrition win chance, of the attack from `from` on `to`, seen from the
    // attacker: the odds of killing and of being killed, a blocked push that kills
    // (BlockedPush) counted as a kill.
    [[nodiscard]] double attackGain(Cell from, Cell to, bool defenderBoxed,
                                    bool attackerBoxed) const {
        const auto& pr = rules_.combat(creature_[from.index()], creature_[to.index()]).probability;
        const BlockedPush policy = rules_.blockedPush();
        double kill = pr[static_cast<int>(Outcome::Kill)];
        double counterKill = pr[static_cast<int>(Outcome::CounterKill)];
        if (defenderBoxed && policy != BlockedPush::Stay)
            kill += pr[static_cast<int>(Outcome::Push)];
        if (attackerBoxed && policy == BlockedPush::Kill)
            counterKill += pr[static_cast<int>(Outcome::CounterPush)];
        return kill * worth_[to.index()] - counterKill * worth_[from.index()];
    }

    // The pending attack valued by its outcomes: the expected attrition win chance after
    // them (the material after each outcome, weighted by its odds), as an exact logit change.
    void pendingAttack(Scores& s) const {
        const Cell from = pos_.pendingFrom(), to = pos_.pendingTo();
        const Player attacker = pos_.at(from).owner();
        s.term[kPending][index(attacker)] = exactGainLogit(
            attacker, attackGain(from, to, free_[to.index()] == 0, free_[from.index()] == 0));
    }

    // A change of the attrition win chance worth `gain` to its player, in logits: the
    // slope of the logit at the current chance, 1 / (2 W (1 - W)), capped where the game is
    // decided anyway. A first-order change, cheap and the same for both players.
    [[nodiscard]] double gainLogit(double gain) const { return slope_ * gain; }

    // The same exactly: the logit of the chance after the gain less the logit now. Large
    // gains (a kill that leaves a won showdown) need it; the slope overstates them far from
    // an even game.
    [[nodiscard]] double exactGainLogit(Player p, double gain) const {
        if (gain == 0) return 0;
        return sign(p) * (logit(win_ + sign(p) * gain) - logitWin_);
    }

    // Every attack of p's pieces, in place and (withReach) after a move.
    // Returned by value, accumulated in a local: through a reference the compiler must
    // assume each store may change the worths read next, and keeps every maximum in memory.
    [[nodiscard]] AttackSummary collectAttacks(Player p, bool withReach, bool pending) const {
        const Bitboard enemies = all_[index(opponent(p))];
        const BlockedPush policy = rules_.blockedPush();
        const bool pushKills = policy != BlockedPush::Stay;
        AttackSummary sum;
        for (const Cell from : all_[index(p)]) {
            const int f = from.index();
            Bitboard direct = movegen::attackTargets(from, enemies, rules_);
            // The attack whose outcome is due is not there to be made again.
            if (pending && (from == pos_.pendingFrom() || from == pos_.pendingTo()))
                direct &= ~Bitboard::of(pos_.pendingFrom()) & ~Bitboard::of(pos_.pendingTo());
            const Bitboard reach = withReach ? Bitboard(range_[f]) & enemies & ~direct : Bitboard();
            const auto* row = &rules_.combat(creature_[f], Creature::Savrip);
            const double worth = worth_[f];
            for (const Cell to : direct) {
                const int t = to.index();
                const auto& pr = row[static_cast<int>(creature_[t])].probability;
                double kill = pr[static_cast<int>(Outcome::Kill)];
                double counterKill = pr[static_cast<int>(Outcome::CounterKill)];
                if (pushKills && free_[t] == 0) kill += pr[static_cast<int>(Outcome::Push)];
                if (policy == BlockedPush::Kill && free_[f] == 0)
                    counterKill += pr[static_cast<int>(Outcome::CounterPush)];
                const double g = kill * worth_[t] - counterKill * worth;
                sum.second = std::max(sum.second, std::min(sum.bestDirect, g));
                sum.bestDirect = std::max(sum.bestDirect, g);
                sum.bestAny = std::max(sum.bestAny, g);
                sum.exposed += std::max(g, 0.0);
            }
            for (const Cell to : reach) {
                const int t = to.index();
                const auto& pr = row[static_cast<int>(creature_[t])].probability;
                double kill = pr[static_cast<int>(Outcome::Kill)];
                // The attacker moves into one of the target's free cells: with one left, the
                // target is boxed in when the attack comes.
                if (pushKills && std::popcount(free_[t]) == 1)
                    kill += pr[static_cast<int>(Outcome::Push)];
                const double g =
                    kill * worth_[t] - pr[static_cast<int>(Outcome::CounterKill)] * worth;
                sum.bestReach = std::max(sum.bestReach, g);
                sum.bestAny = std::max(sum.bestAny, g);
            }
            sum.attacks += direct.count() + reach.count();
            sum.anyDirect |= direct.any();  // no branches: this runs for every piece
            sum.anyReach |= reach.any();
        }
        sum.secondDirect = sum.second;
        return sum;
    }

    // SafeOuterOrbit: a piece on the outer ring can be neither attacked nor attack, so the
    // side behind can hide there and play for the quiet draw. The lead shrinks with the share
    // of the trailing side's pieces that are hidden (or one move from hiding).
    void safeRing(Scores& s) const {
        for (const Player p : {Player::One, Player::Two}) {
            double hidden = 0;
            for (const Cell c : all_[index(p)])
                hidden += c.isOuter()                                                   ? 1.0
                          : (Bitboard(reach_[c.index()]) & Bitboard::outerRing()).any() ? 0.5
                                                                                        : 0.0;
            const int n = all_[index(p)].count();
            s.details.hide[index(p)] = n > 0 ? hidden * kInverse[n] : 0;
        }
        const double lead = s.term[kMaterial][0] - s.term[kMaterial][1];
        const Player leader = lead >= 0 ? Player::One : Player::Two;
        s.term[kSafeRingTerm][index(leader)] =
            -kSafeRing * s.details.hide[index(opponent(leader))] * std::abs(lead);
    }

    // CentreWin N: at the end of its own turn a player on `a` counts one more, and N wins;
    // any attack on one of its pieces resets the count.
    void hold(Scores& s, Player mover, int actions,
              const std::array<AttackSummary, 2>& attacks) const {
        const auto n = static_cast<std::uint32_t>(rules_.centreWin());
        const Player waiter = opponent(mover);
        for (const Player p : {Player::One, Player::Two}) {
            const bool onA = all_[index(p)].has(Cell::centre());
            const std::uint32_t next = pos_.hold(p) + 1;
            double value = 0;
            bool wins = false;
            if (p == mover) {
                bool reachesA = onA;
                for (const Cell c : all_[index(p)])
                    reachesA = reachesA || Bitboard(reach_[c.index()]).has(Cell::centre());
                if (!reachesA) continue;
                // Nothing can stop the count during the player's own turn.
                if (next >= n) {
                    wins = true;
                } else {
                    const AttackSummary& w = attacks[index(waiter)];
                    const bool contested = w.anyDirect || w.anyReach;
                    value = kHoldStep * next / n * (contested ? kHoldContested : 1.0);
                }
            } else {
                if (!onA) continue;
                const AttackSummary& m = attacks[index(mover)];
                const bool contested = m.anyDirect || (actions >= 2 && m.anyReach);
                if (next >= n && !contested) {
                    wins = true;
                } else if (next >= n) {
                    // The mover must attack something now, however bad its best attack is.
                    value = kHoldStep * kHoldContested + gainLogit(std::max(0.0, -m.bestAny));
                } else {
                    value = kHoldStep * next / n * (contested ? kHoldContested : 1.0);
                }
            }
            if (wins) {
                double rest = 0;
                for (int t = 0; t < kTermCount; ++t)
                    if (t != kHold) rest += s.term[t][index(p)] - s.term[t][index(opponent(p))];
                value = std::max(0.0, kHoldWin + kHoldWinRest * rest - rest);
                s.details.holdWin = true;
            }
            s.term[kHold][index(p)] = value;
        }
    }

    // The quiet draw (RULES §8.4): as it nears, every term shrinks toward a draw, and it is
    // certain when it comes within the mover's actions and the mover cannot attack by then.
    // Depends on the quiet counter only through min(actions left before the draw, kQuietCap).
    void drawClock(Scores& s, int actions, bool attackInPlace, bool attackAfterMove) const {
        int left = kQuietCap;
        if (const int drawTurns = rules_.drawTurns(); drawTurns > 0) {
            const auto limit = 2 * static_cast<std::int64_t>(drawTurns);
            left = static_cast<int>(std::clamp<std::int64_t>(
                limit - static_cast<std::int64_t>(pos_.quiet()), 0, kQuietCap));
        }
        double scale = 1;
        if (left < kQuietHorizon) {
            const double far = 1.0 - static_cast<double>(left) / kQuietHorizon;
            scale = 1.0 - far * far;
        }
        // Only an attack resets the counter: with one action before the draw an attack in
        // place is needed; with two, a move and an attack will do.
        if (left <= actions && !attackInPlace && (left < 2 || !attackAfterMove)) scale = 0;
        s.details.actionsToDraw = left;
        s.details.quietScale = scale;
        if (scale == 1) return;
        for (const int p : {0, 1}) {
            double sum = 0;
            for (int t = 0; t < kDrawClock; ++t)
                sum += s.term[t][p];
            s.term[kDrawClock][p] = -(1.0 - scale) * sum;
        }
    }

    const Position& pos_;
    const Rules& rules_;
    Bitboard empty_;
    FreePlanes planes_;
    bool restricted_ = false;
    std::array<Bitboard, 2> all_;
    std::array<int, 2> mobility_{};  // cells each side's pieces can move to, capped per piece
    std::array<Creature, Cell::kCount> creature_;
    std::array<double, Cell::kCount> worth_;  // what losing the piece costs its owner, in W
    // Where one move can end, roughly: the first step exact, then the empty-board cells
    // within `movement` steps (a superset of the exact destinations, which need simple paths
    // of exactly that length, unblocked, straight through `a` under CentreStraight).
    std::array<std::uint32_t, Cell::kCount> reach_;
    std::array<std::uint32_t, Cell::kCount> range_;  // where an attack after that move lands
    std::array<std::uint32_t, Cell::kCount> free_;   // empty neighbours
    double win_ = 0.5;
    double logitWin_ = 0;
    double slope_ = 2;
    Memo::Impl* memo_;
};

// A finished game: the exact result, as a material logit.
void scoreOver(const Position& pos, Scores& s) {
    const double value = pos.winProbability(Player::One) - pos.winProbability(Player::Two);
    const double l = logit(0.5 + 0.5 * value);
    s.term[kMaterial] = {std::max(l, 0.0), std::max(-l, 0.0)};
    s.details.win = 0.5 + 0.5 * value;
}

// The scores of a position that is over, at a decision, or with an outcome due. A
// placement is scored here only for its draw share (wdl): as the decision after it.
// With `calibrate` false the terms of a game not over are left unscaled (the caller scales
// their sum instead, which is exact while kCalibration is a power of two).
void scoreAt(const Position& pos, Scores& s, Memo::Impl* memo = nullptr, bool calibrate = true) {
    if (pos.isOver()) return scoreOver(pos, s);
    Evaluator e(pos, memo);
    if (pos.phase() == Phase::Outcome) {
        // After the outcome the attacker's turn goes on with one action fewer.
        const int left = pos.actionsLeft() - 1;
        const Player mover = left > 0 ? pos.sideToMove() : opponent(pos.sideToMove());
        e.score(s, mover, left > 0 ? left : 2, true);
    } else {
        e.score(s, pos.sideToMove(), pos.actionsLeft(), false);
    }
    if (!calibrate) return;
    for (auto& t : s.term)
        t = {kCalibration * t[0], kCalibration * t[1]};
}

[[nodiscard]] Position bestPlacement(const Position& pos, double& value, Event* chosen = nullptr,
                                     Memo::Impl* memo = nullptr);

[[nodiscard]] double valueOf(const Position& pos, Memo::Impl* memo = nullptr) {
    if (!pos.isOver() && pos.phase() == Phase::Placement) {
        double value = 0;
        (void)bestPlacement(pos, value, nullptr, memo);
        return value;
    }
    Scores s;
    if (pos.isOver()) {
        scoreOver(pos, s);
        return squash(s.raw());
    }
    scoreAt(pos, s, memo, false);
    return squash(kCalibration * s.raw());
}

// The position after the placement the decider likes best, its value and the placement.
Position bestPlacement(const Position& pos, double& value, Event* chosen, Memo::Impl* memo) {
    EventList list;
    pos.generate(list);
    const double side = sign(pos.decider());
    Position best = pos;
    bool first = true;
    for (const Event e : list) {
        Position child = pos;
        child.apply(e);
        const double v = valueOf(child, memo);
        if (first || side * v > side * value) {
            value = v;
            best = child;
            first = false;
            if (chosen) *chosen = e;
        }
    }
    return best;
}

std::string fixed(double v, int decimals = 3) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

}  // namespace

double evaluate(const Position& pos) {
    return valueOf(pos);
}

double evaluate(const Position& pos, Memo& memo) {
    return valueOf(pos, &memo.impl());
}

Breakdown explain(const Position& pos) {
    Breakdown b;
    std::string placement;
    Position at = pos;
    if (!pos.isOver() && pos.phase() == Phase::Placement) {
        double value = 0;
        Event chosen;
        at = bestPlacement(pos, value, &chosen);
        placement = "after the decider's best placement, " + chosen.token();
    }
    Scores s;
    scoreAt(at, s);
    const Details& d = s.details;
    for (int t = 0; t < kTermCount; ++t) {
        Term term{kTermNames[t], s.term[t][0], s.term[t][1], ""};
        switch (t) {
            case kMaterial:
                term.note = at.isOver() ? "game over, exact result"
                                        : std::to_string(d.n1) + " v " + std::to_string(d.n2) +
                                              ", attrition win " + fixed(d.win) +
                                              ", next kill theirs " + fixed(pairStats(at).nextKill);
                if (!placement.empty()) term.note += "; " + placement;
                break;
            case kPending:
                if (at.phase() == Phase::Outcome)
                    term.note = Event::attack(at.pendingFrom(), at.pendingTo()).token();
                break;
            case kThreats:
                term.note = std::to_string(d.attacks[0]) + " / " + std::to_string(d.attacks[1]) +
                            " attacks in reach";
                break;
            case kMobility:
                term.note = std::to_string(d.cells[0]) + " / " + std::to_string(d.cells[1]) +
                            " cells in one move's reach";
                break;
            case kSafeRingTerm:
                if (at.rules().safeOuterOrbit())
                    term.note = "hidden " + fixed(d.hide[0], 2) + " / " + fixed(d.hide[1], 2);
                break;
            case kHold:
                if (at.rules().centreWin() > 0)
                    term.note = "hold " + std::to_string(at.hold(Player::One)) + "/" +
                                std::to_string(at.hold(Player::Two)) + " of " +
                                std::to_string(at.rules().centreWin()) +
                                (d.holdWin ? ", unstoppable" : "");
                break;
            case kDrawClock:
                term.note = std::to_string(d.actionsToDraw) + " actions to the quiet draw" +
                            (d.actionsToDraw >= kQuietCap ? " or more" : "") + ", scale " +
                            fixed(d.quietScale);
                break;
            default:
                break;
        }
        b.terms.push_back(std::move(term));
    }
    b.raw = s.raw();
    b.value = squash(b.raw);
    return b;
}

double attritionWin(const Position& pos) {
    const Pieces ps = piecesOf(pos);
    return solve(pos.rules(), std::span(ps.creature.data(), ps.n), ps.n1);
}

std::array<int, 3> wdl(const Position& pos, double value) {
    value = std::clamp(value, -1.0, 1.0);
    const int v = static_cast<int>(std::lround(1000 * value));
    double drawShare = 0;
    if (pos.result() == Result::Draw) {
        drawShare = 1;
    } else if (!pos.isOver()) {
        Scores s;
        scoreAt(pos, s);
        const Details& d = s.details;
        // Three ways to a draw: the quiet counter runs out; the side behind hides on a safe
        // outer ring; the pieces left can hardly kill each other.
        const double quiet = 1.0 - d.quietScale;
        const Player behind = value >= 0 ? Player::Two : Player::One;
        const double hide = kDrawByHiding * d.hide[index(behind)];
        const double decisive = pairStats(pos).decisive;
        const double stalemate = kDrawByStalemate * std::max(0.0, 1.0 - decisive / kDecisive);
        drawShare = 1.0 - (1.0 - quiet) * (1.0 - hide) * (1.0 - stalemate);
    }
    const int room = 1000 - std::abs(v);
    int draw = std::clamp(static_cast<int>(std::lround(drawShare * room)), 0, room);
    if ((1000 - draw + v) % 2 != 0) draw += draw < room ? 1 : -1;
    const int win = (1000 - draw + v) / 2;
    return {win, draw, 1000 - draw - win};
}

}  // namespace dejarik::eval
