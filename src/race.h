// The material race: an upper bound on what any player can score from given armies, whatever
// both sides do (docs/search.md, "Against `random`", "Why 95% is impossible in dalsian").
//
// Under rules that decide a game by material alone (no CentreWin, no Rays of Death, not
// Courtier), only a kill changes the armies, and an attack that ends in one goes the
// attacker's way with the chance kill / (kill + counter-kill) of its two creatures, however
// the board stands. Pushes kill nothing under BlockedPush=stay; under the other two a push
// of a boxed-in piece kills, and the bound then counts every push as the pusher's kill
// whenever the board holds pieces enough to box one in (a cell of the outer ring has three
// neighbours, so four pieces at least).
// A player who could choose every decisive attack of the rest of the game — which of its
// own creatures attacks which enemy, or which enemy attacks which of its creatures — and
// could end the game in a draw whenever it liked, scores at least what any real player
// scores from those armies: each real decisive attack is one of those choices, and a mean
// over choices is never above their best. The bound therefore holds against every
// opponent, a random mover included; when it is below a goal, no search or evaluator can
// reach that goal from those armies.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "rules.h"

namespace dejarik::race {

// Armies larger than this are refused (the bound walks every pair of sub-armies).
inline constexpr int kMaxArmy = 8;

struct Bound {
    double score = 0;  // the expected result (win 1, draw 1/2), the player free to draw
    double win = 0;    // the chance to win, the player never content with a draw
};

// Which attacks of the other side (its creature on one of the player's) may happen while
// that side has a legal move: an opponent model. Empty: every attack, whoever the opponent.
using OpponentAttacks = std::function<bool(Creature attacker, Creature defender)>;

// How the other side picks its attack when it has no legal move and must attack (RULES §4):
// it declares one of the attacks it values best, and this is the range [low, high] of the
// value it may put on an attack of `attacker` on `defender`, over the boards it could stand
// on. Empty: it may declare any of them.
using ForcedPreference =
    std::function<std::pair<double, double>(Creature attacker, Creature defender)>;

// An opponent model: no `mayChoose`, no model (every attack may happen).
struct Opponent {
    OpponentAttacks mayChoose;
    ForcedPreference forced;
};

// The attacks a side left without a legal move may declare on one board: for each piece of
// the other side, the pieces of the side (a bit each, in the side's order) that can attack
// it; sorted, since the other side's pieces may stand in any order.
using ForcedTargets = std::vector<std::uint16_t>;

// A side left without a move must attack whatever the odds (RULES §4). Under a model the
// bound either lets the other side's forced attacks happen wherever the armies allow that
// side to be left without a move (canBeLeftWithoutMove), and so holds in every game against
// the model; or never, and holds for the games in which the player never boxes it in so;
// or only where that side is down to a lone piece (never two against four), which holds for
// the games in which the player boxes in no more than one piece at a time and tells what the
// bound owes to boxing two pieces in. Which forced attacks: with the model's
// ForcedPreference, those it values best on some board without a move, whoever of the
// player's pieces stands where (forcedTargets: a lone piece of movement 1 boxed in has every
// piece around it to choose from, and picks); without it, or when the boards are too many
// to walk, any.
enum class Boxing { WhereArmiesAllow, LonePiece, Never };

// Every ForcedTargets of the boards on which the pieces of `side` all stand
// without a legal move while the other side has `others` pieces on the board (empty when
// there are none), by walking every board up to rotation; nothing when the boards are too
// many to walk (over kMaxForcedBoards) or the side has more pieces than a mask holds.
inline constexpr double kMaxForcedBoards = 2e7;
[[nodiscard]] std::optional<std::set<ForcedTargets>> forcedTargets(const Rules& rules,
                                                                   std::span<const Creature> side,
                                                                   int others);

// Whether the pieces of `side` can all stand without a legal move while the other side has
// `others` pieces on the board: on some board of them all, every path of every piece of
// `side` (RULES §5) runs into a taken cell, whoever's piece takes it. Exhaustive over the
// boards (up to the board's rotations) and over the cells the other side's pieces may take.
[[nodiscard]] bool canBeLeftWithoutMove(const Rules& rules, std::span<const Creature> side,
                                        int others);

// canBeLeftWithoutMove remembered by what it depends on: the movements of the side, the
// number of other pieces and CentreStraight; forcedTargets by those and the attack
// restrictions. One cache serves any Rules, so a searcher keeps one across games and a bound
// over many armies carries it from one army to the next.
class WithoutMoveCache {
  public:
    [[nodiscard]] bool operator()(const Rules& rules, std::span<const Creature> side, int others);
    [[nodiscard]] const std::optional<std::set<ForcedTargets>>& targets(
        const Rules& rules, std::span<const Creature> side, int others);

  private:
    std::map<std::tuple<std::vector<int>, int, bool>, bool> known_;
    std::map<std::tuple<std::vector<int>, int, bool, bool, bool>,
             std::optional<std::set<ForcedTargets>>>
        targets_;
};

// What is known exactly of some smaller armies: the most the player can score (and win)
// from any position of `own` against `other` where play reaches them, or nothing. An exact
// solution of small endings against a fixed opponent (tables/policy.h) answers here; the
// bound then holds against that opponent only.
using KnownArmies = std::function<std::optional<Bound>(std::span<const Creature> own,
                                                       std::span<const Creature> other)>;

// The bound for the player whose army is `own` against `other` (creatures of the rules'
// set, repeats allowed). Nothing when the rules decide games by more than material, or an
// army is empty or larger than kMaxArmy.
// With a model, `cache` may carry what is known of sides without a move
// from one bound to the next; `known` answers for armies whose value is known exactly (the
// armies `own` and `other` themselves included).
[[nodiscard]] std::optional<Bound> bound(const Rules& rules, std::span<const Creature> own,
                                         std::span<const Creature> other,
                                         const Opponent& opponent = {},
                                         Boxing boxing = Boxing::WhereArmiesAllow,
                                         WithoutMoveCache* cache = nullptr,
                                         const KnownArmies& known = {});

// An army as its creatures' letters, `owner`'s case.
[[nodiscard]] std::string armyText(const Rules& rules, std::span<const Creature> army,
                                   Player owner);

// Whether `bound` answers under these rules.
[[nodiscard]] bool materialDecides(const Rules& rules);

}  // namespace dejarik::race
