#include "position.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <vector>

#include "courtier.h"
#include "dfen_fields.h"
#include "movegen.h"
#include "text.h"
#include "zobrist.h"

namespace dejarik {

std::vector<Creature> Position::army(Player p) const {
    std::vector<Creature> out;
    for (const Cell c : pieces(p))
        out.push_back(at(c).creature());
    return out;
}

namespace {

using dfen::fail;
using dfen::parseCount;

using zobrist::kKeys;

std::uint64_t holdKey(Player p, std::uint32_t value) {
    return kKeys.hold[index(p)][value < zobrist::kHoldLimit ? value : zobrist::kHoldLimit - 1];
}

std::string playerName(Player p) {
    return p == Player::One ? "player 1" : "player 2";
}

// Every distinct arrangement of a sorted reserve as Event::setup slots, in lexicographic
// order of the creatures; duplicates take their slots in order, so each arrangement has
// one code.
template <typename Visit>
void forEachArrangement(const std::array<std::uint8_t, 4>& reserve, Visit&& visit) {
    // ints, not bytes: g++ 12 at -O3 reports a false stringop-overflow in next_permutation's
    // swaps of a byte array.
    std::array<int, 4> order{reserve[0], reserve[1], reserve[2], reserve[3]};
    do {
        std::uint8_t slots = 0;
        std::uint8_t used = 0;
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j)
                if (!(used & (1u << j)) && reserve[j] == order[i]) {
                    used |= static_cast<std::uint8_t>(1u << j);
                    slots |= static_cast<std::uint8_t>(j << (2 * i));
                    break;
                }
        visit(slots);
    } while (std::next_permutation(order.begin(), order.end()));
}

}  // namespace

std::string_view Position::startDfen(Ruleset ruleset) {
    if (ruleset == Ruleset::Courtier) return courtier::kStartDfen;
    return ruleset == Ruleset::Holochess ? "./............/.SGNL..mhtk. 1 2 0 1"
                                         : "./............/.GHSN..mltk. 1 2 0 1";
}

Position Position::startpos(const Rules& rules) {
    // Start strings are valid by construction: a set's start line names its own creatures.
    return *fromDfen(rules.startDfen(), rules);
}

std::optional<Position> Position::fromDfen(std::string_view dfen, const Rules& rules,
                                           std::string* error) {
    if (rules.courtier()) return fromCourtierDfen(dfen, rules, error);
    Position pos(rules);
    auto f = text::fields(dfen);
    // Rays of Death's field comes last (docs/rules.md "DFEN").
    std::optional<std::string_view> raysField;
    if (f.size() >= 6 && f.back().starts_with("rays:")) {
        raysField = f.back();
        f.pop_back();
    }
    if (f.size() != 5 && f.size() != 6) {
        fail(error,
             "DFEN: expected 5 or 6 fields (cells side actions quiet turn [holds]) and an "
             "optional rays: field, got " +
                 std::to_string(f.size() + (raysField ? 1 : 0)));
        return std::nullopt;
    }
    if (raysField && !rules.raysOfDeath()) {
        fail(error, "DFEN rays: the rays: field needs RaysOfDeath=true");
        return std::nullopt;
    }

    auto rings = text::split(f[0], '/');
    if ((rings.size() != 3 && rings.size() != 4) || rings[0].size() != 1 || rings[1].size() != 12 ||
        rings[2].size() != 12) {
        fail(error, "DFEN cells: expected 1/12/12 cells and an optional /reserve, got " +
                        text::quoted(f[0]));
        return std::nullopt;
    }
    std::optional<std::string_view> reserveField;
    if (rings.size() == 4) {
        reserveField = rings[3];
        rings.pop_back();
    }
    int cellIndex = 0;
    for (const auto ring : rings) {
        for (const char ch : ring) {
            if (ch != '.') {
                const auto piece = rules.pieceOf(ch);
                if (!piece) {
                    fail(error, std::string("DFEN cells: '") + ch + "' on " +
                                    Cell(cellIndex).name() + " is not a creature letter (" +
                                    rules.letters() + ", " + text::lowerCase(rules.letters()) +
                                    ") or '.'");
                    return std::nullopt;
                }
                pos.put(Cell(cellIndex), *piece);
            }
            ++cellIndex;
        }
    }
    // The reserve (RULES §15.4): 0 or 4 creatures a player, whose home cells are empty and
    // who has nothing on the board yet.
    if (reserveField) {
        if (reserveField->empty()) {
            fail(error, "DFEN reserve: the fourth part is empty");
            return std::nullopt;
        }
        std::array<std::vector<std::uint8_t>, 2> held;
        for (const char ch : *reserveField) {
            const auto piece = rules.pieceOf(ch);
            if (!piece) {
                fail(error, std::string("DFEN reserve: '") + ch + "' is not a creature letter (" +
                                rules.letters() + ", " + text::lowerCase(rules.letters()) + ")");
                return std::nullopt;
            }
            held[index(piece->owner())].push_back(static_cast<std::uint8_t>(piece->creature()));
        }
        for (const Player p : {Player::One, Player::Two}) {
            auto& h = held[index(p)];
            if (h.empty()) continue;
            if (h.size() != 4) {
                fail(error, "DFEN reserve: " + playerName(p) + " has " + std::to_string(h.size()) +
                                " creatures in reserve, expected 0 or 4");
                return std::nullopt;
            }
            if (pos.pieces(p).any()) {
                fail(error, "DFEN reserve: " + playerName(p) +
                                " has creatures both in reserve and on the board");
                return std::nullopt;
            }
            for (int i = 0; i < 4; ++i)
                if (pos.occupied().has(homeCell(p, i))) {
                    fail(error, "DFEN reserve: " + playerName(p) + "'s home cell " +
                                    homeCell(p, i).name() + " is not empty");
                    return std::nullopt;
                }
            std::sort(h.begin(), h.end());
            std::copy(h.begin(), h.end(), pos.st_.reserve[index(p)].begin());
        }
    }
    const bool setupPending = pos.hasReserve(Player::One) || pos.hasReserve(Player::Two);
    // Creatures in reserve count as pieces (RULES §15.4).
    if (pos.occupied().empty() && !setupPending) {
        fail(error, "DFEN cells: no pieces on the board");
        return std::nullopt;
    }

    if (f[1] != "1" && f[1] != "2") {
        fail(error, "DFEN side: expected 1 or 2, got " + text::quoted(f[1]));
        return std::nullopt;
    }
    pos.st_.side = f[1] == "1" ? Player::One : Player::Two;
    if (f[2] != "1" && f[2] != "2") {
        fail(error, "DFEN actions: expected 1 or 2, got " + text::quoted(f[2]));
        return std::nullopt;
    }
    pos.st_.actions = static_cast<std::uint8_t>(f[2][0] - '0');
    const auto clocks = dfen::parseClocks(f[3], f[4], error);
    if (!clocks) return std::nullopt;
    pos.st_.quiet = clocks->quiet;
    pos.st_.turn = clocks->turn;
    if (f.size() == 6) {
        const auto holds = text::split(f[5], '/');
        const auto h1 = holds.size() == 2 ? parseCount(holds[0]) : std::nullopt;
        const auto h2 = holds.size() == 2 ? parseCount(holds[1]) : std::nullopt;
        if (!h1 || !h2) {
            fail(error, "DFEN holds: expected <hold1>/<hold2>, got " + text::quoted(f[5]));
            return std::nullopt;
        }
        pos.st_.hold = {*h1, *h2};
    }
    const int centreWin = rules.centreWin();
    if (centreWin > 0 && pos.hold(pos.st_.side) >= static_cast<std::uint32_t>(centreWin)) {
        fail(error, "DFEN holds: the player on turn cannot hold a won counter (" +
                        std::to_string(pos.hold(pos.st_.side)) + " >= CentreWin " +
                        std::to_string(centreWin) + ")");
        return std::nullopt;
    }
    pos.st_.decider = pos.st_.side;
    if (raysField && setupPending) {
        fail(error, "DFEN rays: no rays: field while a set-up is pending");
        return std::nullopt;
    }
    if (raysField && !pos.parseRaysField(*raysField, error)) return std::nullopt;
    if (setupPending) {
        // A set-up-pending DFEN is the start of a game; no end check is made yet (§15.5).
        if (pos.st_.side != Player::One || pos.st_.actions != 2 || pos.st_.quiet != 0 ||
            pos.st_.turn != 1 || pos.st_.hold != std::array<std::uint32_t, 2>{}) {
            fail(error,
                 "DFEN reserve: a set-up is pending, so the other fields must read "
                 "'1 2 0 1' with no hold counters but 0/0");
            return std::nullopt;
        }
        pos.st_.phase = Phase::Setup;
        pos.st_.decider = pos.hasReserve(Player::One) ? Player::One : Player::Two;
        pos.st_.key = pos.computeKey();
        return pos;
    }

    // A finished game is a valid, terminal position (RULES §11).
    const int n1 = pos.pieces(Player::One).count(), n2 = pos.pieces(Player::Two).count();
    if (n1 == 0) {
        pos.st_.result = Result::Player2Wins;
    } else if (n2 == 0) {
        pos.st_.result = Result::Player1Wins;
    } else if (n1 == 1 && n2 == 1) {
        pos.st_.result = Result::Showdown;
    } else if (centreWin > 0 &&
               pos.hold(opponent(pos.st_.side)) >= static_cast<std::uint32_t>(centreWin)) {
        pos.st_.result = pos.st_.side == Player::One ? Result::Player2Wins : Result::Player1Wins;
    } else if (rules.drawTurns() > 0 &&
               pos.st_.quiet >= 2 * static_cast<std::uint32_t>(rules.drawTurns())) {
        pos.st_.result = Result::Draw;
    }
    pos.st_.key = pos.computeKey();
    return pos;
}

std::string Position::dfen() const {
    std::string s;
    for (int i = 0; i < Cell::kCount; ++i) {
        if (i == 1 || i == 13) s += '/';
        s += rules_->letter(board_[i]);
    }
    s += ' ';
    s += st_.side == Player::One ? '1' : '2';
    s += ' ';
    s += static_cast<char>('0' + st_.actions);
    s += ' ' + std::to_string(st_.quiet) + ' ' + std::to_string(st_.turn);
    if (st_.phase == Phase::Setup) {
        // Player 1's reserve, then player 2's, each in creature-table order (§15.4).
        s.insert(s.find(' '), "/");
        std::string letters;
        for (const Player p : {Player::One, Player::Two})
            if (hasReserve(p))
                for (const std::uint8_t c : reserve(p))
                    letters += rules_->letter(Piece(p, static_cast<Creature>(c)));
        s.insert(s.find(' '), letters);
    }
    if (st_.hold[0] != 0 || st_.hold[1] != 0)
        s += ' ' + std::to_string(st_.hold[0]) + '/' + std::to_string(st_.hold[1]);
    if (rules_->raysOfDeath()) {
        const std::string rays = raysField();
        if (rays != "rays:-/-/-") s += ' ' + rays;
    }
    return s;
}

double Position::winProbability(Player p) const {
    switch (st_.result) {
        case Result::Player1Wins:
            return p == Player::One ? 1.0 : 0.0;
        case Result::Player2Wins:
            return p == Player::Two ? 1.0 : 0.0;
        case Result::Showdown: {
            const auto& s = rules_->showdown(at(pieces(Player::One).first()).creature(),
                                             at(pieces(Player::Two).first()).creature());
            return p == Player::One ? s.p1Wins : s.p2Wins;
        }
        case Result::Draw:
        case Result::Ongoing:
            return 0.0;
    }
    return 0.0;
}

std::uint64_t Position::computeKey() const {
    std::uint64_t k = 0;
    for (int i = 0; i < Cell::kCount; ++i)
        if (!board_[i].isNone()) k ^= kKeys.piece[board_[i].index()][i];
    if (st_.side == Player::Two) k ^= kKeys.sideTwo;
    if (st_.actions == 1) k ^= kKeys.oneActionLeft;
    if (st_.phase == Phase::Outcome)
        k ^= kKeys.pendingAttack[st_.pendingFrom.index()][st_.pendingTo.index()];
    if (st_.phase == Phase::Placement)
        k ^= kKeys.pendingPlacement[index(st_.decider)][st_.pendingFrom.index()];
    if (rules_->centreWin() > 0)
        k ^= holdKey(Player::One, st_.hold[0]) ^ holdKey(Player::Two, st_.hold[1]);
    return k ^ reserveKey(Player::One) ^ reserveKey(Player::Two) ^ raysKey();
}

std::uint64_t Position::reserveKey(Player p) const {
    std::uint64_t k = 0;
    if (hasReserve(p))
        for (int i = 0; i < 4; ++i)
            k ^= kKeys.reserve[index(p)][i][st_.reserve[index(p)][i]];
    return k;
}

const Rules::Combat& Position::pendingCombat() const {
    return rules_->combat(at(st_.pendingFrom).creature(), at(st_.pendingTo).creature());
}

void Position::generate(EventList& out) const {
    out.clear();
    if (isOver()) return;
    if (rules_->courtier()) return generateCourtier(out);
    const Bitboard empty = emptyCells();
    switch (st_.phase) {
        case Phase::Decision: {
            const Bitboard own = rules_->raysOfDeath() ? actors() : pieces(st_.side);
            const Bitboard enemies = pieces(opponent(st_.side));
            const bool straight = rules_->centreStraight();
            for (const Cell from : own) {
                const int steps = rules_->ratings(at(from).creature()).movement;
                for (const Cell to : movegen::destinations(from, steps, empty, straight))
                    out.push(Event::move(from, to));
            }
            for (const Cell from : own)
                for (const Cell to : movegen::attackTargets(from, enemies, *rules_) &
                                         rays::allowedTargets(from, st_.combat))
                    out.push(Event::attack(from, to));
            if (out.empty()) out.push(Event::pass());
            return;
        }
        case Phase::Roll:
            for (int c = 0; c < Cell::kCount; ++c)
                out.push(Event::roll(Cell(c)));
            return;
        case Phase::Outcome: {
            const std::uint8_t mask = pendingCombat().mask;
            for (const Outcome o : kOutcomes)
                if (mask & (1u << static_cast<int>(o))) out.push(Event::outcome(o));
            return;
        }
        case Phase::Placement:
            for (const Cell to : board::adjacent(st_.pendingFrom) & empty)
                out.push(Event::place(st_.pendingFrom, to));
            return;
        case Phase::Setup:
            forEachArrangement(reserve(st_.decider),
                               [&](std::uint8_t slots) { out.push(Event::setup(slots)); });
            return;
    }
}

int Position::countEvents() const {
    if (isOver()) return 0;
    if (rules_->courtier()) return countCourtier();
    const Bitboard empty = emptyCells();
    switch (st_.phase) {
        case Phase::Decision: {
            const Bitboard own = rules_->raysOfDeath() ? actors() : pieces(st_.side);
            const Bitboard enemies = pieces(opponent(st_.side));
            const bool straight = rules_->centreStraight();
            // The combat cell's mask, hoisted out of perft's hottest loop: the targets of an
            // attacker off the cell; the one on it (which its own mask would leave none)
            // attacks freely, added after.
            const bool combat = st_.combat != rays::kNoCombat;
            const Bitboard targetMask = combat ? Bitboard::of(Cell(st_.combat)) : Bitboard::all();
            int n = 0;
            for (const Cell from : own) {
                const int steps = rules_->ratings(at(from).creature()).movement;
                n += movegen::destinations(from, steps, empty, straight).count();
                n += (movegen::attackTargets(from, enemies, *rules_) & targetMask).count();
            }
            if (combat && own.has(Cell(st_.combat)))
                n += movegen::attackTargets(Cell(st_.combat), enemies, *rules_).count();
            return n == 0 ? 1 : n;
        }
        case Phase::Roll:
            return rays::kRollOutcomes;
        case Phase::Outcome:
            return pendingCombat().outcomeCount;
        case Phase::Placement:
            return (board::adjacent(st_.pendingFrom) & empty).count();
        case Phase::Setup: {
            int n = 0;
            forEachArrangement(reserve(st_.decider), [&](std::uint8_t) { ++n; });
            return n;
        }
    }
    return 0;
}

bool Position::isLegal(Event e) const {
    EventList list;
    generate(list);
    return list.contains(e);
}

std::optional<Event> Position::parseEvent(std::string_view token) const {
    if (token.size() == 10 && text::equalIgnoringCase(token.substr(0, 6), "setup:")) {
        if (st_.phase != Phase::Setup || isOver()) return std::nullopt;
        const auto& r = reserve(st_.decider);
        std::uint8_t slots = 0, used = 0;
        for (int i = 0; i < 4; ++i) {
            const char ch = token[6 + static_cast<std::size_t>(i)];
            const char upper = ch >= 'a' && ch <= 'z' ? static_cast<char>(ch - 'a' + 'A') : ch;
            const auto piece = rules_->pieceOf(upper);
            if (!piece) return std::nullopt;
            int slot = 0;
            while (slot < 4 && ((used & (1u << slot)) ||
                                r[slot] != static_cast<std::uint8_t>(piece->creature())))
                ++slot;
            if (slot == 4) return std::nullopt;
            used |= static_cast<std::uint8_t>(1u << slot);
            slots |= static_cast<std::uint8_t>(slot << (2 * i));
        }
        return Event::setup(slots);
    }
    auto e = Event::parse(token);
    if (!e) return std::nullopt;
    if (st_.phase == Phase::Placement && e->kind() == EventKind::Move)
        *e = Event::place(e->from(), e->to());
    if (!isLegal(*e)) return std::nullopt;
    return e;
}

std::string Position::token(Event e) const {
    if (e.kind() != EventKind::Setup || st_.phase != Phase::Setup) return e.token();
    std::string s = "setup:";
    const auto& r = reserve(st_.decider);
    for (int i = 0; i < 4; ++i)
        s += rules_->letter(
            Piece(Player::Two, static_cast<Creature>(r[(e.slots() >> (2 * i)) & 3])));
    return s;
}

double Position::probability(Event outcome) const {
    if (st_.phase == Phase::Roll) return rays::rollProbability(outcome.to());
    return pendingCombat().probability[static_cast<int>(outcome.outcome())];
}

void Position::put(Cell c, Piece p) {
    board_[c.index()] = p;
    occupancy_[index(p.owner())] |= Bitboard::of(c);
    st_.key ^= kKeys.piece[p.index()][c.index()];
}

void Position::remove(Cell c) {
    // A dead creature leaves its cycle (Rays of Death).
    if (st_.used.has(c)) setUsed(st_.used ^ Bitboard::of(c));
    const Piece p = board_[c.index()];
    board_[c.index()] = Piece::none();
    occupancy_[index(p.owner())] ^= Bitboard::of(c);
    st_.key ^= kKeys.piece[p.index()][c.index()];
}

void Position::relocate(Cell from, Cell to) {
    const Piece p = board_[from.index()];
    const bool marked = st_.used.has(from);  // the mark goes with the creature
    remove(from);
    put(to, p);
    if (marked) setUsed(st_.used | Bitboard::of(to));
}

void Position::setActions(int n) {
    if ((st_.actions == 1) != (n == 1)) st_.key ^= kKeys.oneActionLeft;
    st_.actions = static_cast<std::uint8_t>(n);
}

void Position::setHold(Player p, std::uint32_t value) {
    st_.key ^= holdKey(p, st_.hold[index(p)]) ^ holdKey(p, value);
    st_.hold[index(p)] = value;
}

void Position::apply(Event e) {
    if (rules_->courtier()) {
        (void)applyCourtier(e);
        return;
    }
    switch (e.kind()) {
        case EventKind::Move:
            if (rules_->raysOfDeath()) activate(e.from());
            relocate(e.from(), e.to());
            ++st_.quiet;
            endAction();
            return;
        case EventKind::Pass:
            ++st_.quiet;
            endAction();
            return;
        case EventKind::Attack:
            if (rules_->raysOfDeath()) activate(e.from());
            st_.quiet = 0;
            // Any attack on a player's piece breaks that player's hold (RULES §8.3).
            if (rules_->centreWin() > 0) setHold(opponent(st_.side), 0);
            st_.phase = Phase::Outcome;
            st_.pendingFrom = e.from();
            st_.pendingTo = e.to();
            st_.key ^= kKeys.pendingAttack[st_.pendingFrom.index()][st_.pendingTo.index()];
            return;
        case EventKind::Outcome: {
            st_.key ^= kKeys.pendingAttack[st_.pendingFrom.index()][st_.pendingTo.index()];
            st_.phase = Phase::Decision;
            switch (e.outcome()) {
                case Outcome::Kill:
                    remove(st_.pendingTo);
                    break;
                case Outcome::CounterKill:
                    remove(st_.pendingFrom);
                    break;
                case Outcome::Push:
                    resolvePush(st_.pendingTo, st_.side, false);
                    return;
                case Outcome::CounterPush:
                    resolvePush(st_.pendingFrom, opponent(st_.side), true);
                    return;
            }
            endAction();
            return;
        }
        case EventKind::Place:
            st_.key ^= kKeys.pendingPlacement[index(st_.decider)][st_.pendingFrom.index()];
            relocate(e.from(), e.to());
            st_.phase = Phase::Decision;
            st_.decider = st_.side;
            endAction();
            return;
        case EventKind::Setup:
            applySetup(e);
            return;
        case EventKind::Roll:
            st_.key ^= kKeys.rollDue;
            st_.phase = Phase::Decision;
            setCombat(static_cast<std::uint8_t>(e.to().index()));
            st_.decider = st_.side;
            return;
        case EventKind::CaptureMove:
        case EventKind::None:
            return;
    }
}

// The decider's reserve goes to its home cells; then the other player sets up, or the game
// starts with its end checks (§15.5). Set-ups are no actions: counters stay as they are.
void Position::applySetup(Event e) {
    const Player p = st_.decider;
    const std::array<std::uint8_t, 4> r = reserve(p);
    st_.key ^= reserveKey(p);
    st_.reserve[index(p)].fill(kNoReserve);
    for (int i = 0; i < 4; ++i)
        put(homeCell(p, i), Piece(p, static_cast<Creature>(r[(e.slots() >> (2 * i)) & 3])));
    if (hasReserve(opponent(p))) {
        st_.decider = opponent(p);
        return;
    }
    st_.phase = Phase::Decision;
    st_.decider = st_.side;
    checkEnd(false);
}

void Position::apply(Event e, Undo& saved) {
    saved.state = st_;
    if (rules_->courtier()) {
        saved.attacker = e.kind() == EventKind::Pass ? Piece::none() : at(e.from());
        const CourtierStep step = applyCourtier(e);
        saved.defender = step.capturedPiece;
        saved.captured = step.captured;
        return;
    }
    if (e.kind() == EventKind::Outcome) {
        saved.attacker = at(st_.pendingFrom);
        saved.defender = at(st_.pendingTo);
    }
    apply(e);
}

void Position::undo(Event e, const Undo& saved) {
    if (rules_->courtier()) {
        // Raw board edits: the key comes back whole from `saved`. The mover may have left
        // the board in a double capture, so it is put back from `saved`, not walked back.
        if (e.kind() != EventKind::Pass) {
            const Player mover = saved.attacker.owner();
            if (!board_[e.to().index()].isNone()) occupancy_[index(mover)] ^= Bitboard::of(e.to());
            board_[e.to().index()] = Piece::none();
            board_[e.from().index()] = saved.attacker;
            occupancy_[index(mover)] |= Bitboard::of(e.from());
            if (!saved.defender.isNone()) {
                board_[saved.captured.index()] = saved.defender;
                occupancy_[index(saved.defender.owner())] |= Bitboard::of(saved.captured);
            }
        }
        st_ = saved.state;
        return;
    }
    switch (e.kind()) {
        case EventKind::Move:
        case EventKind::Place: {
            // Raw board edits: the key comes back whole from `saved`.
            const Piece p = board_[e.to().index()];
            board_[e.from().index()] = p;
            board_[e.to().index()] = Piece::none();
            occupancy_[index(p.owner())] ^= Bitboard::of(e.from()) | Bitboard::of(e.to());
            break;
        }
        case EventKind::Outcome:
            // Both combatants stood on their cells when the outcome was drawn; at most one
            // of them is gone now, and pushes have not moved anything yet.
            board_[saved.state.pendingFrom.index()] = saved.attacker;
            board_[saved.state.pendingTo.index()] = saved.defender;
            occupancy_[index(saved.attacker.owner())] |= Bitboard::of(saved.state.pendingFrom);
            occupancy_[index(saved.defender.owner())] |= Bitboard::of(saved.state.pendingTo);
            break;
        case EventKind::Setup: {
            const Player p = saved.state.decider;
            for (int i = 0; i < 4; ++i) {
                board_[homeCell(p, i).index()] = Piece::none();
                occupancy_[index(p)] ^= Bitboard::of(homeCell(p, i));
            }
            break;
        }
        case EventKind::Attack:
        case EventKind::Pass:
        case EventKind::CaptureMove:
        case EventKind::Roll:
        case EventKind::None:
            break;
    }
    st_ = saved.state;
}

void Position::resolvePush(Cell pushed, Player decider, bool counter) {
    if ((board::adjacent(pushed) & emptyCells()).empty()) {
        const BlockedPush policy = rules_->blockedPush();
        if (policy == BlockedPush::Kill || (policy == BlockedPush::KillOnPush && !counter))
            remove(pushed);
        endAction();
        return;
    }
    st_.phase = Phase::Placement;
    st_.pendingFrom = pushed;
    st_.decider = decider;
    st_.key ^= kKeys.pendingPlacement[index(decider)][pushed.index()];
}

void Position::endAction() {
    setActions(st_.actions - 1);
    const bool turnEnded = st_.actions == 0;
    checkEnd(turnEnded);
    if (turnEnded) {
        st_.side = opponent(st_.side);
        st_.key ^= kKeys.sideTwo;
        setActions(2);
        // Saturates: a wrapped counter would print as turn 0, which no DFEN accepts.
        if (st_.turn != UINT32_MAX) ++st_.turn;
    }
    st_.decider = st_.side;
    if (rules_->raysOfDeath()) endCycles();
}

// RULES §8, in its order: no pieces, showdown, CentreWin, quiet draw.
void Position::checkEnd(bool turnEnded) {
    const int n1 = pieces(Player::One).count(), n2 = pieces(Player::Two).count();
    if (n1 == 0 || n2 == 0) {
        st_.result = n1 == 0 ? Result::Player2Wins : Result::Player1Wins;
        return;
    }
    if (n1 == 1 && n2 == 1) {
        st_.result = Result::Showdown;
        return;
    }
    const int centreWin = rules_->centreWin();
    if (turnEnded && centreWin > 0) {
        const std::uint32_t h = pieces(st_.side).has(Cell::centre()) ? hold(st_.side) + 1 : 0;
        setHold(st_.side, h);
        if (h >= static_cast<std::uint32_t>(centreWin)) {
            st_.result = st_.side == Player::One ? Result::Player1Wins : Result::Player2Wins;
            return;
        }
    }
    if (rules_->drawTurns() > 0 && st_.quiet >= 2 * static_cast<std::uint32_t>(rules_->drawTurns()))
        st_.result = Result::Draw;
}

bool Position::operator==(const Position& o) const {
    // The pending cells mean something only while an outcome or a placement is due.
    const bool pendingSame = st_.phase == Phase::Decision ||
                             (st_.pendingFrom == o.st_.pendingFrom &&
                              (st_.phase != Phase::Outcome || st_.pendingTo == o.st_.pendingTo));
    return rules_ == o.rules_ && st_.key == o.st_.key && board_ == o.board_ &&
           st_.side == o.st_.side && st_.actions == o.st_.actions && st_.phase == o.st_.phase &&
           st_.decider == o.st_.decider && pendingSame && st_.result == o.st_.result &&
           occupancy_ == o.occupancy_ && st_.quiet == o.st_.quiet && st_.turn == o.st_.turn &&
           st_.hold == o.st_.hold && st_.reserve == o.st_.reserve && st_.used == o.st_.used &&
           st_.combat == o.st_.combat && st_.cycled == o.st_.cycled;
}

std::optional<Position> playTokens(Position pos, std::string_view tokens, std::string* error) {
    int n = 0;
    for (const auto token : text::fields(tokens)) {
        ++n;
        if (pos.isOver()) {
            fail(error, "event " + std::to_string(n) + " " + text::quoted(token) +
                            ": the game is already over");
            return std::nullopt;
        }
        const auto e = pos.parseEvent(token);
        if (!e) {
            const bool known =
                Event::parse(token) ||
                (token.size() == 10 && text::equalIgnoringCase(token.substr(0, 6), "setup:"));
            fail(error, "event " + std::to_string(n) + " " + text::quoted(token) +
                            (known ? " is not legal here" : " is not an event"));
            return std::nullopt;
        }
        pos.apply(*e);
    }
    return pos;
}

}  // namespace dejarik
