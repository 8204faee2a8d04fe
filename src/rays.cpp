// Rays of Death in Position (docs/rules.md "Rays of Death"): activation marks, cycles,
// rounds and the DFEN field that carries them.
#include "rays.h"

#include <string>

#include "dfen_fields.h"
#include "movegen.h"
#include "position.h"
#include "text.h"
#include "zobrist.h"

namespace dejarik {

namespace {

using dfen::fail;
using zobrist::kKeys;

constexpr std::uint8_t bitOf(Player p) {
    return static_cast<std::uint8_t>(1u << index(p));
}

}  // namespace

// The creatures that may take the action: the player's unused ones while one of them can
// act; else its cycle is over and any of them may (docs/rules.md "Blocked").
Bitboard Position::actors() const {
    const Bitboard own = pieces(st_.side);
    if (!rules_->raysOfDeath()) return own;
    const Bitboard fresh = own & ~st_.used;
    const Bitboard empty = emptyCells(), enemies = pieces(opponent(st_.side));
    const bool straight = rules_->centreStraight();
    for (const Cell from : fresh) {
        const int steps = rules_->ratings(at(from).creature()).movement;
        if (movegen::destinations(from, steps, empty, straight).any()) return fresh;
        if ((movegen::attackTargets(from, enemies, *rules_) &
             rays::allowedTargets(from, st_.combat))
                .any())
            return fresh;
    }
    return own;
}

void Position::setUsed(Bitboard used) {
    for (const Cell c : used ^ st_.used)
        st_.key ^= kKeys.used[c.index()];
    st_.used = used;
}

void Position::setCombat(std::uint8_t cell) {
    if (st_.combat != rays::kNoCombat) st_.key ^= kKeys.combat[st_.combat];
    st_.combat = cell;
    if (cell != rays::kNoCombat) st_.key ^= kKeys.combat[cell];
}

// The creature on `c` takes the action. A used one acts only when its player's cycle was
// blocked (actors()): that cycle ends here and the creature starts the next.
void Position::activate(Cell c) {
    Bitboard used = st_.used;
    if (used.has(c)) {
        used &= ~pieces(st_.side);
        // A second cycle of the same round counts once.
        if (!(st_.cycled & bitOf(st_.side))) {
            st_.key ^= kKeys.cycled[index(st_.side)];
            st_.cycled |= bitOf(st_.side);
        }
    }
    setUsed(used | Bitboard::of(c));
}

// After an action: a player whose creatures are all used ends its cycle; when both have
// ended one since the last roll, the next roll is due. Marks are cleared even when the
// action ended the game, so that no DFEN shows a fully marked army.
void Position::endCycles() {
    for (const Player p : {Player::One, Player::Two}) {
        const Bitboard own = pieces(p);
        if (own.empty() || (own & ~st_.used).any()) continue;
        setUsed(st_.used & ~own);
        // A finished game keeps no round (its DFEN could not say both players are done).
        if (!isOver() && !(st_.cycled & bitOf(p))) {
            st_.key ^= kKeys.cycled[index(p)];
            st_.cycled |= bitOf(p);
        }
    }
    if (st_.cycled != 3) return;
    // The round is over (a blocked cycle may have ended it in a game that is now over too).
    st_.key ^= kKeys.cycled[0] ^ kKeys.cycled[1];
    st_.cycled = 0;
    if (isOver()) return;
    st_.key ^= kKeys.rollDue;
    // The old cell is spent: a roll-due position is the same whatever it was.
    setCombat(rays::kNoCombat);
    st_.phase = Phase::Roll;
}

std::uint64_t Position::raysKey() const {
    std::uint64_t k = 0;
    for (const Cell c : st_.used)
        k ^= kKeys.used[c.index()];
    if (st_.combat != rays::kNoCombat) k ^= kKeys.combat[st_.combat];
    for (const Player p : {Player::One, Player::Two})
        if (st_.cycled & bitOf(p)) k ^= kKeys.cycled[index(p)];
    if (st_.phase == Phase::Roll) k ^= kKeys.rollDue;
    return k;
}

std::string Position::raysField() const {
    std::string s = "rays:";
    if (st_.phase == Phase::Roll)
        s += '?';
    else
        s += st_.combat == rays::kNoCombat ? std::string("-") : Cell(st_.combat).name();
    s += '/';
    for (const Cell c : st_.used)
        s += c.name();
    if (st_.used.empty()) s += '-';
    s += '/';
    s += st_.cycled & bitOf(Player::One) ? '1' : st_.cycled & bitOf(Player::Two) ? '2' : '-';
    return s;
}

// "rays:<combat>/<marked>/<done>" (docs/rules.md "DFEN"), on a position whose board is set.
bool Position::parseRaysField(std::string_view field, std::string* error) {
    const std::string got = text::quoted(field);
    const auto parts = text::split(field.substr(5), '/');
    if (parts.size() != 3)
        return fail(error, "DFEN rays: expected rays:<combat>/<marked>/<done>, got " + got);
    bool rollDue = false;
    if (parts[0] == "?") {
        rollDue = true;
    } else if (parts[0] != "-") {
        const auto cell = Cell::parse(parts[0]);
        if (!cell)
            return fail(error, "DFEN rays: combat cell " + text::quoted(parts[0]) +
                                   " is not '-', '?' or a cell");
        setCombat(static_cast<std::uint8_t>(cell->index()));
    }
    Bitboard used;
    if (parts[1] != "-") {
        const std::string_view marked = parts[1];
        std::size_t begin = 0;
        while (begin < marked.size()) {
            std::size_t end = begin + 1;
            while (end < marked.size() && marked[end] >= '0' && marked[end] <= '9')
                ++end;
            const std::string_view name = marked.substr(begin, end - begin);
            const auto cell = Cell::parse(name);
            if (!cell)
                return fail(error, "DFEN rays: " + text::quoted(name) +
                                       " in the marked cells is not a cell");
            if (used.has(*cell))
                return fail(error, "DFEN rays: cell " + cell->name() + " is marked twice");
            if (!occupied().has(*cell))
                return fail(error, "DFEN rays: marked cell " + cell->name() + " has no creature");
            used |= Bitboard::of(*cell);
            begin = end;
        }
    }
    for (const Player p : {Player::One, Player::Two})
        if (pieces(p).any() && (pieces(p) & ~used).empty())
            return fail(error, std::string("DFEN rays: every creature of player ") +
                                   (p == Player::One ? "1" : "2") +
                                   " is marked (its cycle would have ended)");
    setUsed(used);
    const std::string_view done = parts[2];
    if (done != "-" && done != "1" && done != "2")
        return fail(error, "DFEN rays: done must be '-', '1' or '2', got " + text::quoted(done));
    if (done != "-") {
        if (rollDue) return fail(error, "DFEN rays: a roll is due ('?'), so no player can be done");
        st_.cycled = bitOf(done == "1" ? Player::One : Player::Two);
    }
    if (rollDue) st_.phase = Phase::Roll;
    return true;
}

}  // namespace dejarik
