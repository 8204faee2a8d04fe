// What one thread's evaluations may remember between calls (docs/eval.md, "Speed").
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "rules.h"
#include "tunables.h"

namespace dejarik::eval {

// The material of a standard army (each creature at most once) as one evaluation read it
// from its attrition table, keyed by the army code, the table and the slope floor (a
// ruleset's own, EvalWeights: two rulesets may share a table).
struct ArmyMaterial {
    int code = -1;
    const void* table = nullptr;
    double slopeFloor = 0;
    double win = 0.5, logitWin = 0, slope = 2;
    std::array<double, 2 * kCreatureCount> worth{};  // by player * 8 + creature
};

// The material of a custom army (a creature twice), solved once, keyed by the count of each
// (player, creature) and by what the model depends on (ratings and dice).
struct CustomMaterial {
    std::uint64_t army = ~std::uint64_t{0};
    std::uint64_t rulesKey = ~std::uint64_t{0};  // Rules::materialKey
    double win = 0;
    std::array<double, 2 * kCreatureCount> worth{};  // by player * 8 + creature
};

// One thread's memory of the material model: custom armies, which are otherwise solved
// afresh at every call at a cost exponential in the pieces, and the standard armies of
// recent evaluations (a search's leaves nearly all share a few armies, the one at the root
// and those after a kill at a chance node, and reading them back skips the table reads, a
// table larger than L1, and a logarithm). It also carries the weights its evaluations use:
// evaluate(pos, memo) returns exactly evaluate(pos, memo.tunables()); the memo only saves
// the work. Both caches are direct-mapped.
class Memo {
  public:
    explicit Memo(const Tunables& tunables = kDefaultTunables)
        : tunables_(tunables), caches_(std::make_unique<Caches>()) {}
    Memo(const Memo&) = delete;
    Memo& operator=(const Memo&) = delete;

    [[nodiscard]] const Tunables& tunables() const { return tunables_; }
    // New weights; what was remembered under the old ones (the slope) is forgotten.
    void setTunables(const Tunables& tunables) {
        tunables_ = tunables;
        caches_->armies = {};
    }

    [[nodiscard]] ArmyMaterial& army(int code) {
        return caches_->armies[(static_cast<std::uint32_t>(code) * 0x9E3779B1u) >> 29];
    }
    [[nodiscard]] CustomMaterial& custom(std::uint64_t army) {
        return caches_->custom[(army * 0x9E3779B97F4A7C15ull) >> 56];
    }

  private:
    Tunables tunables_;
    struct Caches {
        std::array<CustomMaterial, 256> custom;
        std::array<ArmyMaterial, 8> armies;
    };
    std::unique_ptr<Caches> caches_;
};

}  // namespace dejarik::eval
