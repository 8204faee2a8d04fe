#include "codec.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "option.h"
#include "rays.h"

namespace dejarik::gui {

using nlohmann::json;

namespace {

// A field check that fails with a message naming the field.
class Reader {
  public:
    Reader(const json& j, std::string& error) : j_(j), error_(error) {}

    [[nodiscard]] bool failed() const { return !error_.empty(); }

    std::optional<std::string> string(const char* key, bool required) {
        const auto it = j_.find(key);
        if (it == j_.end()) {
            if (required) fail(std::string("'") + key + "' is missing");
            return std::nullopt;
        }
        if (!it->is_string()) {
            fail(std::string("'") + key + "' must be a string");
            return std::nullopt;
        }
        return it->get<std::string>();
    }

    std::optional<std::int64_t> integer(const char* key, std::int64_t min, std::int64_t max) {
        const auto it = j_.find(key);
        if (it == j_.end()) return std::nullopt;
        if (!it->is_number_integer() ||
            (it->is_number_unsigned() &&
             it->get<std::uint64_t>() > static_cast<std::uint64_t>(max)) ||
            it->get<std::int64_t>() < min || it->get<std::int64_t>() > max) {
            fail(std::string("'") + key + "' must be a whole number from " + std::to_string(min) +
                 " to " + std::to_string(max));
            return std::nullopt;
        }
        return it->get<std::int64_t>();
    }

    void fail(std::string message) {
        if (error_.empty()) error_ = std::move(message);
    }

  private:
    const json& j_;
    std::string& error_;
};

// A rule option's value as the page sends it (a string, a number or a boolean) in the
// protocol's spelling.
std::optional<std::string> optionText(const json& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
    return std::nullopt;
}

std::optional<Request> parseNewGame(const json& j, std::string& error) {
    Reader r(j, error);
    NewGameRequest request;
    GameSetup& s = request.setup;
    const std::string ruleset = r.string("ruleset", false).value_or("kelly");
    if (r.failed()) return std::nullopt;
    if (auto e = s.options.set("Ruleset", ruleset)) {
        error = *e;
        return std::nullopt;
    }
    if (const auto it = j.find("options"); it != j.end()) {
        if (!it->is_object()) {
            error = "'options' must be an object of rule options";
            return std::nullopt;
        }
        for (const auto& [name, value] : it->items()) {
            const auto text = optionText(value);
            if (!text) {
                error = "rule option '" + name + "' must be a string, number or boolean";
                return std::nullopt;
            }
            if (!RuleOptions::isRuleOption(name) || findRuleOption(name)->spec.name == "Ruleset") {
                error = "'" + name + "' is not a rule option";
                return std::nullopt;
            }
            if (auto refused = pageRefusal(*findRuleOption(name))) {
                error = *refused;
                return std::nullopt;
            }
            if (auto e = s.options.set(name, *text)) {
                error = *e;
                return std::nullopt;
            }
        }
    }
    const std::string deal = r.string("deal", false).value_or("standard");
    if (deal != "standard" && deal != "random") r.fail("'deal' must be \"standard\" or \"random\"");
    s.randomDeal = deal == "random";
    if (const auto seed = r.integer("seed", 0, std::numeric_limits<std::int64_t>::max())) {
        s.seed = static_cast<std::uint64_t>(*seed);
        request.seedGiven = true;
    }
    s.human = r.integer("side", 1, 2).value_or(1) == 2 ? Player::Two : Player::One;
    const auto depth = r.integer("depth", 1, 30);
    const auto movetime = r.integer("movetime", 10, 600000);
    if (depth && movetime) r.fail("give the engine 'depth' or 'movetime', not both");
    if (r.failed()) return std::nullopt;
    s.strength = movetime ? Strength{0, static_cast<int>(*movetime)}
                          : Strength{static_cast<int>(depth.value_or(4)), 0};
    return request;
}

json pieceOf(const Position& pos, Piece p) {
    json piece{{"letter", std::string(1, pos.rules().letter(p))},
               {"owner", index(p.owner()) + 1},
               {"name", pieceName(pos.rules(), p)}};
    // Courtier's pieces have no ratings: each steps one cell and nothing is rolled.
    if (!pos.rules().courtier()) {
        const Ratings& r = pos.rules().ratings(p.creature());
        piece["attack"] = r.attack;
        piece["defence"] = r.defence;
        piece["movement"] = r.movement;
    }
    return piece;
}

json cellsOf(const Position& pos) {
    json cells = json::array();
    for (int i = 0; i < Cell::kCount; ++i) {
        const Cell c(i);
        const Piece p = pos.at(c);
        if (p.isNone()) continue;
        json cell = pieceOf(pos, p);
        cell["cell"] = c.name();
        cells.push_back(std::move(cell));
    }
    return cells;
}

// The creatures not yet set up (RULES §15.4), player 1's first, each in creature-table order.
json reserveOf(const Position& pos) {
    json reserve = json::array();
    for (const Player player : {Player::One, Player::Two}) {
        if (!pos.hasReserve(player)) continue;
        for (const std::uint8_t c : pos.reserve(player))
            reserve.push_back(pieceOf(pos, Piece(player, static_cast<Creature>(c))));
    }
    return reserve;
}

json oddsOf(const Position& pending) {
    json odds = json::object();
    for (const Outcome o : kOutcomes)
        odds[std::string(outcomeName(o))] = pending.probability(Event::outcome(o));
    return odds;
}

std::string_view kindName(EventKind k) {
    switch (k) {
        case EventKind::Move:
            return "move";
        case EventKind::Attack:
            return "attack";
        case EventKind::Pass:
            return "pass";
        case EventKind::Outcome:
            return "outcome";
        case EventKind::Place:
            return "place";
        case EventKind::Setup:
            return "setup";
        case EventKind::CaptureMove:
            return "capture";
        case EventKind::Roll:
            return "roll";
        case EventKind::None:
            break;
    }
    return "none";
}

std::string_view phaseName(Phase p) {
    switch (p) {
        case Phase::Decision:
            return "decision";
        case Phase::Outcome:
            return "outcome";
        case Phase::Placement:
            return "placement";
        case Phase::Setup:
            return "setup";
        case Phase::Roll:
            return "roll";
    }
    return "decision";
}

json legalOf(const Position& pos) {
    json legal = json::array();
    EventList list;
    pos.generate(list);
    for (const Event e : list) {
        json item{{"token", pos.token(e)}, {"kind", kindName(e.kind())}};
        // A set-up names its arrangement in its token, `setup:<letters>`, and no cells.
        if (e.kind() != EventKind::Pass && e.kind() != EventKind::Setup) {
            item["from"] = e.from().name();
            item["to"] = e.to().name();
        }
        if (e.kind() == EventKind::CaptureMove) item["captured"] = e.captured().name();
        if (e.kind() == EventKind::Move && pos.rules().courtier()) {
            // A step with one candidate takes it unnamed (RULES §14.6): the page shows which.
            Position after = pos;
            Position::Undo undo;
            after.apply(e, undo);
            if (!undo.defender.isNone()) item["captured"] = undo.captured.name();
        }
        if (e.kind() == EventKind::Attack) {
            Position pending = pos;
            pending.apply(e);
            item["odds"] = oddsOf(pending);
        }
        legal.push_back(std::move(item));
    }
    return legal;
}

std::string_view turnName(Turn t) {
    switch (t) {
        case Turn::Human:
            return "human";
        case Turn::Engine:
            return "engine";
        case Turn::Dice:
            return "dice";
        case Turn::Over:
            return "over";
    }
    return "over";
}

json sideOf(const Rules& rules, const arena::SideRoll& s, Cell cell, Piece piece, int rating) {
    return {{"cell", cell.name()},
            {"letter", std::string(1, rules.letter(piece))},
            {"name", pieceName(rules, piece)},
            {"rating", rating},
            {"bonus", s.bonus},
            {"sides", s.sides},
            {"faces", s.faces},
            {"score", s.score()}};
}

json optionSpecs() {
    json specs = json::array();
    for (const RuleOptionSpec& r : ruleOptionSpecs()) {
        const OptionSpec& o = r.spec;
        if (pageRefusal(r)) continue;
        json item{{"name", o.name}, {"type", optionTypeName(o.type)}};
        // The page hides what Courtier refuses (RULES §14.13), asking the rules, not a list.
        RuleOptions courtier;
        courtier.ruleset = Ruleset::Courtier;
        item["dejarikOnly"] = courtier.inactive(r);
        if (const auto d = o.defaultValue()) item["default"] = *d;
        if (o.type == OptionType::Spin) {
            item["min"] = o.min;
            item["max"] = o.max;
        }
        if (o.type == OptionType::Combo) {
            json values = json::array();
            for (const auto v : o.values)
                values.push_back(v);
            item["values"] = values;
        }
        specs.push_back(std::move(item));
    }
    return specs;
}

}  // namespace

std::optional<Request> parseRequest(std::string_view text, std::string& error) {
    error.clear();
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) {
        error = "the message is not JSON";
        return std::nullopt;
    }
    if (!j.is_object()) {
        error = "a message must be a JSON object";
        return std::nullopt;
    }
    Reader r(j, error);
    const auto type = r.string("type", true);
    if (!type) return std::nullopt;
    if (*type == "new") return parseNewGame(j, error);
    if (*type == "play") {
        const auto token = r.string("event", true);
        if (!token) return std::nullopt;
        return PlayRequest{*token};
    }
    if (*type == "undo") return UndoRequest{};
    if (*type == "save") return SaveRequest{};
    if (*type == "stop") return StopRequest{};
    if (*type == "retry") return RetryRequest{};
    if (*type == "load") {
        const auto text = r.string("text", true);
        if (!text) return std::nullopt;
        return LoadRequest{*text};
    }
    if (*type == "goto") {
        const auto ply = r.integer("ply", 0, 1 << 20);
        if (!ply) {
            r.fail("'ply' is missing");
            return std::nullopt;
        }
        return GotoRequest{static_cast<std::size_t>(*ply)};
    }
    if (*type == "analyse") {
        AnalyseRequest a;
        a.multipv = static_cast<int>(r.integer("multipv", 1, 8).value_or(3));
        a.movetimeMs = static_cast<int>(r.integer("movetime", 100, 60000).value_or(2000));
        if (r.failed()) return std::nullopt;
        return a;
    }
    error = "unknown message type '" + *type + "'";
    return std::nullopt;
}

bool interruptsSearch(const Request& request) {
    return !std::holds_alternative<PlayRequest>(request) &&
           !std::holds_alternative<SaveRequest>(request) &&
           !std::holds_alternative<AnalyseRequest>(request) &&
           !std::holds_alternative<RetryRequest>(request);
}

std::string encodeState(const Referee& game, const View& view) {
    const std::size_t ply = std::min(view.ply, game.plies());
    const Position& pos = game.positionAt(ply);
    const bool atEnd = ply == game.plies();
    const Turn turn = atEnd ? game.turn() : Turn::Over;
    json j{{"type", "state"},
           {"rules", game.rules().describe()},
           {"ruleset", rulesetName(game.rules().ruleset())},
           {"deal", game.deal()},
           {"seed", std::to_string(game.setup().seed)},
           {"human", index(game.setup().human) + 1},
           {"strength", game.setup().strength.str()},
           {"engine", view.engineName},
           {"dfen", pos.dfen()},
           {"turn", atEnd ? turnName(turn) : "browse"},
           {"phase", phaseName(pos.phase())},
           {"sideToMove", index(pos.sideToMove()) + 1},
           {"decider", index(pos.decider()) + 1},
           {"actionsLeft", pos.actionsLeft()},
           {"turnNumber", pos.turn()},
           {"ply", ply},
           {"plies", game.plies()},
           {"engineFailed", view.engineFailed},
           {"thinking", view.thinking},
           {"cells", cellsOf(pos)}};
    j["legal"] = atEnd && turn == Turn::Human ? legalOf(pos) : json::array();
    // Rays of Death: attacks go into or out of this cell until the next roll.
    if (pos.rules().raysOfDeath() && pos.combatCell() != rays::kNoCombat)
        j["combat"] = Cell(pos.combatCell()).name();
    if (pos.phase() == Phase::Setup) {
        j["reserve"] = reserveOf(pos);
        json home = json::array();
        for (int i = 0; i < 4; ++i)
            home.push_back(Position::homeCell(pos.decider(), i).name());
        j["home"] = std::move(home);
    }
    if (pos.phase() == Phase::Outcome) {
        j["pending"] = {{"from", pos.pendingFrom().name()}, {"to", pos.pendingTo().name()}};
        j["odds"] = oddsOf(pos);
    }
    // Only the events the page does not hold yet: resending the whole list would make a game
    // of n events cost the server and the page n².
    const std::size_t from = std::min(view.eventsFrom, game.plies());
    j["eventsFrom"] = from;
    json events = json::array();
    for (std::size_t k = from; k < game.plies(); ++k) {
        const auto& e = game.events()[k];
        const Position& before = game.positionAt(k);
        const bool chance = before.chanceDue();
        events.push_back({{"token", e.token},
                          {"comment", e.comment},
                          {"turn", e.turn},
                          {"startsTurn", e.startsTurn},
                          {"player", chance ? 0 : index(before.decider()) + 1}});
    }
    j["events"] = std::move(events);
    if (game.ending() && atEnd) {
        const Ending& e = *game.ending();
        j["ending"] = {{"result", arena::outcomeTag(e.outcome)},
                       {"termination", arena::terminationName(e.termination)},
                       {"showdown", e.showdown}};
    } else {
        j["ending"] = nullptr;
    }
    return j.dump();
}

std::string encodeDice(const Position& before, const Roll& rolled) {
    if (const auto* ray = std::get_if<arena::LuckStream::RayRoll>(&rolled)) {
        const Cell cell = ray->cell();
        return json{{"type", "dice"},
                    {"kind", "ray"},
                    {"d4", ray->d4},
                    {"d12", ray->d12},
                    {"cell", cell.name()},
                    {"probability", before.probability(Event::roll(cell))},
                    {"player", index(before.sideToMove()) + 1}}
            .dump();
    }
    const arena::AttackRoll& roll = std::get<arena::AttackRoll>(rolled);
    const Cell from = before.pendingFrom(), to = before.pendingTo();
    const Piece a = before.at(from), d = before.at(to);
    const Rules& rules = before.rules();
    json j{{"type", "dice"},
           {"kind", "attack"},
           {"model", diceModelName(roll.model)},
           {"attacker", sideOf(rules, roll.attacker, from, a, rules.ratings(a.creature()).attack)},
           {"defender", sideOf(rules, roll.defender, to, d, rules.ratings(d.creature()).defence)},
           {"outcome", outcomeName(roll.outcome)},
           {"odds", oddsOf(before)},
           {"player", index(before.sideToMove()) + 1}};
    if (roll.model == DiceModel::SplitD6) j["die"] = roll.die;
    return j.dump();
}

std::string encodeInfo(const InfoLine& info, bool analysis, Player searched) {
    json j{{"type", "info"},
           {"analysis", analysis},
           {"player", index(searched) + 1},
           {"multipv", info.multipv},
           {"depth", info.depth},
           {"nodes", info.nodes},
           {"time", info.timeMs},
           {"ev", info.ev},
           {"exact", info.exact},
           {"pv", info.pv}};
    j["wdl"] = info.wdl ? json(*info.wdl) : json(nullptr);
    return j.dump();
}

std::string encodeError(std::string_view message) {
    return json{{"type", "error"}, {"message", message}}.dump();
}

std::string encodeRecord(std::string_view text) {
    return json{{"type", "record"}, {"text", text}}.dump();
}

std::string encodeNotice(std::string_view kind, std::string_view message) {
    return json{{"type", "notice"}, {"kind", kind}, {"message", message}}.dump();
}

std::string encodeHello(std::string_view engineName, int maxGames) {
    json rulesets = json::array();
    for (const Ruleset r : kRulesets)
        rulesets.push_back(rulesetName(r));
    rulesets.push_back(rulesetName(Ruleset::Courtier));
    return json{{"type", "hello"},
                {"engine", engineName},
                {"maxGames", maxGames},
                {"ruleOptions", optionSpecs()},
                {"rulesets", rulesets}}
        .dump();
}

}  // namespace dejarik::gui
