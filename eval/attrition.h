// The attrition model behind the material term (docs/eval.md, "material").
//
// The game is a war of attrition: kills come one at a time, the next one falls on player 2
// with the mean "share" of the pairs of pieces still standing (a pair's share: of the kills
// between the two pieces when each attacks the other once, the fraction that fall on player
// 2's piece; exact odds from Rules::combat), and the side that loses a piece chooses which
// (its least useful one). One piece each is the showdown (exact odds, Rules::showdown).
// W(S1, S2), player 1's chance to win:
//   W(S1, {}) = 1, W({}, S2) = 0, W({c}, {e}) = showdown,
//   W(S1, S2) = p * min_e W(S1, S2 - e) + (1 - p) * max_c W(S1 - c, S2).
// Letting the loser choose makes W monotone whatever p is: an extra piece is an extra
// life, never a liability (W(S1 + x, S2) >= p' A + (1 - p') W(S1, S2) with
// A = min_e W(S1, S2 - e) >= W(S1, S2), by induction).
#pragma once

#include <algorithm>
#include <array>
#include <span>

#include "position.h"

namespace dejarik::eval {

// A board holds at most one piece a cell.
inline constexpr int kMaxPieces = Cell::kCount;

// What the recurrence needs besides the piece counts: the sum of the pairs' shares, and W
// after each side's loss (player 2's the smallest W, player 1's the largest, when they
// choose).
struct Losses {
    double shares = 0;
    double theirs = 1;  // W after player 2 loses a piece
    double ours = 0;    // W after player 1 loses a piece
};

// The recurrence above, the one place it is written: W of n1 against n2 pieces. `showdown`
// is called for one piece each, `losses` when both sides have pieces and one has two or more.
template <class Showdown, class LossesOf>
[[nodiscard]] double attrition(int n1, int n2, Showdown showdown, LossesOf losses) {
    if (n1 == 0 || n2 == 0) return n2 > 0 ? 0.0 : n1 > 0 ? 1.0 : 0.5;
    if (n1 == 1 && n2 == 1) return showdown();
    const Losses l = losses();
    const double p = l.shares / (n1 * n2);
    return p * l.theirs + (1.0 - p) * l.ours;
}

// The losses when each side chooses its least useful piece: share(i, j) of player 1's i-th
// and player 2's j-th piece, W without player 1's i-th (withoutOurs) or player 2's j-th.
template <class Share, class WithoutOurs, class WithoutTheirs>
[[nodiscard]] Losses chosenLosses(int n1, int n2, Share share, WithoutOurs withoutOurs,
                                  WithoutTheirs withoutTheirs) {
    Losses l;
    for (int i = 0; i < n1; ++i) {
        for (int j = 0; j < n2; ++j)
            l.shares += share(i, j);
        l.ours = std::max(l.ours, withoutOurs(i));
    }
    for (int j = 0; j < n2; ++j)
        l.theirs = std::min(l.theirs, withoutTheirs(j));
    return l;
}

[[nodiscard]] double pairShare(const Rules& rules, Creature p1, Creature p2);
[[nodiscard]] double showdownWin(const Rules& rules, Creature p1, Creature p2);

// Up to this many pieces the model is solved over every subset of the pieces on the board
// (custom armies with a creature twice; standard ones are read from AttritionTable).
inline constexpr int kSubsetPieces = 12;

// W for every subset of the given pieces: w[mask], bit i for piece i, pieces [0, n1) player
// 1's and [n1, n) player 2's; at most kSubsetPieces pieces.
void solveSubsets(const Rules& rules, std::span<const Creature> pieces, int n1,
                  std::span<double> w);

// W of the pieces of both sides, player 1's first, any number of them.
[[nodiscard]] double solve(const Rules& rules, std::span<const Creature> pieces, int n1);

// W of every army pair with each creature at most once on the board (each of the 8
// creatures absent, player 1's or player 2's: 3^8 codes, digit 1 player 1's, 2 player 2's),
// so that the worth of every piece is two table reads. Built once per (ratings, dice
// model), the only parts of the rules the combat and showdown odds depend on; immutable
// once built.
inline constexpr int kCodes = 6561;
inline constexpr std::array<int, kCreatureCount> kPow3 = {1, 3, 9, 27, 81, 243, 729, 2187};

class AttritionTable {
  public:
    explicit AttritionTable(const Rules& rules);
    [[nodiscard]] double win(int code) const { return win_[code]; }

    // The table of the rules' ratings and dice model, built on first use.
    [[nodiscard]] static const AttritionTable& of(const Rules& rules) {
        static constexpr std::array<const AttritionTable& (*)(const Rules&), 8> kBuilders = {
            &build<0>, &build<1>, &build<2>, &build<3>, &build<4>, &build<5>, &build<6>, &build<7>};
        const int ratings = rules.ruleset() == Ruleset::Holochess ? 1 : 0;
        return kBuilders[ratings * 4 + static_cast<int>(rules.dice())](rules);
    }

  private:
    template <int Key>
    static const AttritionTable& build(const Rules& rules) {
        static const AttritionTable table(rules);
        return table;
    }

    std::array<double, kCodes> win_{};
};

// Two summaries of the pairs on the board (explain, wdl): the mean share (the chance that
// the next kill is player 2's piece) and the mean chance that an exchange of two attacks
// kills a piece.
struct PairStats {
    double nextKill = 0.5;
    double decisive = 1;
};
[[nodiscard]] PairStats pairStats(const Position& pos);

}  // namespace dejarik::eval
