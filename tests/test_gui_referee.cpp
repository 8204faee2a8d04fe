// The browser board's referee (tools/gui/referee.h): who may decide, the seeded dice,
// undo, the end of a game and its record in the arena's format.
#include <doctest/doctest.h>

#include <fstream>

#include "game.h"
#include "referee.h"
#include "temp_dir.h"

using namespace dejarik;
using namespace dejarik::gui;

namespace {

std::unique_ptr<Referee> newGame(std::uint64_t seed, Player human = Player::One,
                                 Ruleset ruleset = Ruleset::Kelly, bool randomDeal = false) {
    GameSetup setup;
    setup.options.ruleset = ruleset;
    setup.seed = seed;
    setup.human = human;
    setup.randomDeal = randomDeal;
    std::string error;
    auto game = Referee::start(setup, error);
    REQUIRE_MESSAGE(game, error);
    return game;
}

// Plays `count` steps with decisions picked by a seeded generator (attacks preferred half
// of the time, so that games end), rolling dice when due.
void playRandomly(Referee& game, int count, std::uint64_t& rng) {
    for (int i = 0; i < count && game.turn() != Turn::Over; ++i) {
        if (game.turn() == Turn::Dice) {
            (void)game.roll();
            continue;
        }
        EventList list;
        game.position().generate(list);
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        std::vector<Event> attacks;
        for (const Event e : list)
            if (e.kind() == EventKind::Attack) attacks.push_back(e);
        const Event pick = !attacks.empty() && (rng >> 40) % 2 == 0
                               ? attacks[(rng >> 20) % attacks.size()]
                               : list[static_cast<int>((rng >> 33) % list.size())];
        REQUIRE_FALSE(game.decide(pick.token(), game.turn() == Turn::Human));
    }
}

}  // namespace

TEST_SUITE("gui-referee") {
    TEST_CASE("only the party whose decision it is may decide, and only legally") {
        auto game = newGame(1);
        CHECK(game->deal() == Position::startDfen(Ruleset::Kelly));
        CHECK(game->turn() == Turn::Human);
        const std::string before = game->position().dfen();
        CHECK(game->decide("c2-b2", false) == "it is the human's decision");
        CHECK(game->decide("c2-c9", true)->find("not a legal decision") != std::string::npos);
        CHECK(game->decide("kill", true)->find("not a legal decision") != std::string::npos);
        CHECK(game->decide("", true).has_value());
        CHECK(game->position().dfen() == before);
        CHECK(game->plies() == 0);
        EventList list;
        game->position().generate(list);
        CHECK_FALSE(game->decide(list[0].token(), true));
        CHECK(game->plies() == 1);

        auto second = newGame(1, Player::Two);
        CHECK(second->turn() == Turn::Engine);
        CHECK(second->decide("c2-b2", true) == "it is the engine's decision");
    }

    TEST_CASE("a game needs one engine limit") {
        GameSetup setup;
        setup.strength = Strength{0, 0};
        std::string error;
        CHECK_FALSE(Referee::start(setup, error));
        CHECK(error == "give the engine a depth or a time per decision");
        setup.strength = Strength{3, 100};
        CHECK_FALSE(Referee::start(setup, error));
    }

    TEST_CASE("the dice follow the seed") {
        std::vector<std::string> first, other;
        for (const std::uint64_t seed : {7u, 7u, 8u}) {
            auto game = newGame(seed);
            std::uint64_t rng = 3;  // the same decisions while the outcomes agree
            std::vector<std::string> outcomes;
            for (int i = 0; i < 400 && game->turn() != Turn::Over; ++i) {
                if (game->turn() == Turn::Dice) {
                    const Position before = game->position();
                    const auto roll = std::get<arena::AttackRoll>(game->roll());
                    CHECK(before.probability(Event::outcome(roll.outcome)) > 0);
                    CHECK(game->events().back().token == outcomeName(roll.outcome));
                    CHECK_FALSE(game->events().back().comment.empty());
                    outcomes.push_back(game->events().back().comment);
                } else {
                    playRandomly(*game, 1, rng);
                }
            }
            REQUIRE(outcomes.size() > 3);
            if (first.empty()) {
                first = outcomes;
            } else if (seed == 7) {
                CHECK(outcomes == first);
            } else {
                other = outcomes;
            }
        }
        CHECK(other != first);
    }

    TEST_CASE("undo goes back to the start of the human's turn") {
        auto game = newGame(11);
        CHECK_FALSE(game->undoTurn());
        std::uint64_t rng = 5;
        playRandomly(*game, 1, rng);  // the human's first action
        REQUIRE(game->plies() == 1);
        CHECK(game->undoTurn());
        CHECK(game->plies() == 0);
        CHECK(game->position().dfen() == game->deal());

        // Through the human's turn and the engine's reply to the human's next turn.
        while (!(game->turn() == Turn::Human && game->position().actionsLeft() == 2 &&
                 game->plies() > 0))
            playRandomly(*game, 1, rng);
        const std::size_t turnStart = game->plies();
        playRandomly(*game, 1, rng);
        CHECK(game->undoTurn());
        CHECK(game->plies() == turnStart);
        CHECK(game->undoTurn());  // at a turn's start: the turn before
        CHECK(game->plies() == 0);
        CHECK_FALSE(game->ending());
    }

    TEST_CASE("Setup arrange: the game starts with both reserves, player 1 setting up first") {
        for (const bool randomDeal : {false, true}) {
            CAPTURE(randomDeal);
            GameSetup setup;
            setup.options.arrange = true;
            setup.seed = 21;
            setup.human = Player::Two;
            setup.randomDeal = randomDeal;
            std::string error;
            auto game = Referee::start(setup, error);
            REQUIRE_MESSAGE(game, error);
            if (!randomDeal) CHECK(game->deal() == "./............/............/SGHNmtkl 1 2 0 1");
            const Position& start = game->position();
            REQUIRE(start.phase() == Phase::Setup);
            CHECK(start.hasReserve(Player::One));
            CHECK(start.hasReserve(Player::Two));
            CHECK(start.decider() == Player::One);
            CHECK(game->turn() == Turn::Engine);
            CHECK_FALSE(game->undoTurn());

            EventList list;
            start.generate(list);
            REQUIRE(list.size() == 24);
            const std::string engineSetup = start.token(list[5]);
            CHECK(engineSetup.starts_with("setup:"));
            CHECK(game->decide(engineSetup, true) == "it is the engine's decision");
            CHECK_FALSE(game->decide(engineSetup, false));
            REQUIRE(game->turn() == Turn::Human);
            CHECK(game->position().phase() == Phase::Setup);
            CHECK(game->position().decider() == Player::Two);
            game->position().generate(list);
            REQUIRE(list.size() == 24);
            CHECK_FALSE(game->decide(game->position().token(list[23]), true));
            for (int i = 0; i < 4; ++i) {
                CHECK_FALSE(game->position().at(Position::homeCell(Player::One, i)).isNone());
                CHECK_FALSE(game->position().at(Position::homeCell(Player::Two, i)).isNone());
            }
            // The engine's first turn, then the human's set-up is undone on its own.
            CHECK(game->turn() == Turn::Engine);
            CHECK(game->position().startsTurn());
            CHECK(game->undoTurn());
            CHECK(game->plies() == 1);
            CHECK(game->turn() == Turn::Human);
            CHECK(game->position().phase() == Phase::Setup);
        }
    }

    TEST_CASE("games end, and their records read back with the arena's reader") {
        int finished = 0;
        for (const Ruleset ruleset : kRulesets) {
            for (std::uint64_t seed = 1; seed <= 3; ++seed) {
                auto game = newGame(seed, seed % 2 ? Player::One : Player::Two, ruleset, true);
                std::uint64_t rng = seed * 77 + static_cast<int>(ruleset);
                playRandomly(*game, 3000, rng);
                const arena::GameRecord record = game->record("dejarik");
                const std::string text = arena::formatRecord(record);
                std::string error;
                const auto parsed = arena::parseRecords(text, error);
                REQUIRE_MESSAGE(parsed, error);
                REQUIRE(parsed->size() == 1);
                const arena::GameRecord& back = parsed->front();
                CHECK(back.moves() == record.moves());
                CHECK(back.deal == game->deal());
                CHECK(back.rules == game->rules().describe());
                CHECK(back.players[index(game->setup().human)] == "human");
                CHECK(back.finished == game->ending().has_value());
                if (game->ending()) {
                    ++finished;
                    CHECK(back.outcome == game->ending()->outcome);
                    CHECK(back.termination == game->ending()->termination);
                    CHECK(game->turn() == Turn::Over);
                    CHECK(game->decide("pass", true) == "the game is over");
                } else {
                    CHECK(text.find("[Result \"*\"]") != std::string::npos);
                }

                auto loaded = Referee::fromRecord(text, Player::One, Strength{2, 0}, error);
                REQUIRE_MESSAGE(loaded, error);
                CHECK(loaded->plies() == game->plies());
                CHECK(loaded->position().dfen() == game->position().dfen());
                CHECK(loaded->position().key() == game->position().key());
                CHECK(loaded->ending().has_value() == game->ending().has_value());
                if (game->ending()) CHECK(loaded->ending()->outcome == game->ending()->outcome);
            }
        }
        CHECK(finished >= 8);
    }

    TEST_CASE("Courtier games: one step a turn, chosen captures, to their end") {
        int kingCaptures = 0, choices = 0;
        for (std::uint64_t seed = 1; seed <= 6; ++seed) {
            auto game =
                newGame(seed, seed % 2 ? Player::One : Player::Two, Ruleset::Courtier, seed > 3);
            REQUIRE(game->rules().courtier());
            std::uint64_t rng = seed * 131;
            while (game->turn() != Turn::Over) {
                // Every decision begins a turn, and the other side decides next.
                REQUIRE(game->turn() != Turn::Dice);
                CHECK(game->position().startsTurn());
                EventList list;
                game->position().generate(list);
                std::vector<Event> captures;
                for (const Event e : list)
                    if (e.kind() == EventKind::CaptureMove) captures.push_back(e);
                rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                // Captures first (so that Kings fall), the last candidate of a choice
                // (not the generator's first), and the token the page sends for it.
                const Event pick = !captures.empty()
                                       ? captures.back()
                                       : list[static_cast<int>((rng >> 33) % list.size())];
                if (pick.kind() == EventKind::CaptureMove) ++choices;
                const Player decider = game->position().decider();
                REQUIRE_FALSE(
                    game->decide(game->position().token(pick), game->turn() == Turn::Human));
                const bool passedOn =
                    game->position().isOver() || game->position().decider() != decider;
                CHECK(passedOn);
                REQUIRE(game->plies() < 5000);
            }
            REQUIRE(game->ending());
            const Ending& end = *game->ending();
            if (end.outcome == arena::GameOutcome::Draw) {
                CHECK(end.termination == arena::Termination::QuietDraw);
            } else {
                ++kingCaptures;
                CHECK(end.termination == arena::Termination::KingCapture);
            }
            for (const auto& e : game->events())
                CHECK(e.startsTurn);

            const arena::GameRecord record = game->record("dejarik");
            CHECK(record.turns == game->plies());
            const std::string text = arena::formatRecord(record);
            CHECK(text.find("[Termination \"" +
                            std::string(arena::terminationName(end.termination)) + "\"]") !=
                  std::string::npos);
            std::string error;
            auto loaded = Referee::fromRecord(text, Player::One, Strength{2, 0}, error);
            REQUIRE_MESSAGE(loaded, error);
            CHECK(loaded->rules().courtier());
            CHECK(loaded->moves() == game->moves());
            CHECK(loaded->position().key() == game->position().key());
            REQUIRE(loaded->ending());
            CHECK(loaded->ending()->termination == end.termination);
        }
        CHECK(kingCaptures >= 1);
        CHECK(choices >= 1);
    }

    TEST_CASE("Courtier undo goes back one move of the human's") {
        auto game = newGame(3, Player::One, Ruleset::Courtier);
        std::uint64_t rng = 17;
        playRandomly(*game, 3, rng);  // the human, the engine, the human
        REQUIRE(game->plies() == 3);
        CHECK(game->undoTurn());
        CHECK(game->plies() == 2);
        CHECK(game->turn() == Turn::Human);
        CHECK(game->undoTurn());  // at a turn's start: the human's move before
        CHECK(game->plies() == 0);
        CHECK_FALSE(game->undoTurn());
    }

    TEST_CASE("an unfinished game saved and loaded goes on") {
        auto game = newGame(4);
        std::uint64_t rng = 9;
        playRandomly(*game, 9, rng);
        REQUIRE_FALSE(game->ending());
        const std::string text = arena::formatRecord(game->record("dejarik"));
        CHECK(text.find("[Termination") == std::string::npos);
        std::string error;
        auto loaded = Referee::fromRecord(text, Player::One, Strength{2, 0}, error);
        REQUIRE_MESSAGE(loaded, error);
        CHECK(loaded->turn() == game->turn());
        CHECK(loaded->position().dfen() == game->position().dfen());
        CHECK(loaded->position().key() == game->position().key());
    }

    TEST_CASE("a record naming a file on the server is refused, the file unopened") {
        // A valid creature file: the record is refused for naming it, not for its contents.
        const testing::TempDir dir;
        const std::string path = (dir.path() / "set.txt").string();
        std::ofstream(path) << "set Mine\nstart ABCD EFGH\nA 6 6 2 Aa\nB 6 5 3 Bb\n"
                               "C 4 3 2 Cc\nD 4 4 1 Dd\nE 2 7 3 Ee\nF 3 8 1 Ff\n"
                               "G 7 3 2 Gg\nH 8 2 2 Hh\n";
        const auto record = [](const std::string& rules) {
            return "[Player1 \"a\"]\n[Player2 \"b\"]\n[Rules \"" + rules +
                   "\"]\n[Deal \"./............/.ABCD..efgh. 1 2 0 1\"]\n[Result \"*\"]\n\n*\n";
        };
        std::string error;
        for (const std::string& tag :
             {"kelly CreatureFile=" + path, "kelly creaturefile=" + path,
              std::string("kelly DrawTurns=30 CREATUREFILE=/etc/passwd")}) {
            CHECK_FALSE(Referee::fromRecord(record(tag), Player::One, Strength{2, 0}, error));
            CHECK_MESSAGE(error ==
                              "Rules tag: 'CreatureFile' names a file on the server and cannot "
                              "be set by a page",
                          tag);
        }
        // Without the file the deal's letters are not the kelly creatures': only that.
        CHECK_FALSE(Referee::fromRecord(record("kelly"), Player::One, Strength{2, 0}, error));
        CHECK(error.find("Deal tag") == 0);
    }

    TEST_CASE("Rays of Death: the dice roll the combat cell as the arena's do") {
        GameSetup setup;
        setup.options.raysOfDeath = true;
        setup.seed = 21;
        std::string error;
        auto game = Referee::start(setup, error);
        REQUIRE_MESSAGE(game, error);
        const arena::LuckStream luck(setup.seed, 0, 0, arena::DiceMode::Independent);
        std::uint64_t rng = 17, rolls = 0;
        std::size_t secondRoll = 0;  // the ply of the second roll
        for (int i = 0; i < 400 && game->turn() != Turn::Over; ++i) {
            if (game->position().phase() != Phase::Roll) {
                playRandomly(*game, 1, rng);
                continue;
            }
            // Whoever's cycle it is, neither party decides the roll.
            REQUIRE(game->turn() == Turn::Dice);
            for (const bool byHuman : {true, false})
                CHECK(game->decide("ray:a", byHuman) == "the dice are due, not a decision");
            const Position before = game->position();
            const Roll roll = game->roll();
            REQUIRE(std::holds_alternative<arena::LuckStream::RayRoll>(roll));
            const auto dice = std::get<arena::LuckStream::RayRoll>(roll);
            const auto expected = luck.rayRoll(rolls++);
            CHECK(dice.d4 == expected.d4);
            CHECK(dice.d12 == expected.d12);
            CHECK(before.probability(Event::roll(dice.cell())) > 0);
            CHECK(game->events().back().token == before.token(Event::roll(expected.cell())));
            CHECK(game->events().back().comment == expected.describe());
            CHECK(game->position().combatCell() == expected.cell().index());
            if (rolls == 2) secondRoll = game->plies() - 1;
        }
        REQUIRE(rolls >= 3);

        // The same game cut just before its second roll, saved and loaded: the roll is due
        // and comes out as it did.
        auto cut = Referee::start(setup, error);
        REQUIRE_MESSAGE(cut, error);
        while (cut->plies() < secondRoll) {
            const std::string& token = game->events()[cut->plies()].token;
            if (cut->turn() == Turn::Dice) {
                (void)cut->roll();
                REQUIRE(cut->events().back().token == token);
            } else {
                REQUIRE_FALSE(cut->decide(token, cut->turn() == Turn::Human));
            }
        }
        REQUIRE(cut->position().phase() == Phase::Roll);
        const std::string text = arena::formatRecord(cut->record("dejarik"));
        auto loaded = Referee::fromRecord(text, Player::One, Strength{2, 0}, error);
        REQUIRE_MESSAGE(loaded, error);
        REQUIRE(loaded->turn() == Turn::Dice);
        (void)loaded->roll();
        CHECK(loaded->events().back().token == game->events()[secondRoll].token);
        CHECK(loaded->events().back().comment == game->events()[secondRoll].comment);
    }

    TEST_CASE("a tampered record is refused") {
        auto game = newGame(4);
        std::uint64_t rng = 9;
        playRandomly(*game, 6, rng);
        std::string text = arena::formatRecord(game->record("dejarik"));
        const std::string first = game->events().front().token;
        text.replace(text.find(" " + first + " ") + 1, first.size(), "a-a");
        std::string error;
        CHECK_FALSE(Referee::fromRecord(text, Player::One, Strength{2, 0}, error));
        CHECK(error.find("event 1 'a-a' is not legal") == 0);
        CHECK_FALSE(Referee::fromRecord("[Event \"x\"]\n", Player::One, Strength{2, 0}, error));
        CHECK_FALSE(error.empty());
        CHECK_FALSE(Referee::fromRecord("", Player::One, Strength{2, 0}, error));
        CHECK(error == "expected one record, found 0");
    }
}
