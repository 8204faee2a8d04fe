#include "model_cap.h"

#include <algorithm>

#include "splitmix.h"

namespace dejarik::search {

namespace {

// A random key per (owner, creature): an army's key is the sum over its pieces, the same
// for every order and arrangement of them, so one entry serves every board of two armies.
constexpr auto kMaterialKeys = [] {
    std::array<std::array<std::uint64_t, kMaxCreatures>, 2> keys{};
    std::uint64_t state = 0x4A7E5CA9ull;
    for (auto& side : keys)
        for (auto& k : side)
            k = splitmix64(state);
    return keys;
}();

}  // namespace

ModelCap::Entry& ModelCap::entry(const Position& pos) {
    std::uint64_t key = pos.rules().fingerprint();
    for (const Player p : {Player::One, Player::Two})
        for (const Cell c : pos.pieces(p))
            key += kMaterialKeys[index(p)][static_cast<int>(pos.at(c).creature())];
    Entry& e = entries_[key % kEntries];
    if (e.key != key) e = {key, computeCap(pos, race::Boxing::Never), std::nullopt};
    return e;
}

double ModelCap::computeCap(const Position& pos, race::Boxing boxing) {
    ++computed_;
    const Player free = opponent(modelled_);
    const auto bound = race::bound(pos.rules(), pos.army(free), pos.army(modelled_),
                                   raceModel(model_, pos.rules()), boxing, &withoutMove_);
    return bound ? 2 * bound->score - 1 : 1.0;
}

double ModelCap::boxedCap(Entry& e, const Position& pos) {
    if (!e.boxed) e.boxed = computeCap(pos, race::Boxing::WhereArmiesAllow);
    return *e.boxed;
}

double ModelCap::cap(const Position& pos) {
    return boxedCap(entry(pos), pos);
}

double ModelCap::apply(const Position& pos, double value) {
    const double sign = perspective(opponent(modelled_));
    Entry& e = entry(pos);
    if (sign * value <= e.unboxed) return value;  // under both caps
    // A value of exactly -1 would claim a certain loss the evaluation never does: the cap
    // stays strictly inside, as every evaluation (eval::evaluate).
    constexpr double kFloor = -0.999;
    const double limit = std::max(boxedCap(e, pos), kFloor);
    return sign * std::min(sign * value, limit);
}

}  // namespace dejarik::search
