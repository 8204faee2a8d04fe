#include "referee.h"

#include <algorithm>
#include <stdexcept>

#include "text.h"

namespace dejarik::arena {

namespace {

std::string playerLabel(Player p, const std::string& name) {
    return std::string("player ") + (p == Player::One ? "1" : "2") + " (" + name + ")";
}

std::string trimmed(const std::string& s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string::npos) return "";
    return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

}  // namespace

std::optional<GameRecord> playGame(const GameSpec& spec, const RefereeConfig& config) {
    std::string error;
    const auto start = Position::fromDfen(spec.deal, spec.rules, &error);
    if (!start) throw std::invalid_argument("deal '" + spec.deal + "': " + error);

    GameRecord record;
    record.rules = spec.rules.describe();
    record.deal = spec.deal;
    for (int i = 0; i < 2; ++i)
        record.players[i] = spec.seats[i]->name();

    Position pos = *start;
    std::vector<std::string> moves;
    std::array<std::int64_t, 2> clock{spec.controls[0].baseMs, spec.controls[1].baseMs};
    const std::array<std::int64_t, 2> inc{spec.controls[0].incMs, spec.controls[1].incMs};
    bool decided = false;

    const auto forfeit = [&](Player loser, Termination why, const std::string& detail) {
        record.outcome = loser == Player::One ? GameOutcome::Player2Wins : GameOutcome::Player1Wins;
        record.termination = why;
        record.detail = playerLabel(loser, record.players[index(loser)]) + ": " + detail;
        spec.seats[index(loser)]->recover();
        decided = true;
    };
    const auto interrupted = [&] { return config.interrupt && config.interrupt->load(); };

    for (const Player p : {Player::One, Player::Two}) {
        if (decided) break;
        const Reply ready = spec.seats[index(p)]->prepare();
        if (ready.fault == SeatFault::Interrupted) return std::nullopt;
        if (ready.fault == SeatFault::Crash) forfeit(p, Termination::Crash, ready.detail);
        if (ready.fault == SeatFault::Timeout) forfeit(p, Termination::Stall, ready.detail);
    }

    const auto append = [&](const Position& before, Event e, std::string comment) {
        RecordedEvent r;
        r.token = before.token(e);
        r.comment = std::move(comment);
        r.turn = before.turn();
        r.startsTurn = before.startsTurn();
        moves.push_back(r.token);
        record.events.push_back(r);
        if (config.onEvent) config.onEvent(before, record.events.back());
    };

    std::array<std::uint64_t, 2> attacks{};  // per attacking player
    std::uint64_t rolls = 0;                 // Rays of Death's rolls of the combat cell
    double attackLuck1 = 0;                  // player 1's luck, in material points
    while (!decided && !pos.isOver()) {
        if (interrupted()) return std::nullopt;

        if (pos.phase() == Phase::Outcome) {
            const Piece attacker = pos.at(pos.pendingFrom()), defender = pos.at(pos.pendingTo());
            const AttackRoll roll =
                rollAttack(spec.rules.dice(), spec.rules.ratings(attacker.creature()).attack,
                           spec.rules.ratings(defender.creature()).defence,
                           spec.luck.attack(pos.sideToMove(), attacks[index(pos.sideToMove())]++));
            const Position before = pos;
            const double luck = attackLuck(pos, roll.outcome);
            attackLuck1 += pos.sideToMove() == Player::One ? luck : -luck;
            // A rolled outcome always has a non-zero probability, so it is legal here.
            pos.apply(Event::outcome(roll.outcome));
            append(before, Event::outcome(roll.outcome),
                   roll.describe(spec.rules.letter(attacker), spec.rules.letter(defender)));
            continue;
        }

        if (pos.phase() == Phase::Roll) {
            const LuckStream::RayRoll dice = spec.luck.rayRoll(rolls++);
            const Event e = Event::roll(dice.cell());
            const Position before = pos;
            pos.apply(e);
            append(before, e, dice.describe());
            continue;
        }

        if (pos.startsTurn() &&
            pos.turn() >= start->turn() + static_cast<std::uint32_t>(config.maxTurns)) {
            record.outcome = GameOutcome::Draw;
            record.termination = Termination::TurnCap;
            record.detail = "no result after " + std::to_string(config.maxTurns) + " turns";
            decided = true;
            break;
        }

        const Player decider = pos.decider();
        const TimeControl& control = spec.controls[index(decider)];
        std::int64_t budget = -1;
        if (control.movetimeMs > 0) budget = control.movetimeMs;
        if (control.baseMs >= 0)
            budget = budget < 0 ? clock[index(decider)] : std::min(budget, clock[index(decider)]);
        const auto wait =
            budget >= 0
                ? std::chrono::milliseconds(std::max<std::int64_t>(budget, 0)) + config.timeMargin
                : config.stallTimeout;

        std::array<std::optional<std::int64_t>, 2> clocks;
        for (const Player p : {Player::One, Player::Two})
            if (spec.controls[index(p)].baseMs >= 0) clocks[index(p)] = clock[index(p)];
        const DecisionRequest request{spec.deal, moves, pos, clocks, inc, control, wait};
        const Reply reply = spec.seats[index(decider)]->decide(request);
        switch (reply.fault) {
            case SeatFault::Interrupted:
                return std::nullopt;
            case SeatFault::Crash:
                forfeit(decider, Termination::Crash, reply.detail);
                continue;
            case SeatFault::Timeout:
                forfeit(decider, control.timed() ? Termination::Time : Termination::Stall,
                        reply.detail);
                continue;
            case SeatFault::None:
                break;
        }

        const std::string token = trimmed(reply.token);
        const auto event = token.empty() ? std::nullopt : pos.parseEvent(token);
        if (!event) {
            forfeit(decider, Termination::Illegal,
                    token.empty()
                        ? "no bestmove"
                        : "bestmove " + text::quoted(token) + " is not a legal event of " +
                              pos.dfen() + (moves.empty() ? "" : " (after the moves)"));
            continue;
        }

        const std::int64_t elapsed = reply.info.elapsedMs;
        const std::int64_t margin = config.timeMargin.count();
        if (control.movetimeMs > 0 && elapsed > control.movetimeMs + margin) {
            forfeit(decider, Termination::Time,
                    "took " + std::to_string(elapsed) + " ms of movetime " +
                        std::to_string(control.movetimeMs));
            continue;
        }
        if (control.baseMs >= 0) {
            auto& c = clock[index(decider)];
            c -= elapsed;
            if (c < -margin) {
                forfeit(decider, Termination::Time,
                        "out of time (" + std::to_string(-c) + " ms over)");
                continue;
            }
            c += inc[index(decider)];
        }

        const Position before = pos;
        pos.apply(*event);
        append(before, *event, reply.info.str());
    }

    if (!decided) {
        switch (pos.result()) {
            case Result::Player1Wins:
            case Result::Player2Wins: {
                const bool oneWins = pos.result() == Result::Player1Wins;
                record.outcome = oneWins ? GameOutcome::Player1Wins : GameOutcome::Player2Wins;
                record.termination = spec.rules.courtier() ? Termination::KingCapture
                                     : pos.pieces(oneWins ? Player::Two : Player::One).empty()
                                         ? Termination::Elimination
                                         : Termination::CentreWin;
                break;
            }
            case Result::Draw:
                record.outcome = GameOutcome::Draw;
                record.termination = Termination::QuietDraw;
                break;
            case Result::Showdown: {
                const Creature c1 = pos.at(pos.pieces(Player::One).first()).creature();
                const Creature c2 = pos.at(pos.pieces(Player::Two).first()).creature();
                const ShowdownRoll roll = rollShowdown(spec.rules, c1, c2, spec.luck);
                record.closingComment = roll.comment;
                const auto& odds = spec.rules.showdown(c1, c2);
                const double expected = odds.p1Wins - odds.p2Wins;
                const double result = roll.result();
                record.luck.showdown = Luck::units(result - expected);
                if (roll.winner) {
                    record.outcome = *roll.winner == Player::One ? GameOutcome::Player1Wins
                                                                 : GameOutcome::Player2Wins;
                    record.termination = Termination::Showdown;
                } else {
                    record.outcome = GameOutcome::Draw;
                    record.termination = Termination::ShowdownDraw;
                }
                break;
            }
            case Result::Ongoing:
                break;
        }
    }
    record.luck.attacks = Luck::units(attackLuck1);
    if (pos.phase() == Phase::Decision) record.finalDfen = pos.dfen();
    const bool midTurn = !pos.startsTurn();
    record.turns = pos.turn() - start->turn() + (midTurn ? 1 : 0);
    return record;
}

}  // namespace dejarik::arena
