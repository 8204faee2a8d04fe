// Random games under every ruleset and several option variants, checking the position's
// invariants at every event: copy-make leaves the parent alone, make/unmake restores it
// exactly, the incremental key is the computed one, the pending attack's odds are a
// distribution, event counts agree, every event is legal and its token parses back, and the
// DFEN of every decision point parses back to the same position.
//
// Seeded, so every run plays the same games.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "perft.h"
#include "position.h"
#include "rules.h"
#include "sanitized.h"
#include "verify.h"

using namespace dejarik;

namespace {

// Games per plain ruleset; the option variants play half as many. The sanitizer build runs
// the tests' code at -O0 with instrumented memory: a quarter of the games there (26 s of its
// CPU). No fewer: at 125 games `kelly RaysOfDeath` reached no showdown and no win of
// player 1, which the coverage checks ask for.
#if defined(DEJARIK_SANITIZED)
constexpr int kGames = 500;
#else
constexpr int kGames = 2000;
#endif
constexpr int kMaxEvents = 300;

struct Variant {
    const char* name;
    Ruleset ruleset;
    std::vector<const char*> options;
    // A creature set's file text (RULES §16); empty: the ruleset's own creatures.
    std::string creatures = {};
    [[nodiscard]] int games() const {
        return options.empty() && creatures.empty() ? kGames : kGames / 2;
    }
};

// Every letter a creature (piece codes past the built-in eight), movements 1-4, groups with
// repeats; a single dice line so the set plays alike under every ruleset.
std::string alphabetSet() {
    std::string text = "set Alphabet\ndice 2d10\nstart ZZYX aqmz\n";
    for (int i = 0; i < 26; ++i)
        text += std::string(1, static_cast<char>('A' + i)) + ' ' + std::to_string(1 + i % 8) + ' ' +
                std::to_string(1 + (i * 5) % 8) + ' ' + std::to_string(1 + i % 4) + " Creature " +
                std::to_string(i) + '\n';
    return text;
}

constexpr const char* kMirrorRaiders =
    "set Mirror Raiders\ndice d20\nstart WBDF FDBW\nW 5 3 4 Wraith-hound\nB 2 8 1 Bulwark\n"
    "D 6 5 2 Duelist\nF 7 2 2 Fang\nA 8 7 1 Ancient\n";

const std::vector<Variant>& variants() {
    static const std::vector<Variant> all = {
        {"kelly", Ruleset::Kelly, {}},
        {"dalsian-classic", Ruleset::DalsianClassic, {}},
        {"dalsian", Ruleset::Dalsian, {}},
        {"holochess", Ruleset::Holochess, {}},
        {"kelly KingOfTheCentre", Ruleset::Kelly, {"KingOfTheCentre=true"}},
        {"kelly kill-on-push", Ruleset::Kelly, {"BlockedPush=kill-on-push"}},
        {"dalsian d20 nowhere-safe", Ruleset::Dalsian, {"Dice=d20", "SafeOuterOrbit=false"}},
        {"holochess stay free-paths KingOfTheCentre",
         Ruleset::Holochess,
         {"BlockedPush=stay", "CentreStraight=false", "KingOfTheCentre=true"}},
        {"kelly CentreWin=2 DrawTurns=12 CentreStraight",
         Ruleset::Kelly,
         {"CentreWin=2", "DrawTurns=12", "CentreStraight=true"}},
        {"kelly with the Mirror Raiders set", Ruleset::Kelly, {}, kMirrorRaiders},
        {"holochess with a 26-creature set", Ruleset::Holochess, {}, alphabetSet()},
        {"dalsian-classic with a 26-creature set, Dice=pools",
         Ruleset::DalsianClassic,
         {"Dice=pools"},
         alphabetSet()},
        {"kelly Setup=arrange", Ruleset::Kelly, {"Setup=arrange"}},
        {"holochess Setup=arrange with the Mirror Raiders set",
         Ruleset::Holochess,
         {"Setup=arrange"},
         kMirrorRaiders},
        {"kelly RaysOfDeath", Ruleset::Kelly, {"RaysOfDeath=true"}},
        {"dalsian RaysOfDeath", Ruleset::Dalsian, {"RaysOfDeath=true"}},
        {"holochess RaysOfDeath Setup=arrange",
         Ruleset::Holochess,
         {"RaysOfDeath=true", "Setup=arrange", "DrawTurns=20"}},
    };
    return all;
}

Rules makeRules(const Variant& v) {
    RuleOptions o;
    o.ruleset = v.ruleset;
    for (const char* a : v.options)
        REQUIRE_FALSE(o.setAssignment(a));
    if (!v.creatures.empty()) {
        std::string error;
        auto set = CreatureSet::parse(v.creatures, v.name, &error);
        REQUIRE_MESSAGE(set, error);
        o.creatureFile = std::make_shared<const CreatureSet>(std::move(*set));
    }
    return Rules(o);
}

// What happened over a variant's games, to make sure the games reach every rule.
struct Coverage {
    std::array<int, 4> outcomes{};
    int placements = 0;
    int placementsByOpponent = 0;
    int blockedPushes = 0;
    int passes = 0;
    int centreWins = 0;
    int setups = 0;
    int rolls = 0;
    std::array<int, 5> results{};  // by Result
};

char ofPlayer(char upper, bool second) {
    return second ? static_cast<char>(upper - 'A' + 'a') : upper;
}

std::string cellsField(const std::array<char, Cell::kCount>& cells) {
    std::string s(1, cells[0]);
    s += '/';
    s.append(cells.begin() + 1, cells.begin() + 13);
    s += '/';
    s.append(cells.begin() + 13, cells.end());
    return s;
}

// A start where the player on turn must pass: their one piece moves 2 and stands on c1 with
// c2, c12 and b1 empty but every cell beyond them taken by enemies, none adjacent to it.
// Turned by a random number of rays, and for either player.
std::string passStart(std::mt19937_64& rng, const Rules& rules) {
    const std::string letters = rules.letters();
    const auto count = static_cast<unsigned>(letters.size());
    std::string twoSteppers;
    for (int c = 0; c < rules.creatureCount(); ++c)
        if (rules.ratings(static_cast<Creature>(c)).movement == 2) twoSteppers += letters[c];
    const bool second = (rng() & 1) != 0;  // player 2 on turn
    const int turn = static_cast<int>(rng() % 12);
    auto rotated = [turn](int index) {
        if (index == 0) return 0;
        const int ring = index <= 12 ? 0 : 12, ray = index - ring;
        return ring + (ray - 1 + turn) % 12 + 1;
    };
    std::array<char, Cell::kCount> cells;
    cells.fill('.');
    cells[rotated(13)] = ofPlayer(twoSteppers[rng() % twoSteppers.size()], second);  // c1
    for (const int wall : {0, 2, 12, 15, 23})  // a, b2, b12, c3, c11
        cells[rotated(wall)] = ofPlayer(letters[rng() % count], !second);
    for (const int extra : {5, 6, 7, 18, 19, 20})  // b5..b7, c6..c8: more enemies, maybe
        if (rng() & 1) cells[rotated(extra)] = ofPlayer(letters[rng() % count], !second);
    // One draw per statement: the operands of + are unsequenced, and compilers order them
    // differently, which would make the games depend on the compiler.
    const bool oneActionLeft = (rng() & 1) != 0;
    const auto quiet = rng() % 40;
    return cellsField(cells) + (second ? " 2 " : " 1 ") + (oneActionLeft ? "1 " : "2 ") +
           std::to_string(quiet) + " 1";
}

// Random games of 300 events seldom come down to one creature each where attacks are rare
// (Rays of Death: only into or out of the combat cell; KingOfTheCentre) or games end early
// (CentreWin). So one game in eight (an odd one, which Setup=arrange deals too) is a duel: it
// starts at 2 v 1 and takes an attack whenever one is legal.
bool duelGame(int game) {
    return game % 8 == 3;
}

// A duel's start: the lone creature in the centre (the combat cell of every other roll under
// Rays of Death), the two beside it on the inner ring and on turn with both actions, the quiet
// counter at 0. Player 1 and player 2 take turns at having the two.
std::string duelStart(std::mt19937_64& rng, const Rules& rules, int game) {
    const bool twoAreSecond = game % 16 == 11;
    const std::string letters = rules.letters();
    std::array<char, Cell::kCount> cells;
    cells.fill('.');
    const int ray = static_cast<int>(rng() % 12);
    const int otherRay = (ray + 1 + static_cast<int>(rng() % 11)) % 12;
    cells[0] = ofPlayer(letters[rng() % letters.size()], !twoAreSecond);  // a
    for (const int r : {ray, otherRay})
        cells[1 + r] = ofPlayer(letters[rng() % letters.size()], twoAreSecond);  // b<r + 1>
    const auto turn = 1 + rng() % 200;
    return cellsField(cells) + (twoAreSecond ? " 2 2 0 " : " 1 2 0 ") + std::to_string(turn);
}

// A random start: the standard one, a random deal, a random crowded board, or one where the
// player on turn must pass.
std::string randomStart(std::mt19937_64& rng, const Rules& rules, int game) {
    const std::string start = rules.startDfen();
    if (rules.arrange() && game % 2 == 0) {
        // Set-up pending: both reserves (startpos), or player 2's alone with player 1's
        // creatures already anywhere off player 2's home cells.
        if (game % 4 == 0) return start;
        const auto reserve = start.substr(start.rfind('/') + 1, 8);
        std::array<char, Cell::kCount> cells;
        cells.fill('.');
        for (int i = 0; i < 4; ++i) {
            int cell = 0;
            do
                cell = static_cast<int>(rng() % Cell::kCount);
            while (cells[cell] != '.' || (cell >= 20 && cell <= 23));
            cells[cell] = reserve[static_cast<std::size_t>(i)];
        }
        return cellsField(cells) + '/' + reserve.substr(4) + " 1 2 0 1";
    }
    if (game % 16 == 15) return passStart(rng, rules);
    if (duelGame(game) && !rules.arrange()) return duelStart(rng, rules, game);
    if (rules.arrange()) {
        // The other games as dealt: the same creatures on their start cells.
        RuleOptions dealt = rules.options();
        dealt.arrange = false;
        return randomStart(rng, Rules(dealt), game);
    }
    switch (game % 4) {
        case 0:
            return start;
        case 1: {
            // A deal: the eight creatures split four and four, in random order (a creature
            // set's eight start creatures).
            std::string letters(kCreatureLetters);
            if (rules.fromCreatureFile()) {
                letters.clear();
                for (int p = 0; p < 2; ++p)
                    for (const std::uint8_t c : rules.creatures().start(p))
                        letters += rules.letter(Piece(Player::One, static_cast<Creature>(c)));
            }
            std::shuffle(letters.begin(), letters.end(), rng);
            std::string dfen = start;
            const std::size_t outer = dfen.find('/', 2) + 1;  // c1
            for (int i = 0; i < 4; ++i) {
                dfen[outer + 1 + static_cast<std::size_t>(i)] = letters[i];
                dfen[outer + 7 + static_cast<std::size_t>(i)] = ofPlayer(letters[4 + i], true);
            }
            return dfen;
        }
        default: {
            // Crowded boards make blocked pushes, passes and boxed-in pieces common.
            std::array<char, Cell::kCount> cells;
            cells.fill('.');
            std::vector<int> order(Cell::kCount);
            for (int i = 0; i < Cell::kCount; ++i)
                order[i] = i;
            std::shuffle(order.begin(), order.end(), rng);
            // 4..24 pieces; every other crowded game 18 or more.
            const int pieces =
                game % 4 == 2 ? 4 + static_cast<int>(rng() % 21) : 18 + static_cast<int>(rng() % 7);
            for (int i = 0; i < pieces; ++i) {
                const std::string letters = rules.letters();
                const char upper = letters[rng() % letters.size()];
                // At least two pieces each, so that no game starts over.
                const bool second = i < 2 ? false : i < 4 ? true : (rng() & 1) != 0;
                cells[order[i]] = ofPlayer(upper, second);
            }
            std::string dfen = cellsField(cells);
            const int side = 1 + static_cast<int>(rng() & 1);
            dfen += side == 1 ? " 1 " : " 2 ";
            dfen += (rng() & 1) ? "1 " : "2 ";
            const int quietLimit = rules.drawTurns() > 0 ? 2 * rules.drawTurns() : 100;
            dfen += std::to_string(rng() % static_cast<unsigned>(quietLimit)) + ' ';
            dfen += std::to_string(1 + rng() % 200);
            if (rules.centreWin() > 0) {
                const auto n = static_cast<unsigned>(rules.centreWin());
                const unsigned own = static_cast<unsigned>(rng() % n);
                const unsigned other = static_cast<unsigned>(rng() % n);
                dfen += ' ' + std::to_string(side == 1 ? own : other) + '/' +
                        std::to_string(side == 1 ? other : own);
            }
            return dfen;
        }
    }
}

// Everything a caller can see of a position.
void checkSameState(const Position& a, const Position& b) {
    VERIFY(a.key() == b.key());
    VERIFY(a.result() == b.result());
    VERIFY(a.phase() == b.phase());
    VERIFY(a.decider() == b.decider());
    VERIFY(a.sideToMove() == b.sideToMove());
    VERIFY(a.actionsLeft() == b.actionsLeft());
    VERIFY(a.quiet() == b.quiet());
    VERIFY(a.turn() == b.turn());
    VERIFY(a.hold(Player::One) == b.hold(Player::One));
    VERIFY(a.hold(Player::Two) == b.hold(Player::Two));
    VERIFY(a.used() == b.used());
    VERIFY(a.combatCell() == b.combatCell());
    VERIFY(a.cycled() == b.cycled());
    VERIFY(a.pieces(Player::One) == b.pieces(Player::One));
    VERIFY(a.pieces(Player::Two) == b.pieces(Player::Two));
    for (int i = 0; i < Cell::kCount; ++i)
        VERIFY(a.at(Cell(i)) == b.at(Cell(i)));
}

// The per-node checks; returns the legal events.
// Rays of Death at a decision (docs/rules.md): marks only on creatures, never a whole
// army marked, used creatures act only when no unused one can, attacks into or out of the
// combat cell.
void checkRays(const Position& pos, const EventList& events) {
    const Bitboard own = pos.pieces(pos.sideToMove());
    VERIFY((pos.used() & ~pos.occupied()).empty());
    for (const Player p : {Player::One, Player::Two})
        VERIFY((pos.pieces(p).empty() || (pos.pieces(p) & ~pos.used()).any()));
    VERIFY(pos.cycled() != 3);
    bool usedActs = false, freshActs = false;
    for (const Event e : events) {
        if (e.kind() == EventKind::Pass) continue;
        VERIFY(own.has(e.from()));
        (pos.used().has(e.from()) ? usedActs : freshActs) = true;
        if (e.kind() == EventKind::Attack && pos.combatCell() != rays::kNoCombat)
            VERIFY((e.from().index() == pos.combatCell() || e.to().index() == pos.combatCell()));
    }
    VERIFY(!(usedActs && freshActs));
}

void checkNode(const Position& pos, EventList& events, bool full, bool deep) {
    VERIFY(pos.key() == pos.computeKey());

    // The board and the occupancy sets agree.
    const Bitboard one = pos.pieces(Player::One), two = pos.pieces(Player::Two);
    VERIFY((one & two).empty());
    for (int i = 0; i < Cell::kCount; ++i) {
        const Cell c(i);
        const Piece p = pos.at(c);
        VERIFY(p.isNone() == !pos.occupied().has(c));
        if (!p.isNone()) VERIFY(pos.pieces(p.owner()).has(c));
    }
    VERIFY((pos.actionsLeft() == 1 || pos.actionsLeft() == 2));
    // While a set-up is pending no end check is made (RULES §15.5).
    if (pos.phase() != Phase::Setup) {
        if (one.empty() || two.empty()) VERIFY(pos.isOver());
        if (one.count() == 1 && two.count() == 1) VERIFY(pos.result() == Result::Showdown);
    }

    pos.generate(events);
    VERIFY(pos.countEvents() == events.size());
    VERIFY(perft(pos, 1) == static_cast<std::uint64_t>(events.size()));
    VERIFY(events.empty() == pos.isOver());
    if (deep) {
        Position copy = pos;
        VERIFY(perftUnmake(copy, 2) == perft(pos, 2));
        VERIFY(copy == pos);
    }

    // Every event's token names it and parseEvent, which checks legality too, takes it back:
    // for every event at every eighth node (each call is a generation of its own), for the
    // event played at every node (in playGames).
    if (full) {
        for (const Event e : events) {
            VERIFY(pos.parseEvent(pos.token(e)) == e);
            VERIFY(Event::fromCode(e.code()) == e);
        }
    }
    // And refuse others: one arbitrary event per node, drawn from the key's bits.
    const std::uint64_t bits = pos.key() ^ (pos.key() >> 29);
    const Cell from(static_cast<int>(bits % Cell::kCount));
    const Cell to(static_cast<int>((bits >> 8) % Cell::kCount));
    const std::array<Event, 6> candidates = {Event::move(from, to),
                                             Event::attack(from, to),
                                             Event::place(from, to),
                                             Event::pass(),
                                             Event::outcome(static_cast<Outcome>((bits >> 16) & 3)),
                                             Event::roll(to)};
    const Event other = candidates[(bits >> 20) % candidates.size()];
    VERIFY(pos.isLegal(other) == events.contains(other));
    if (!events.contains(other) && other.kind() != EventKind::Place &&
        !(other.kind() == EventKind::Move && pos.phase() == Phase::Placement))
        VERIFY(!pos.parseEvent(other.token()).has_value());

    switch (pos.phase()) {
        case Phase::Decision:
            if (!pos.isOver()) VERIFY(pos.decider() == pos.sideToMove());
            for (const Event e : events)
                VERIFY((e.kind() == EventKind::Move || e.kind() == EventKind::Attack ||
                        e.kind() == EventKind::Pass));
            if (pos.rules().raysOfDeath() && !pos.isOver()) checkRays(pos, events);
            break;
        case Phase::Roll: {
            // The D4 and D12 (docs/rules.md): every cell, centre 24/48, any other 1/48.
            VERIFY(pos.rules().raysOfDeath());
            VERIFY(events.size() == rays::kRollOutcomes);
            double sum = 0;
            for (const Event e : events) {
                VERIFY(e.kind() == EventKind::Roll);
                VERIFY(pos.probability(e) == (e.to().isCentre() ? 0.5 : 1.0 / 48));
                sum += pos.probability(e);
            }
            VERIFY(std::abs(sum - 1.0) <= 1e-12);
            break;
        }
        case Phase::Outcome: {
            VERIFY(pos.pieces(pos.sideToMove()).has(pos.pendingFrom()));
            VERIFY(pos.pieces(opponent(pos.sideToMove())).has(pos.pendingTo()));
            double sum = 0;
            for (const Event e : events) {
                VERIFY(e.kind() == EventKind::Outcome);
                VERIFY(pos.probability(e) > 0);
                sum += pos.probability(e);
            }
            VERIFY(std::abs(sum - 1.0) <= 1e-12);
            break;
        }
        case Phase::Placement:
            // The pushed piece belongs to the player who does not place it.
            VERIFY(pos.occupied().has(pos.pendingFrom()));
            VERIFY(pos.at(pos.pendingFrom()).owner() != pos.decider());
            for (const Event e : events)
                VERIFY((e.kind() == EventKind::Place && e.from() == pos.pendingFrom()));
            break;
        case Phase::Setup: {
            // Player 1 first; the one setting up has nothing on the board yet; every
            // arrangement is distinct and each home cell is empty.
            VERIFY(pos.hasReserve(pos.decider()));
            VERIFY((pos.decider() == Player::One || !pos.hasReserve(Player::One)));
            VERIFY(pos.pieces(pos.decider()).empty());
            VERIFY(!pos.isOver());
            std::vector<std::string> tokens;
            for (const Event e : events) {
                VERIFY(e.kind() == EventKind::Setup);
                tokens.push_back(pos.token(e));
            }
            std::sort(tokens.begin(), tokens.end());
            VERIFY(std::adjacent_find(tokens.begin(), tokens.end()) == tokens.end());
            for (int i = 0; i < 4; ++i)
                VERIFY(!pos.occupied().has(Position::homeCell(pos.decider(), i)));
            break;
        }
    }

    // Every decision point's DFEN names this very position.
    if (pos.phase() == Phase::Decision || pos.phase() == Phase::Setup ||
        pos.phase() == Phase::Roll) {
        std::string error;
        const std::string dfen = pos.dfen();
        const auto again = Position::fromDfen(dfen, pos.rules(), &error);
        if (!again) FAIL(dfen << ": " << error);
        VERIFY(again->dfen() == dfen);
        VERIFY(again->key() == pos.key());
        checkSameState(*again, pos);
    }
}

// The rules of one event: what changes and what does not.
void checkTransition(const Position& parent, Event e, const Position& child) {
    const Rules& rules = parent.rules();
    switch (e.kind()) {
        case EventKind::Move:
        case EventKind::Pass:
            VERIFY(child.quiet() == parent.quiet() + 1);
            break;
        case EventKind::Attack:
            VERIFY(child.quiet() == 0u);
            VERIFY(child.phase() == Phase::Outcome);
            if (rules.centreWin() > 0) VERIFY(child.hold(opponent(parent.sideToMove())) == 0u);
            break;
        case EventKind::Outcome:
        case EventKind::Place:
            VERIFY(child.quiet() == parent.quiet());
            break;
        case EventKind::Setup:
            // No action: only the board and the reserve change.
            VERIFY(child.quiet() == parent.quiet());
            VERIFY(child.sideToMove() == parent.sideToMove());
            VERIFY(child.actionsLeft() == parent.actionsLeft());
            VERIFY(!child.hasReserve(parent.decider()));
            VERIFY(child.pieces(parent.decider()).count() == 4);
            break;
        case EventKind::Roll:
            // No action: the combat cell changes, nothing else the rules count.
            VERIFY(child.quiet() == parent.quiet());
            VERIFY(child.combatCell() == e.to().index());
            VERIFY(child.phase() == Phase::Decision);
            VERIFY(child.used() == parent.used());
            break;
        case EventKind::CaptureMove:
            FAIL("a Courtier event in Dejarik");
            break;
        case EventKind::None:
            FAIL("None generated");
    }
    // A turn ends (and the next begins) exactly when the side to move changes.
    if (child.sideToMove() != parent.sideToMove()) {
        VERIFY(child.turn() == parent.turn() + 1);
        VERIFY(child.actionsLeft() == 2);
        VERIFY(parent.actionsLeft() == 1);
    } else {
        VERIFY(child.turn() == parent.turn());
    }
    // Only the player whose turn just ended has their hold counter updated.
    if (rules.centreWin() > 0 && e.kind() != EventKind::Attack) {
        const Player mover = parent.sideToMove();
        VERIFY(child.hold(opponent(mover)) == parent.hold(opponent(mover)));
        if (child.sideToMove() == mover) VERIFY(child.hold(mover) == parent.hold(mover));
    }
    if (rules.centreWin() == 0) {
        VERIFY(child.hold(Player::One) == parent.hold(Player::One));
        VERIFY(child.hold(Player::Two) == parent.hold(Player::Two));
    }
}

void playGames(const Variant& v, std::uint64_t seed) {
    const Rules rules = makeRules(v);
    std::mt19937_64 rng(seed);
    Coverage cov;
    std::uint64_t nodes = 0;
    for (int game = 0; game < v.games(); ++game) {
        const std::string startDfen = randomStart(rng, rules, game);
        CAPTURE(startDfen);
        CAPTURE(game);
        std::string error;
        const auto start = Position::fromDfen(startDfen, rules, &error);
        if (!start) FAIL(startDfen << ": " << error);

        Position pos = *start;
        // The same game played in place by make/unmake, with its undo records.
        Position live = *start;
        std::vector<Position> history;
        std::vector<std::pair<Event, Position::Undo>> undos;
        std::string moves;
        EventList events;
        for (int ply = 0;; ++ply) {
            CAPTURE(moves);
            ++nodes;
            checkNode(pos, events, nodes % 8 == 0, nodes % 97 == 0);
            if (pos.isOver() || ply == kMaxEvents) break;

            // Decisions uniformly (a duel's attacks first); outcomes uniformly over the
            // possible ones too, so that unlikely outcomes are played as often as likely ones.
            Event e = events[static_cast<int>(rng() % events.size())];
            if (duelGame(game)) {
                std::vector<Event> attacks;
                for (const Event a : events)
                    if (a.kind() == EventKind::Attack) attacks.push_back(a);
                if (!attacks.empty()) e = attacks[rng() % attacks.size()];
            }
            VERIFY(pos.parseEvent(pos.token(e)) == e);
            moves += pos.token(e) + ' ';

            const Position parent = pos;
            Position child = pos;
            child.apply(e);
            VERIFY(pos == parent);  // copy-make leaves the parent alone

            history.push_back(live);
            undos.emplace_back(e, Position::Undo{});
            live.apply(e, undos.back().second);
            VERIFY(live == child);

            checkTransition(parent, e, child);
            if (e.kind() == EventKind::Outcome) {
                ++cov.outcomes[static_cast<int>(e.outcome())];
                const bool pushed =
                    e.outcome() == Outcome::Push || e.outcome() == Outcome::CounterPush;
                if (pushed && child.phase() != Phase::Placement) ++cov.blockedPushes;
            }
            if (e.kind() == EventKind::Place) {
                ++cov.placements;
                if (pos.decider() != pos.sideToMove()) ++cov.placementsByOpponent;
            }
            if (e.kind() == EventKind::Pass) ++cov.passes;
            if (e.kind() == EventKind::Setup) ++cov.setups;
            if (e.kind() == EventKind::Roll) ++cov.rolls;
            pos = child;
        }
        ++cov.results[static_cast<int>(pos.result())];
        const bool bothStand = pos.pieces(Player::One).any() && pos.pieces(Player::Two).any();
        if (bothStand &&
            (pos.result() == Result::Player1Wins || pos.result() == Result::Player2Wins))
            ++cov.centreWins;

        // Take the whole game back by undo, one event at a time.
        VERIFY(live == pos);
        while (!undos.empty()) {
            live.undo(undos.back().first, undos.back().second);
            VERIFY(live == history.back());
            undos.pop_back();
            history.pop_back();
        }
        VERIFY(live == *start);
    }

    // The games reached every rule the variant has.
    for (const int n : cov.outcomes)
        CHECK(n > 0);
    CHECK(cov.placements > 0);
    CHECK(cov.placementsByOpponent > 0);
    CHECK(cov.blockedPushes > 0);
    CHECK(cov.passes > 0);
    CHECK(cov.results[static_cast<int>(Result::Showdown)] > 0);
    CHECK(cov.results[static_cast<int>(Result::Draw)] > 0);
    CHECK(cov.results[static_cast<int>(Result::Player1Wins)] > 0);
    CHECK(cov.results[static_cast<int>(Result::Player2Wins)] > 0);
    CHECK((cov.centreWins > 0) == (rules.centreWin() > 0));
    CHECK((cov.setups > 0) == rules.arrange());
    CHECK((cov.rolls > 0) == rules.raysOfDeath());
}

}  // namespace

TEST_CASE("random games: invariants at every event, every ruleset and option variant") {
    std::uint64_t seed = 0x5EED;
    for (const Variant& v : variants()) {
        SUBCASE(v.name) {
            playGames(v, seed);
        }
        ++seed;
    }
}
