#include "board_material.h"

#include <span>

#include "attrition.h"
#include "fastmath.h"

namespace dejarik::eval {

namespace {

void setSlopes(Material& m, double slopeFloor) {
    m.logitWin = logit(m.win);
    m.slope = 0.5 / std::max(m.win * (1.0 - m.win), slopeFloor);
}

// A standard army: W and every piece's worth are table reads (W without the piece).
void standardWorth(const Rules& rules, const Army& army, double slopeFloor, Memo* memo,
                   Material& m) {
    const int code = army.code;
    const AttritionTable& table = AttritionTable::of(rules);
    ArmyMaterial* slot = memo ? &memo->army(code) : nullptr;
    m.win = table.win(code);
    for (const Player p : {Player::One, Player::Two}) {
        const int digit = p == Player::One ? 1 : 2;
        for (const Cell c : army.pieces[index(p)]) {
            const int without = code - digit * kPow3[static_cast<int>(army.creature[c.index()])];
            m.worth[c.index()] = perspective(p) * (m.win - table.win(without));
        }
    }
    setSlopes(m, slopeFloor);
    if (slot) {
        ArmyMaterial& a = *slot;
        a.code = code;
        a.table = &table;
        a.slopeFloor = slopeFloor;
        a.win = m.win;
        a.logitWin = m.logitWin;
        a.slope = m.slope;
        for (const Player p : {Player::One, Player::Two})
            for (const Cell c : army.pieces[index(p)])
                a.worth[index(p) * kCreatureCount + static_cast<int>(army.creature[c.index()])] =
                    m.worth[c.index()];
    }
}

// The model solved on the spot: once for all subsets when there are few pieces, else once
// per piece. Pieces [0, n1) are player 1's.
void solveCustom(const Rules& rules, const std::array<Creature, kMaxPieces>& pieces,
                 const std::array<Cell, kMaxPieces>& cells, int n, int n1, Material& m) {
    const auto all = std::span<const Creature>(pieces.data(), n);
    const auto side = [&](int k) { return k < n1 ? Player::One : Player::Two; };
    if (n <= kSubsetPieces) {
        std::array<double, 1u << kSubsetPieces> w;
        solveSubsets(rules, all, n1, std::span(w.data(), 1u << n));
        const std::uint32_t full = (1u << n) - 1;
        m.win = w[full];
        for (int k = 0; k < n; ++k)
            m.worth[cells[k].index()] = perspective(side(k)) * (m.win - w[full & ~(1u << k)]);
        return;
    }
    m.win = solve(rules, all, n1);
    for (int k = 0; k < n; ++k) {
        std::array<Creature, kMaxPieces> rest{};
        int r = 0;
        for (int i = 0; i < n; ++i)
            if (i != k) rest[r++] = pieces[i];
        const int restN1 = k < n1 ? n1 - 1 : n1;
        m.worth[cells[k].index()] =
            perspective(side(k)) * (m.win - solve(rules, std::span(rest.data(), r), restN1));
    }
}

// Custom armies with a creature twice, remembered by army.
void customWorth(const Rules& rules, const Army& army, Memo* memo, Material& m) {
    std::array<Creature, kMaxPieces> pieces{};
    std::array<Cell, kMaxPieces> cells{};
    int n = 0;
    // The army as 16 counts of 4 bits; armies with a count over 15 are not memoised.
    std::uint64_t key = 0;
    bool memoisable = memo != nullptr;
    for (const Player p : {Player::One, Player::Two}) {
        const int first = n;
        for (const Cell c : army.pieces[index(p)]) {
            cells[n] = c;
            pieces[n++] = army.creature[c.index()];
            // Creatures past the ruleset's eight (a creature file's) have no place in the key.
            const int creature = static_cast<int>(army.creature[c.index()]);
            const int shift = 4 * (index(p) * kCreatureCount + (creature & 7));
            memoisable = memoisable && creature < kCreatureCount && ((key >> shift) & 15) != 15;
            key += std::uint64_t{1} << shift;
        }
        // Each side's pieces by creature: the model's floating-point result then depends
        // on the army alone, not on where its pieces stand, so remembering it is exact.
        for (int i = first + 1; i < n; ++i)
            for (int j = i; j > first && pieces[j] < pieces[j - 1]; --j) {
                std::swap(pieces[j], pieces[j - 1]);
                std::swap(cells[j], cells[j - 1]);
            }
    }
    const int n1 = army.pieces[0].count();
    const auto slotOf = [&](int k) {
        return (k < n1 ? 0 : kCreatureCount) + static_cast<int>(pieces[k]);
    };
    const std::uint64_t rulesKey = rules.materialKey();
    CustomMaterial* entry = nullptr;
    if (memoisable) {
        entry = &memo->custom(key);
        if (entry->army == key && entry->rulesKey == rulesKey) {
            m.win = entry->win;
            for (int k = 0; k < n; ++k)
                m.worth[cells[k].index()] = entry->worth[slotOf(k)];
            return;
        }
    }
    // Solved, and remembered: pieces of one player and creature are worth the same (the
    // first of them stands for all, so rounding cannot tell them apart).
    solveCustom(rules, pieces, cells, n, n1, m);
    for (int k = 1; k < n; ++k)
        if (pieces[k] == pieces[k - 1] && (k < n1) == (k - 1 < n1))
            m.worth[cells[k].index()] = m.worth[cells[k - 1].index()];
    if (entry) {
        entry->army = key;
        entry->rulesKey = rulesKey;
        entry->win = m.win;
        for (int k = 0; k < n; ++k)
            entry->worth[slotOf(k)] = m.worth[cells[k].index()];
    }
}

}  // namespace

void readMaterialAfresh(const Rules& rules, const Army& army, double slopeFloor, Memo* memo,
                        Material& out) {
    if (army.unique) return standardWorth(rules, army, slopeFloor, memo, out);
    customWorth(rules, army, memo, out);
    setSlopes(out, slopeFloor);
}

}  // namespace dejarik::eval
