// The browser board's message codec (tools/gui/codec.h) and the engine's info lines as the
// GUI reads them.
#include <doctest/doctest.h>

#include <functional>
#include <set>

#include <nlohmann/json.hpp>

#include "codec.h"
#include "engine_link.h"
#include "rays.h"

using namespace dejarik;
using namespace dejarik::gui;
using nlohmann::json;

namespace {

std::string refusal(std::string_view text) {
    std::string error;
    const auto r = parseRequest(text, error);
    return r ? std::string("accepted") : error;
}

template <typename T>
T accepted(std::string_view text) {
    std::string error;
    const auto r = parseRequest(text, error);
    REQUIRE_MESSAGE(r.has_value(), error);
    REQUIRE(std::holds_alternative<T>(*r));
    return std::get<T>(*r);
}

// Both sides' first legal decisions, the dice rolled when due, until `done`.
void playFirstUntil(Referee& game, const std::function<bool()>& done) {
    for (int guard = 0; !done(); ++guard) {
        REQUIRE(guard < 200);
        REQUIRE(game.turn() != Turn::Over);
        if (game.turn() == Turn::Dice) {
            (void)game.roll();
            continue;
        }
        EventList list;
        game.position().generate(list);
        REQUIRE_FALSE(game.decide(game.position().token(list[0]), game.turn() == Turn::Human));
    }
}

}  // namespace

TEST_SUITE("gui-codec") {
    TEST_CASE("malformed requests are refused with a reason") {
        CHECK(refusal("{not json") == "the message is not JSON");
        CHECK(refusal("[1,2]") == "a message must be a JSON object");
        CHECK(refusal("{}") == "'type' is missing");
        CHECK(refusal(R"({"type":7})") == "'type' must be a string");
        CHECK(refusal(R"({"type":"fly"})") == "unknown message type 'fly'");
        CHECK(refusal(R"({"type":"play"})") == "'event' is missing");
        CHECK(refusal(R"({"type":"play","event":12})") == "'event' must be a string");
        CHECK(refusal(R"({"type":"goto"})") == "'ply' is missing");
        CHECK(refusal(R"({"type":"goto","ply":-1})").find("from 0") != std::string::npos);
        CHECK(refusal(R"({"type":"analyse","multipv":0})").find("'multipv'") == 0);
        CHECK(refusal(R"({"type":"load"})") == "'text' is missing");
    }

    TEST_CASE("a new game's setup") {
        const auto plain = accepted<NewGameRequest>(R"({"type":"new"})");
        CHECK(plain.setup.options.ruleset == Ruleset::Kelly);
        CHECK(plain.setup.strength.depth == 4);
        CHECK(plain.setup.human == Player::One);
        CHECK_FALSE(plain.setup.randomDeal);
        CHECK_FALSE(plain.seedGiven);

        const auto full = accepted<NewGameRequest>(
            R"({"type":"new","ruleset":"dalsian","options":{"Dice":"d20","DrawTurns":20,
                "SafeOuterOrbit":false},"deal":"random","seed":99,"side":2,"movetime":300})");
        CHECK(full.setup.options.ruleset == Ruleset::Dalsian);
        CHECK(full.setup.options.dice == DiceModel::D20);
        CHECK(full.setup.options.drawTurns == 20);
        CHECK(full.setup.options.safeOuterOrbit == false);
        CHECK(full.setup.randomDeal);
        CHECK(full.seedGiven);
        CHECK(full.setup.seed == 99);
        CHECK(full.setup.human == Player::Two);
        CHECK(full.setup.strength.movetimeMs == 300);
        CHECK(full.setup.strength.depth == 0);

        CHECK(refusal(R"({"type":"new","ruleset":"chess"})") != "accepted");
        CHECK(refusal(R"({"type":"new","options":{"Hash":16}})") == "'Hash' is not a rule option");
        CHECK(refusal(R"({"type":"new","options":{"CreatureFile":"/etc/passwd"}})") ==
              "'CreatureFile' names a file on the server and cannot be set by a page");
        CHECK(refusal(R"({"type":"new","options":{"Ruleset":"kelly"}})") != "accepted");
        CHECK(refusal(R"({"type":"new","options":{"DrawTurns":-5}})") != "accepted");
        CHECK(refusal(R"({"type":"new","options":{"Dice":[1]}})") != "accepted");
        CHECK(refusal(R"({"type":"new","options":5})") != "accepted");
        CHECK(refusal(R"({"type":"new","deal":"shuffled"})") != "accepted");
        CHECK(refusal(R"({"type":"new","side":3})") != "accepted");
        CHECK(refusal(R"({"type":"new","depth":0})") != "accepted");
        CHECK(refusal(R"({"type":"new","depth":3,"movetime":100})") ==
              "give the engine 'depth' or 'movetime', not both");
    }

    TEST_CASE("which requests end a search") {
        std::string error;
        const auto kind = [&](std::string_view text) {
            const auto r = parseRequest(text, error);
            REQUIRE(r);
            return interruptsSearch(*r);
        };
        CHECK(kind(R"({"type":"stop"})"));
        CHECK(kind(R"({"type":"new"})"));
        CHECK(kind(R"({"type":"undo"})"));
        CHECK(kind(R"({"type":"goto","ply":0})"));
        CHECK_FALSE(kind(R"({"type":"play","event":"c2-b2"})"));
        CHECK_FALSE(kind(R"({"type":"save"})"));
        CHECK(accepted<AnalyseRequest>(R"({"type":"analyse"})").multipv == 3);
    }

    TEST_CASE("the state shows the board, the legal decisions and the attack odds") {
        GameSetup setup;
        std::string error;
        auto game = Referee::start(setup, error);
        REQUIRE(game);
        View view;
        json s = json::parse(encodeState(*game, view));
        CHECK(s["type"] == "state");
        CHECK(s["turn"] == "human");
        CHECK(s["cells"].size() == 8);
        CHECK(s["legal"].size() == static_cast<std::size_t>(game->position().countEvents()));
        CHECK(s["ending"].is_null());

        // Both sides walk to the centre until player 1 can attack.
        int guard = 0;
        while (true) {
            REQUIRE(++guard < 40);
            const bool human = game->turn() == Turn::Human;
            s = json::parse(encodeState(*game, view = View{game->plies(), false, false, "e"}));
            const json& legal = human ? s["legal"] : json::array();
            const auto attack = std::find_if(legal.begin(), legal.end(),
                                             [](const json& e) { return e["kind"] == "attack"; });
            if (attack != legal.end()) {
                double sum = 0;
                for (const auto& [k, p] : (*attack)["odds"].items())
                    sum += p.get<double>();
                CHECK(sum == doctest::Approx(1.0));
                CHECK((*attack)["odds"].size() == 4);
                break;
            }
            EventList list;
            game->position().generate(list);
            const Event pick = list[0];
            REQUIRE_FALSE(game->decide(pick.token(), human));
            if (game->turn() == Turn::Dice) (void)game->roll();
            CHECK(json::parse(encodeState(*game, View{game->plies(), false, false, "e"}))["legal"]
                      .empty() == (game->turn() != Turn::Human));
        }
        // An earlier position is browsed: nothing to play there.
        json old = json::parse(encodeState(*game, View{0, false, false, "e"}));
        CHECK(old["turn"] == "browse");
        CHECK(old["legal"].empty());
        CHECK(old["ply"] == 0);
        CHECK(old["plies"] == game->plies());
    }

    TEST_CASE("Setup arrange: the state shows the reserves, the home cells and arrangements") {
        GameSetup setup;
        setup.options.arrange = true;
        setup.options.ruleset = Ruleset::Holochess;
        std::string error;
        auto game = Referee::start(setup, error);
        REQUIRE_MESSAGE(game, error);
        json s = json::parse(encodeState(*game, View{0, false, false, "e"}));
        CHECK(s["phase"] == "setup");
        CHECK(s["turn"] == "human");
        CHECK(s["cells"].empty());
        CHECK(s["home"] == json::array({"c2", "c3", "c4", "c5"}));
        std::string letters;
        for (const json& p : s["reserve"]) {
            letters += p["letter"].get<std::string>();
            CHECK(p.contains("attack"));
            CHECK(!p["name"].get<std::string>().empty());
        }
        CHECK(letters == "SGNLmhtk");
        CHECK(s["reserve"][0]["owner"] == 1);
        CHECK(s["reserve"][7]["owner"] == 2);
        REQUIRE(s["legal"].size() == 24);
        std::set<std::string> tokens;
        for (const json& e : s["legal"]) {
            CHECK(e["kind"] == "setup");
            CHECK_FALSE(e.contains("from"));
            CHECK_FALSE(e.contains("to"));
            tokens.insert(e["token"].get<std::string>());
        }
        CHECK(tokens.size() == 24);
        CHECK(tokens.contains("setup:lngs"));

        REQUIRE_FALSE(game->decide("setup:lngs", true));
        s = json::parse(encodeState(*game, View{1, false, false, "e"}));
        CHECK(s["turn"] == "engine");
        CHECK(s["home"] == json::array({"c8", "c9", "c10", "c11"}));
        CHECK(s["reserve"].size() == 4);
        CHECK(s["cells"].size() == 4);
        CHECK(s["cells"][0]["cell"] == "c2");
        CHECK(s["cells"][0]["letter"] == "L");
        CHECK(s["events"][0]["token"] == "setup:lngs");
        REQUIRE_FALSE(game->decide("setup:kthm", false));
        s = json::parse(encodeState(*game, View{2, false, false, "e"}));
        CHECK(s["phase"] == "decision");
        CHECK_FALSE(s.contains("reserve"));
        CHECK_FALSE(s.contains("home"));
    }

    TEST_CASE("a state carries only the events from eventsFrom on") {
        GameSetup setup;
        std::string error;
        auto game = Referee::start(setup, error);
        REQUIRE_MESSAGE(game, error);
        playFirstUntil(*game, [&] { return game->plies() >= 6; });
        const std::size_t plies = game->plies();
        const json whole = json::parse(encodeState(*game, View{plies, false, false, "e"}));
        CHECK(whole["eventsFrom"] == 0);
        REQUIRE(whole["events"].size() == plies);
        for (const std::size_t from : {std::size_t{1}, std::size_t{4}, plies}) {
            const json part = json::parse(encodeState(*game, View{plies, false, false, "e", from}));
            CHECK(part["eventsFrom"] == from);
            CHECK(part["plies"] == plies);
            REQUIRE(part["events"].size() == plies - from);
            for (std::size_t k = from; k < plies; ++k)
                CHECK(part["events"][k - from] == whole["events"][k]);
        }
        // A page that claims more than the game has is sent nothing it lacks, and told so.
        const json beyond =
            json::parse(encodeState(*game, View{plies, false, false, "e", plies + 3}));
        CHECK(beyond["eventsFrom"] == plies);
        CHECK(beyond["events"].empty());
    }

    TEST_CASE("dice, info and errors") {
        GameSetup setup;
        std::string error;
        auto game = Referee::start(setup, error);
        REQUIRE(game);
        // Any attack of either side, rolled.
        for (int guard = 0; game->turn() != Turn::Dice; ++guard) {
            REQUIRE(guard < 200);
            EventList list;
            game->position().generate(list);
            Event pick = list[0];
            for (const Event e : list)
                if (e.kind() == EventKind::Attack) pick = e;
            REQUIRE_FALSE(game->decide(pick.token(), game->turn() == Turn::Human));
        }
        const Position before = game->position();
        const auto roll = std::get<arena::AttackRoll>(game->roll());
        const json d = json::parse(encodeDice(before, roll));
        CHECK(d["type"] == "dice");
        CHECK(d["outcome"] == std::string(outcomeName(roll.outcome)));
        CHECK(d["attacker"]["faces"].size() == d["attacker"]["sides"].size());
        CHECK(d["attacker"]["cell"] == before.pendingFrom().name());
        CHECK(d["odds"][std::string(outcomeName(roll.outcome))].get<double>() > 0);

        InfoLine info;
        info.ev = -250;
        info.wdl = std::array<int, 3>{300, 100, 600};
        info.pv = {"c2-b2", "c9-b9"};
        const json i = json::parse(encodeInfo(info, true, Player::Two));
        CHECK(i["ev"] == -250);
        CHECK(i["player"] == 2);
        CHECK(i["wdl"][2] == 600);
        CHECK(i["pv"][1] == "c9-b9");
        CHECK(json::parse(encodeError("bad \"quote\""))["message"] == "bad \"quote\"");
        const json hello = json::parse(encodeHello("dejarik", 8));
        CHECK(hello["rulesets"].size() == 5);
        CHECK(hello["rulesets"][4] == "courtier");
        CHECK(hello["ruleOptions"][0]["name"] == "Ruleset");
        for (const json& o : hello["ruleOptions"]) {
            const bool dejarikOnly = o["name"] == "Dice" || o["name"] == "SafeOuterOrbit" ||
                                     o["name"] == "KingOfTheCentre" ||
                                     o["name"] == "CentreStraight" || o["name"] == "BlockedPush" ||
                                     o["name"] == "CentreWin";
            CHECK_MESSAGE(o["dejarikOnly"] == dejarikOnly, o["name"]);
        }
    }

    TEST_CASE("Courtier: its options, its pieces and a capture to choose") {
        const auto c = accepted<NewGameRequest>(
            R"({"type":"new","ruleset":"courtier","options":{"DrawTurns":30},"deal":"random"})");
        CHECK(c.setup.options.ruleset == Ruleset::Courtier);
        CHECK(c.setup.options.drawTurns == 30);
        CHECK(refusal(R"({"type":"new","ruleset":"courtier","options":{"Dice":"d20"}})") ==
              "option Dice does not apply to Ruleset courtier");

        std::string error;
        GameSetup setup;
        setup.options.ruleset = Ruleset::Courtier;
        auto game = Referee::start(setup, error);
        REQUIRE_MESSAGE(game, error);
        json s = json::parse(encodeState(*game, View{0, false, false, "e"}));
        CHECK(s["ruleset"] == "courtier");
        REQUIRE(s["cells"].size() == 12);
        for (const json& p : s["cells"]) {
            CHECK(p["name"] == (p["letter"] == "W" || p["letter"] == "w" ? "King" : "Guard"));
            CHECK_FALSE(p.contains("attack"));
        }
        // Random steps, in random deals, until the human (player 1) has a step with a choice
        // and has made a step taking its one candidate.
        std::uint64_t rng = 3;
        bool found = false, taken = false;
        for (std::uint64_t seed = 1; seed <= 50 && !(found && taken); ++seed) {
            setup.randomDeal = true;
            setup.seed = seed;
            game = Referee::start(setup, error);
            REQUIRE_MESSAGE(game, error);
            while (!(found && taken) && game->turn() != Turn::Over) {
                s = json::parse(encodeState(*game, View{game->plies(), false, false, "e"}));
                json single = nullptr;
                for (const json& e : s["legal"]) {
                    if (e["kind"] == "move" && e.contains("captured")) single = e;
                    if (e["kind"] != "capture") continue;
                    found = true;
                    const std::string token = e["token"];
                    CHECK(token == e["from"].get<std::string>() + "-" + e["to"].get<std::string>() +
                                       "x" + e["captured"].get<std::string>());
                }
                if (!single.is_null() && !taken) {
                    taken = true;
                    const std::string token = single["token"];
                    const Cell c = *Cell::parse(single["captured"].get<std::string>());
                    CHECK(token.find('x') == std::string::npos);
                    CHECK(game->position().at(c).owner() == Player::Two);
                    REQUIRE_FALSE(game->decide(token, true));
                    CHECK(game->position().at(c).isNone());
                    continue;
                }
                EventList list;
                game->position().generate(list);
                rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                const Event pick = list[static_cast<int>((rng >> 33) % list.size())];
                REQUIRE_FALSE(
                    game->decide(game->position().token(pick), game->turn() == Turn::Human));
            }
        }
        CHECK(taken);
        CHECK(found);
    }

    TEST_CASE("a creature file's pieces carry its names and letters, past the eighth") {
        // 26 creatures, the start groups the last four against the first four: creature
        // indices up to 25 on the board, and names no built-in table has.
        std::string text = "set Big\nstart ZYXW ABCD\n";
        for (char c = 'A'; c <= 'Z'; ++c)
            text += std::string(1, c) + " " + std::to_string(1 + (c - 'A') % 8) + " " +
                    std::to_string(8 - (c - 'A') % 8) + " " + std::to_string(1 + (c - 'A') % 4) +
                    " Beast" + std::string(1, c) + "\n";
        std::string error;
        auto set = CreatureSet::parse(text, "big.txt", &error);
        REQUIRE_MESSAGE(set, error);
        GameSetup setup;
        setup.options.creatureFile = std::make_shared<const CreatureSet>(std::move(*set));
        auto game = Referee::start(setup, error);
        REQUIRE_MESSAGE(game, error);
        const Rules& rules = game->rules();
        CHECK(game->deal() == rules.startDfen());
        for (int c = 0; c < rules.creatureCount(); ++c)
            for (const Player p : {Player::One, Player::Two})
                REQUIRE(pieceName(rules, Piece(p, static_cast<Creature>(c))) ==
                        "Beast" + std::string(1, static_cast<char>('A' + c)));

        json s = json::parse(encodeState(*game, View{0, false, false, "e"}));
        REQUIRE(s["cells"].size() == 8);
        for (const json& p : s["cells"]) {
            const std::string letter = p["letter"];
            CHECK(p["name"] ==
                  "Beast" + std::string(1, static_cast<char>(std::toupper(letter[0]))));
        }
        // Both sides' first legal decisions until an attack is rolled: the dice and the
        // record's comment name the creatures by the file's letters.
        for (int guard = 0; game->turn() != Turn::Dice; ++guard) {
            REQUIRE(guard < 200);
            REQUIRE(game->turn() != Turn::Over);
            EventList list;
            game->position().generate(list);
            Event pick = list[0];
            for (const Event e : list)
                if (e.kind() == EventKind::Attack) pick = e;
            REQUIRE_FALSE(game->decide(game->position().token(pick), game->turn() == Turn::Human));
        }
        const Position before = game->position();
        const char attacker = rules.letter(before.at(before.pendingFrom()));
        const char defender = rules.letter(before.at(before.pendingTo()));
        const json d = json::parse(encodeDice(before, game->roll()));
        CHECK(d["attacker"]["letter"] == std::string(1, attacker));
        CHECK(d["attacker"]["name"] ==
              "Beast" + std::string(1, static_cast<char>(std::toupper(attacker))));
        CHECK(d["defender"]["name"] ==
              "Beast" + std::string(1, static_cast<char>(std::toupper(defender))));
        const std::string comment = game->events().back().comment;
        CHECK(comment.front() == attacker);
        CHECK(comment.find(std::string(" vs ") + defender + " ") != std::string::npos);
    }

    TEST_CASE("Rays of Death: the page is shown the combat cell's roll, not asked for it") {
        GameSetup setup;
        setup.options.raysOfDeath = true;
        std::string error;
        auto game = Referee::start(setup, error);
        REQUIRE_MESSAGE(game, error);
        // Attack outcomes are rolled by the referee; a combat cell's roll is what we wait for.
        playFirstUntil(*game, [&] { return game->position().phase() == Phase::Roll; });
        const json due = json::parse(encodeState(*game, View{game->plies(), false, false, "e"}));
        CHECK(due["phase"] == "roll");
        CHECK(due["turn"] == "dice");
        CHECK(due["legal"].empty());
        REQUIRE(game->turn() == Turn::Dice);
        const Position before = game->position();
        const Roll roll = game->roll();
        const json d = json::parse(encodeDice(before, roll));
        const auto& dice = std::get<arena::LuckStream::RayRoll>(roll);
        CHECK(d["type"] == "dice");
        CHECK(d["kind"] == "ray");
        CHECK(d["d4"] == dice.d4);
        CHECK(d["d12"] == dice.d12);
        CHECK(d["cell"] == dice.cell().name());
        CHECK(d["probability"].get<double>() ==
              doctest::Approx(rays::rollProbability(dice.cell())));
        const json after = json::parse(encodeState(*game, View{game->plies(), false, false, "e"}));
        CHECK(after["combat"] == dice.cell().name());
        CHECK(after["events"].back()["token"] == "ray:" + dice.cell().name());
        CHECK(after["events"].back()["player"] == 0);  // the dice's, not a player's
    }

    TEST_CASE("info lines") {
        const auto i = parseInfoLine(
            "info depth 4 seldepth 12 multipv 2 time 314 nodes 215620 nps 686687 hashfull 11 "
            "score ev 497 wdl 748 1 251 pv axb12 kill axb2");
        REQUIRE(i);
        CHECK(i->depth == 4);
        CHECK(i->multipv == 2);
        CHECK(i->nodes == 215620);
        CHECK(i->timeMs == 314);
        CHECK(i->ev == 497);
        CHECK(i->wdl == std::array<int, 3>{748, 1, 251});
        CHECK(i->pv == std::vector<std::string>{"axb12", "kill", "axb2"});
        const auto exact = parseInfoLine("info depth 9 score ev -1000 exact pv b1xa");
        REQUIRE(exact);
        CHECK(exact->exact);
        CHECK(exact->ev == -1000);
        CHECK_FALSE(parseInfoLine("info string hello score ev 3"));
        CHECK_FALSE(parseInfoLine("info depth 3 nodes 10"));
        CHECK_FALSE(parseInfoLine("info depth 3 score ev lots"));
        CHECK_FALSE(parseInfoLine("bestmove c2-b2"));
    }

    TEST_CASE("rule options for the engine, ruleset first") {
        RuleOptions o;
        REQUIRE_FALSE(o.set("Ruleset", "holochess"));
        REQUIRE_FALSE(o.set("DrawTurns", "12"));
        const auto pairs = ruleOptionPairs(Rules(o));
        REQUIRE(pairs.size() > 2);
        CHECK(pairs[0] == std::pair<std::string, std::string>{"Ruleset", "holochess"});
        CHECK(std::find(pairs.begin(), pairs.end(),
                        std::pair<std::string, std::string>{"DrawTurns", "12"}) != pairs.end());
    }
}
