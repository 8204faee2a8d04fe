// The race cap (docs/search.md, "The race cap"): under an opponent model, what the armies
// on the board let the other side score at most.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "baselines.h"
#include "position.h"
#include "race.h"

namespace dejarik::search {

// Against a baseline player whose attacks are only the ones it chooses (mayChooseAttack, or
// any where the armies allow it to be left without a move), race::bound caps what the
// other side can score, whatever both play. An evaluation above that cap is material that
// cannot convert against this player (three pieces against a Ng'ok and a Strider that
// never attack and cannot be boxed in): held to the cap, the search prefers the lines that
// keep a win in reach to the ones that trade it for a draw. Only a cap: the tables and the
// evaluation below it stand as they are. One per search thread.
class ModelCap {
  public:
    ModelCap(Baseline model, Player modelled) : model_(model), modelled_(modelled) {}

    // `value` (player 1's view) of `pos`, a position not over, held to the cap.
    [[nodiscard]] double apply(const Position& pos, double value);

    // The most the side opposing the modelled one can score here, as a value in its own
    // view (2 score - 1): 1 where the race tells nothing (material does not decide, an
    // army too big or empty).
    [[nodiscard]] double cap(const Position& pos);

    // How many caps were computed rather than found: each is a race bound, milliseconds for
    // big armies, which a search must count as time spent (Worker::enter).
    [[nodiscard]] std::uint64_t computed() const { return computed_; }

    [[nodiscard]] Baseline model() const { return model_; }
    [[nodiscard]] Player modelled() const { return modelled_; }

  private:
    // The caps of one pair of armies: without boxing in (cheap: no board is searched) and,
    // once a value needs it, with it. Boxing in only adds attacks the free side may count
    // on, so the second is never below the first, and a value under the first needs no
    // second: at the start of a game the search never pays for a board search it does not
    // need (the first 4 v 4 cap took ~95 ms, over a 25 ms movetime).
    struct Entry {
        std::uint64_t key = 0;
        double unboxed = 1;
        std::optional<double> boxed;
    };
    static constexpr std::size_t kEntries = 256;

    Entry& entry(const Position& pos);
    // The entry's cap with boxing in, computed on first use.
    double boxedCap(Entry& e, const Position& pos);
    double computeCap(const Position& pos, race::Boxing boxing);

    Baseline model_;
    Player modelled_;
    std::array<Entry, kEntries> entries_{};
    std::uint64_t computed_ = 0;
    race::WithoutMoveCache withoutMove_;
};

}  // namespace dejarik::search
