#include "attrition.h"

#include <bit>
#include <cmath>
#include <cstdint>

#include "eval.h"

namespace dejarik::eval {

namespace {

// Beyond kSubsetPieces pieces (custom armies only) the subsets are too many: each side is
// assumed to lose its weakest piece first (by mean share), which keeps the cost at n1 * n2.
[[nodiscard]] double solveByRank(const Rules& rules, std::span<const Creature> p1,
                                 std::span<const Creature> p2) {
    const int n1 = static_cast<int>(p1.size()), n2 = static_cast<int>(p2.size());
    const auto showdown = [&] { return showdownWin(rules, p1[0], p2[0]); };
    if (n1 == 0 || n2 == 0) return attrition(n1, n2, showdown, [] { return Losses{}; });
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
            key[i] = std::llround(sum[i] * 1e9) * 32 + (31 - static_cast<int>(army[i]));
            byRank[i] = static_cast<std::uint8_t>(i);
        }
        std::stable_sort(byRank.begin(), byRank.begin() + n,
                         [&](std::uint8_t a, std::uint8_t b) { return key[a] > key[b]; });
    };
    std::array<std::uint8_t, kMaxPieces> r1{}, r2{};
    order(p1, row, r1);
    order(p2, column, r2);
    const auto rankedShowdown = [&] { return showdownWin(rules, p1[r1[0]], p2[r2[0]]); };
    // Rows i - 1 and i of W(i, j) and of the share sums S(i, j) over the i x j strongest; row
    // 0 is W(0, j) = 0. The loser's choice is its weakest piece: W(i, j - 1) or W(i - 1, j).
    std::array<double, kMaxPieces + 1> wPrev{}, wCur{}, sPrev{}, sCur{};
    for (int i = 1; i <= n1; ++i) {
        wCur[0] = attrition(i, 0, rankedShowdown, [] { return Losses{}; });
        double acc = 0;
        for (int j = 1; j <= n2; ++j) {
            acc += share[r1[i - 1]][r2[j - 1]];
            sCur[j] = sPrev[j] + acc;
            wCur[j] = attrition(i, j, rankedShowdown, [&] {
                return Losses{sCur[j], wCur[j - 1], wPrev[j]};
            });
        }
        std::swap(wPrev, wCur);
        std::swap(sPrev, sCur);
    }
    return wPrev[n2];
}

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

}  // namespace

double pairShare(const Rules& rules, Creature p1, Creature p2) {
    const auto& forward = rules.combat(p1, p2).probability;
    const auto& back = rules.combat(p2, p1).probability;
    const double ours =
        forward[static_cast<int>(Outcome::Kill)] + back[static_cast<int>(Outcome::CounterKill)];
    const double theirs =
        forward[static_cast<int>(Outcome::CounterKill)] + back[static_cast<int>(Outcome::Kill)];
    const double decisive = ours + theirs;
    return decisive > 0 ? ours / decisive : 0.5;
}

double showdownWin(const Rules& rules, Creature p1, Creature p2) {
    const auto& sd = rules.showdown(p1, p2);
    return 0.5 + 0.5 * (sd.p1Wins - sd.p2Wins);
}

// Subsets come before supersets in numeric order.
void solveSubsets(const Rules& rules, std::span<const Creature> pieces, int n1,
                  std::span<double> w) {
    const int n = static_cast<int>(pieces.size());
    std::array<std::array<double, kSubsetPieces>, kSubsetPieces> share{};
    for (int i = 0; i < n1; ++i)
        for (int j = n1; j < n; ++j)
            share[i][j] = pairShare(rules, pieces[i], pieces[j]);
    const std::uint32_t ones = (1u << n1) - 1;
    for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
        // The pieces of each side in the subset, in order.
        std::array<int, kSubsetPieces> ours{}, theirs{};
        int c1 = 0, c2 = 0;
        for (std::uint32_t a = mask & ones; a; a &= a - 1)
            ours[c1++] = std::countr_zero(a);
        for (std::uint32_t b = mask & ~ones; b; b &= b - 1)
            theirs[c2++] = std::countr_zero(b);
        w[mask] = attrition(
            c1, c2, [&] { return showdownWin(rules, pieces[ours[0]], pieces[theirs[0]]); },
            [&] {
                return chosenLosses(
                    c1, c2, [&](int i, int j) { return share[ours[i]][theirs[j]]; },
                    [&](int i) { return w[mask & ~(1u << ours[i])]; },
                    [&](int j) { return w[mask & ~(1u << theirs[j])]; });
            });
    }
}

double solve(const Rules& rules, std::span<const Creature> pieces, int n1) {
    const int n = static_cast<int>(pieces.size());
    if (n > kSubsetPieces) return solveByRank(rules, pieces.first(n1), pieces.subspan(n1));
    std::array<double, 1u << kSubsetPieces> w;
    solveSubsets(rules, pieces, n1, std::span(w.data(), 1u << n));
    return w[(1u << n) - 1];
}

AttritionTable::AttritionTable(const Rules& rules) {
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
        win_[code] = attrition(
            n1, n2,
            [&] {
                return showdownWin(rules, static_cast<Creature>(p1[0]),
                                   static_cast<Creature>(p2[0]));
            },
            [&] {
                return chosenLosses(
                    n1, n2, [&](int i, int j) { return share[p1[i]][p2[j]]; },
                    [&](int i) { return win_[code - kPow3[p1[i]]]; },
                    [&](int j) { return win_[code - 2 * kPow3[p2[j]]]; });
            });
    }
}

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

// Declared in eval/eval.h: the model computed afresh, for tests and tools.
double attritionWin(const Position& pos) {
    const Pieces ps = piecesOf(pos);
    return solve(pos.rules(), std::span(ps.creature.data(), ps.n), ps.n1);
}

}  // namespace dejarik::eval
