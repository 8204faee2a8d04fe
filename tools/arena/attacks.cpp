#include "attacks.h"

#include <algorithm>
#include <cstdio>

#include "analysis.h"

namespace dejarik::arena {

namespace {

// How a piece came to its cell: moved there by its side's decision or placed there after a
// push, in which turn; or standing there since the deal.
enum class How : std::uint8_t { Deal, Moved, Placed };
struct Arrival {
    How how = How::Deal;
    std::uint32_t turn = 0;
    [[nodiscard]] bool in(How h, std::uint32_t t) const { return how == h && turn == t; }
};

// An attack of the last turn, to tell an attack's aftermath from a piece left standing.
struct LastAttack {
    std::uint32_t turn = 0;
    Cell from, to;
};

AttackSource sourceOf(const std::array<Arrival, Cell::kCount>& arrival,
                      const std::vector<LastAttack>& attacks, std::uint32_t turn, Cell from,
                      Cell to) {
    const Arrival a = arrival[static_cast<std::size_t>(from.index())];
    const Arrival d = arrival[static_cast<std::size_t>(to.index())];
    const std::uint32_t last = turn - 1;
    if (a.in(How::Moved, turn)) return AttackSource::Approached;
    if (a.in(How::Placed, turn) || d.in(How::Placed, turn)) return AttackSource::PlacedNow;
    if (d.in(How::Moved, last)) return AttackSource::DefenderMoved;
    const bool placedLastTurn = d.in(How::Placed, last) || a.in(How::Placed, last);
    const bool attackedLastTurn = std::ranges::any_of(attacks, [&](const LastAttack& x) {
        return x.turn == last && (x.from == to || x.to == from);
    });
    if (placedLastTurn || attackedLastTurn) return AttackSource::AfterDefenderAttack;
    return AttackSource::LeftNextTo;
}

}  // namespace

std::optional<Attacks> analyseAttacks(const std::vector<GameRecord>& records,
                                      const std::string& player, std::string& error) {
    Attacks out;
    RulesCache rulesCache;
    const auto visit = [&](const GameRecord& record, Player me, const Rules& rules) {
        std::array<Arrival, Cell::kCount> arrival{};
        std::vector<LastAttack> lastAttacks;
        // The attack waiting for its outcome: whose, and its tally.
        AttackTally* pending = nullptr;
        Player attacker = me;
        const bool replayed = forEachEvent(
            record, rules,
            [&](const RecordedEvent&, Event event, const Position& before, const Position& after) {
                const std::uint32_t turn = before.turn();
                switch (event.kind()) {
                    case EventKind::Move:
                        arrival[static_cast<std::size_t>(event.to().index())] = {How::Moved, turn};
                        break;
                    case EventKind::Place:
                        arrival[static_cast<std::size_t>(event.to().index())] = {How::Placed, turn};
                        break;
                    case EventKind::Attack: {
                        attacker = before.sideToMove();
                        const AttackSource source =
                            sourceOf(arrival, lastAttacks, turn, event.from(), event.to());
                        std::erase_if(lastAttacks,
                                      [&](const LastAttack& x) { return x.turn + 1 < turn; });
                        lastAttacks.push_back({turn, event.from(), event.to()});
                        pending =
                            &out.bySide[attacker == me ? 0 : 1][static_cast<std::size_t>(source)];
                        ++pending->attacks;
                        break;
                    }
                    case EventKind::Outcome: {
                        if (!pending) break;
                        const Player defender = opponent(attacker);
                        if (after.pieces(defender).count() < before.pieces(defender).count())
                            ++pending->defenderRemoved;
                        if (after.pieces(attacker).count() < before.pieces(attacker).count())
                            ++pending->attackerRemoved;
                        pending = nullptr;
                        break;
                    }
                    default:
                        break;
                }
            },
            error);
        if (replayed) ++out.games;
        return replayed;
    };
    if (!forEachGameOf(records, player, rulesCache, visit, error)) return std::nullopt;
    if (out.games == 0) {
        error = "no finished game of '" + player + "' in the records";
        return std::nullopt;
    }
    return out;
}

std::string formatAttacks(const Attacks& attacks, const std::string& player) {
    static constexpr std::array<const char*, kAttackSources> kSources = {
        "the attacker moved next to it this turn",
        "placed next to it this turn, after a push",
        "the defender's side moved it there last turn",
        "after the defender's side's attack last turn",
        "already next to it before that turn",
    };
    std::string out;
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "%s's games (%lld): every attack by who made it and how the two pieces came "
                  "to stand next to each other\n\n",
                  player.c_str(), static_cast<long long>(attacks.games));
    out += buf;
    out +=
        "attacker  came from                                       attacks  a game  defender "
        "removed  attacker removed  decisive share\n";
    const auto line = [&](const char* who, const char* from, const AttackTally& t) {
        const std::int64_t decisive = t.defenderRemoved + t.attackerRemoved;
        char share[16] = "-";
        if (decisive > 0)
            std::snprintf(share, sizeof share, "%.3f",
                          static_cast<double>(t.defenderRemoved) / static_cast<double>(decisive));
        std::snprintf(buf, sizeof buf, "%-8s  %-46s  %7lld  %6.2f  %16lld  %16lld  %14s\n", who,
                      from, static_cast<long long>(t.attacks),
                      static_cast<double>(t.attacks) / static_cast<double>(attacks.games),
                      static_cast<long long>(t.defenderRemoved),
                      static_cast<long long>(t.attackerRemoved), share);
        out += buf;
    };
    for (int side = 0; side < 2; ++side) {
        const char* who = side == 0 ? "player" : "other";
        AttackTally all;
        for (int s = 0; s < kAttackSources; ++s) {
            const AttackTally& t =
                attacks.bySide[static_cast<std::size_t>(side)][static_cast<std::size_t>(s)];
            line(who, kSources[static_cast<std::size_t>(s)], t);
            all.attacks += t.attacks;
            all.defenderRemoved += t.defenderRemoved;
            all.attackerRemoved += t.attackerRemoved;
        }
        line(who, "all", all);
    }
    out +=
        "\ndecisive share: of the attacks that removed a piece, the share that removed the "
        "defender\n";
    return out;
}

}  // namespace dejarik::arena
