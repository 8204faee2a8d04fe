#include "referee.h"

#include "deals.h"
#include "option.h"

namespace dejarik::gui {

std::string_view pieceName(const Rules& rules, Piece p) {
    // The set in force names every creature it has, a creature file's (up to 26) and
    // Courtier's Guard and King included.
    return rules.creatures().creature(static_cast<int>(p.creature())).name;
}

std::optional<std::string> pageRefusal(const RuleOptionSpec& option) {
    if (option.spec.type != OptionType::String) return std::nullopt;
    return "'" + std::string(option.spec.name) +
           "' names a file on the server and cannot be set by a page";
}

std::string Strength::goCommand() const {
    return depth > 0 ? "go depth " + std::to_string(depth)
                     : "go movetime " + std::to_string(movetimeMs);
}

std::string Strength::str() const {
    return depth > 0 ? "depth=" + std::to_string(depth) : "movetime=" + std::to_string(movetimeMs);
}

Referee::Referee(const GameSetup& setup, std::unique_ptr<Rules> rules, std::string deal,
                 const Position& start)
    : setup_(setup),
      rules_(std::move(rules)),
      deal_(std::move(deal)),
      // Every game its own numbers: there is no second game of a pair to share them with.
      luck_(setup.seed, 0, 0, arena::DiceMode::Independent),
      positions_{start} {}

std::unique_ptr<Referee> Referee::start(const GameSetup& setup, std::string& error) {
    if ((setup.strength.depth > 0) == (setup.strength.movetimeMs > 0)) {
        error = "give the engine a depth or a time per decision";
        return nullptr;
    }
    auto rules = std::make_unique<Rules>(setup.options);
    // The rules in force say where a game starts: a creature file's start group (RULES §16.3),
    // the players' reserves with set-up pending under Setup arrange (§15.2), Courtier's start.
    const std::string deal =
        setup.randomDeal ? arena::randomDeal(*rules, setup.seed, 0) : rules->startDfen();
    const auto start = Position::fromDfen(deal, *rules, &error);
    if (!start) return nullptr;
    return std::unique_ptr<Referee>(new Referee(setup, std::move(rules), deal, *start));
}

std::unique_ptr<Referee> Referee::fromRecord(std::string_view text, Player human, Strength strength,
                                             std::string& error) {
    const auto records = arena::parseRecords(text, error);
    if (!records) return nullptr;
    if (records->size() != 1) {
        error = "expected one record, found " + std::to_string(records->size());
        return nullptr;
    }
    const arena::GameRecord& r = records->front();
    // The record comes from the page: what names a file is refused before it is opened.
    GameSetup setup;
    const auto options = arena::parseRulesTag(r.rules, error, [](const RuleOptionSpec& option) {
        const auto refused = pageRefusal(option);
        return refused ? std::optional("Rules tag: " + *refused) : std::nullopt;
    });
    if (!options) return nullptr;
    setup.options = *options;
    setup.seed = r.seed;
    setup.human = human;
    setup.strength = strength;
    auto rules = std::make_unique<Rules>(setup.options);
    const auto start = Position::fromDfen(r.deal, *rules, &error);
    if (!start) {
        error = "Deal tag: " + error;
        return nullptr;
    }
    auto referee = std::unique_ptr<Referee>(new Referee(setup, std::move(rules), r.deal, *start));
    for (std::size_t i = 0; i < r.events.size(); ++i) {
        const Position& pos = referee->position();
        const auto event = pos.isOver() ? std::nullopt : pos.parseEvent(r.events[i].token);
        if (!event) {
            error = "event " + std::to_string(i + 1) + " '" + r.events[i].token +
                    "' is not legal in " + pos.dfen();
            return nullptr;
        }
        referee->append(*event, r.events[i].comment);
    }
    if (referee->ending_ && referee->position().result() == Result::Showdown) {
        // The record's showdown dice stand: they were rolled when the game was played.
        referee->ending_->outcome = r.outcome;
        referee->ending_->termination = r.termination;
        referee->ending_->showdown = r.closingComment;
        referee->ending_->showdownLuck = r.luck.showdownPoints();
    }
    return referee;
}

std::vector<std::string> Referee::moves() const {
    std::vector<std::string> out;
    out.reserve(events_.size());
    for (const auto& e : events_)
        out.push_back(e.token);
    return out;
}

Turn Referee::turn() const {
    const Position& pos = position();
    if (pos.isOver()) return Turn::Over;
    if (pos.chanceDue()) return Turn::Dice;
    return pos.decider() == setup_.human ? Turn::Human : Turn::Engine;
}

std::optional<std::string> Referee::decide(std::string_view token, bool byHuman,
                                           std::string comment) {
    const Turn t = turn();
    if (t == Turn::Over) return "the game is over";
    if (t == Turn::Dice) return "the dice are due, not a decision";
    if ((t == Turn::Human) != byHuman)
        return byHuman ? "it is the engine's decision" : "it is the human's decision";
    const auto event = position().parseEvent(token);
    if (!event || event->kind() == EventKind::Outcome)
        return "'" + std::string(token) + "' is not a legal decision in " + position().dfen();
    append(*event, std::move(comment));
    return std::nullopt;
}

std::uint64_t Referee::attacksBy(Player p) const {
    std::uint64_t n = 0;
    for (std::size_t k = 0; k < events_.size(); ++k)
        if (positions_[k].phase() == Phase::Outcome && positions_[k].sideToMove() == p) ++n;
    return n;
}

std::uint64_t Referee::cellRolls() const {
    std::uint64_t n = 0;
    for (std::size_t k = 0; k < events_.size(); ++k)
        if (positions_[k].phase() == Phase::Roll) ++n;
    return n;
}

Roll Referee::roll() {
    const Position& pos = position();
    if (pos.phase() == Phase::Roll) {
        // As the arena rolls it: the game's n-th roll is the stream's n-th pair.
        const arena::LuckStream::RayRoll dice = luck_.rayRoll(cellRolls());
        append(Event::roll(dice.cell()), dice.describe());
        return dice;
    }
    const Piece attacker = pos.at(pos.pendingFrom()), defender = pos.at(pos.pendingTo());
    const Player side = pos.sideToMove();
    const arena::AttackRoll r = arena::rollAttack(
        rules_->dice(), rules_->ratings(attacker.creature()).attack,
        rules_->ratings(defender.creature()).defence, luck_.attack(side, attacksBy(side)));
    append(Event::outcome(r.outcome),
           r.describe(rules_->letter(attacker), rules_->letter(defender)));
    return r;
}

void Referee::append(Event e, std::string comment) {
    const Position& before = positions_.back();
    arena::RecordedEvent r;
    r.token = before.token(e);
    r.comment = std::move(comment);
    r.turn = before.turn();
    r.startsTurn = before.startsTurn();
    double luck = 0;
    if (e.kind() == EventKind::Outcome) {
        luck = arena::attackLuck(before, e.outcome());
        if (before.sideToMove() == Player::Two) luck = -luck;
    }
    Position next = before;
    next.apply(e);
    positions_.push_back(next);
    events_.push_back(std::move(r));
    luckOfPlayer1_.push_back(luck);
    settleEnd();
}

void Referee::settleEnd() {
    const Position& pos = position();
    ending_.reset();
    switch (pos.result()) {
        case Result::Ongoing:
            return;
        case Result::Player1Wins:
        case Result::Player2Wins: {
            const bool oneWins = pos.result() == Result::Player1Wins;
            Ending e;
            e.outcome = oneWins ? arena::GameOutcome::Player1Wins : arena::GameOutcome::Player2Wins;
            e.termination = rules_->courtier() ? arena::Termination::KingCapture
                            : pos.pieces(oneWins ? Player::Two : Player::One).empty()
                                ? arena::Termination::Elimination
                                : arena::Termination::CentreWin;
            ending_ = e;
            return;
        }
        case Result::Draw:
            ending_ = Ending{arena::GameOutcome::Draw, arena::Termination::QuietDraw, {}, 0};
            return;
        case Result::Showdown: {
            const Creature c1 = pos.at(pos.pieces(Player::One).first()).creature();
            const Creature c2 = pos.at(pos.pieces(Player::Two).first()).creature();
            const arena::ShowdownRoll roll = arena::rollShowdown(*rules_, c1, c2, luck_);
            const auto& odds = rules_->showdown(c1, c2);
            const double result = roll.result();
            Ending e;
            e.showdown = roll.comment;
            e.showdownLuck = result - (odds.p1Wins - odds.p2Wins);
            if (roll.winner) {
                e.outcome = *roll.winner == Player::One ? arena::GameOutcome::Player1Wins
                                                        : arena::GameOutcome::Player2Wins;
                e.termination = arena::Termination::Showdown;
            } else {
                e.outcome = arena::GameOutcome::Draw;
                e.termination = arena::Termination::ShowdownDraw;
            }
            ending_ = e;
            return;
        }
    }
}

bool Referee::undoTurn() {
    for (std::size_t k = events_.size(); k-- > 0;) {
        const Position& p = positions_[k];
        // The human's set-up (RULES §15.3) is undone on its own, like a turn.
        const bool humanStarts =
            p.phase() == Phase::Setup
                ? p.decider() == setup_.human
                : p.startsTurn() && p.decider() == setup_.human && p.sideToMove() == setup_.human;
        if (humanStarts) {
            positions_.erase(positions_.begin() + static_cast<std::ptrdiff_t>(k) + 1,
                             positions_.end());
            events_.resize(k);
            luckOfPlayer1_.resize(k);
            settleEnd();
            return true;
        }
    }
    return false;
}

arena::GameRecord Referee::record(const std::string& engineName) const {
    arena::GameRecord r;
    r.rules = rules_->describe();
    r.deal = deal_;
    r.seed = setup_.seed;
    r.diceMode = arena::DiceMode::Independent;
    r.players[index(setup_.human)] = "human";
    r.players[index(opponent(setup_.human))] = engineName + " " + setup_.strength.str();
    r.events = events_;
    double luck = 0;
    for (const double l : luckOfPlayer1_)
        luck += l;
    r.luck.attacks = arena::Luck::units(luck);
    const Position& pos = position();
    if (ending_) {
        r.outcome = ending_->outcome;
        r.termination = ending_->termination;
        r.closingComment = ending_->showdown;
        r.luck.showdown = arena::Luck::units(ending_->showdownLuck);
    } else {
        r.finished = false;
    }
    if (pos.phase() == Phase::Decision) r.finalDfen = pos.dfen();
    const bool midTurn = !pos.startsTurn();
    r.turns = pos.turn() - positions_.front().turn() + (midTurn ? 1 : 0);
    return r;
}

}  // namespace dejarik::gui
