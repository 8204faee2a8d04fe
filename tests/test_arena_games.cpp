// The referee and the tournament with in-process players: duplicate dice, the variance
// they save, records, results files, shards, resumption and the SPRT stop.
#include <doctest/doctest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis.h"
#include "baselines.h"
#include "deals.h"
#include "explain.h"
#include "report_fit.h"
#include "test_arena_support.h"
#include "tournament.h"

using namespace dejarik;
using namespace dejarik::arena;

namespace {

using testing::quietLog;
using testing::run;

EngineSpec builtin(const std::string& name, const std::string& kind, std::uint64_t seed) {
    return testing::engineSpec({"name=" + name, "builtin=" + kind, "seed=" + std::to_string(seed)});
}

RunConfig baseConfig(std::vector<EngineSpec> engines, std::uint64_t pairs) {
    RunConfig c;
    c.engines = std::move(engines);
    c.ruleAssignments = {{"Ruleset", "kelly"}};
    c.pairs = pairs;
    c.seed = 42;
    c.log = quietLog();
    return c;
}

std::string tempPath(const std::string& name) {
    return (std::filesystem::temp_directory_path() /
            ("dejarik-arena-test-" + std::to_string(::getpid()) + "-" + name))
        .string();
}

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Greedy, except that in about one position in `every` (chosen by the position and the
// player's salt) it plays a random decision instead: two such players of different salts
// play the same game for a while and then drift apart, like two versions of one engine.
class DriftingGreedy final : public Seat {
  public:
    DriftingGreedy(std::string name, std::uint64_t salt, std::uint64_t every)
        : name_(std::move(name)), salt_(salt), every_(every) {}
    [[nodiscard]] const std::string& name() const override { return name_; }
    [[nodiscard]] Reply prepare() override { return {}; }
    [[nodiscard]] Reply decide(const DecisionRequest& r) override {
        const Position& pos = r.position;
        std::uint64_t rng =
            mixKey(mixKey(pos.key(), pos.turn()), pos.quiet() * 4 + pos.actionsLeft());
        const bool drift = mixKey(rng, salt_) % every_ == 0;
        std::uint64_t state = mixKey(rng, salt_ + 1);
        const Event e =
            drift ? search::randomDecision(pos, state) : search::greedyDecision(pos, rng);
        return {SeatFault::None, e.token(), {}, ""};
    }
    void recover() override {}
    void shutdown() override {}

  private:
    std::string name_;
    std::uint64_t salt_;
    std::uint64_t every_;
};

// A seat that fails in a set way at its n-th decision.
class FaultySeat final : public Seat {
  public:
    FaultySeat(SeatFault fault, std::string token, int at)
        : fault_(fault), token_(std::move(token)), at_(at) {}
    [[nodiscard]] const std::string& name() const override { return name_; }
    [[nodiscard]] Reply prepare() override { return {}; }
    [[nodiscard]] Reply decide(const DecisionRequest& r) override {
        if (++decisions_ == at_) return {fault_, token_, {}, "as told"};
        std::uint64_t rng = 1;
        return {SeatFault::None, search::randomDecision(r.position, rng).token(), {}, ""};
    }
    void recover() override { ++recoveries; }
    void shutdown() override {}
    int recoveries = 0;

  private:
    std::string name_ = "faulty";
    SeatFault fault_;
    std::string token_;
    int at_;
    int decisions_ = 0;
};

// The score of the first seat over `pairs` deal pairs, as pentanomial counts, and each
// pair's score and luck.
Pentanomial playPairs(Seat& a, Seat& b, DiceMode mode, int pairs,
                      std::vector<PairSample>* samples = nullptr) {
    const Rules rules = Rules::preset(Ruleset::Kelly);
    Pentanomial p;
    RefereeConfig config;
    for (int r = 0; r < pairs; ++r) {
        const std::string deal = randomDeal(Ruleset::Kelly, 9, r);
        std::array<double, 2> points{};
        std::array<Luck, 2> luck{};
        for (int g = 0; g < 2; ++g) {
            Seat* one = g == 0 ? &a : &b;
            Seat* two = g == 0 ? &b : &a;
            const GameSpec spec{rules, deal, LuckStream(9, r, g, mode), {one, two}, {}};
            const auto record = playGame(spec, config);
            REQUIRE(record);
            points[g] = pointsFor(record->outcome, g == 0 ? Player::One : Player::Two);
            luck[g] = record->luck;
        }
        p.add(points[0], points[1]);
        if (samples)
            samples->push_back({(points[0] + points[1]) / 2,
                                (luck[0].attackPoints() - luck[1].attackPoints()) / 2,
                                (luck[0].showdownPoints() - luck[1].showdownPoints()) / 2});
    }
    return p;
}

}  // namespace

TEST_SUITE("arena-unit") {
    TEST_CASE("the two games of a duplicate pair see the same dice") {
        // Two copies of one deterministic player: with shared dice the second game of a pair
        // repeats the first move for move and roll for roll, seats swapped.
        auto config = baseConfig({builtin("A", "greedy", 3), builtin("B", "greedy", 3)}, 6);
        config.keepRecords = true;
        const RunOutcome dup = run(config);
        REQUIRE(dup.records.size() == 12);
        std::map<std::uint64_t, std::vector<const GameRecord*>> byJob;
        for (const auto& r : dup.records)
            byJob[r.job].push_back(&r);
        int attacks = 0;
        for (const auto& [job, games] : byJob) {
            REQUIRE(games.size() == 2);
            const GameRecord& g1 = *games[0];
            const GameRecord& g2 = *games[1];
            CHECK(g1.deal == g2.deal);
            REQUIRE(g1.events.size() == g2.events.size());
            for (std::size_t i = 0; i < g1.events.size(); ++i) {
                CHECK(g1.events[i].token == g2.events[i].token);
                CHECK(g1.events[i].comment == g2.events[i].comment);  // the dice
                attacks += g1.events[i].token.find('x') != std::string::npos;
            }
            CHECK(g1.outcome == g2.outcome);  // so the pair is always a 1-1 split
        }
        CHECK(attacks > 10);
        for (const auto& s : tally(dup.results))
            CHECK(s.penta.counts[2] == 6);

        config.diceMode = DiceMode::Independent;
        const RunOutcome ind = run(config);
        int differing = 0;
        for (std::size_t i = 0; i + 1 < ind.records.size(); i += 2)
            differing += ind.records[i].moves() != ind.records[i + 1].moves();
        CHECK(differing > 0);
    }

    TEST_CASE("duplicate dice narrow the score's interval") {
        // Identical players: duplicate pairs always split 1-1, independent dice do not.
        DriftingGreedy same1("same", 1, 1u << 30), same2("same", 1, 1u << 30);
        const Pentanomial identicalDup = playPairs(same1, same2, DiceMode::Duplicate, 100);
        const Pentanomial identicalInd = playPairs(same1, same2, DiceMode::Independent, 100);
        MESSAGE("two copies of one player, 100 pairs: pair-score sd independent ",
                scoreInterval(identicalInd).stdev, ", duplicate ",
                scoreInterval(identicalDup).stdev);
        CHECK(scoreInterval(identicalDup).stdev == 0);
        CHECK(scoreInterval(identicalInd).stdev > 0.1);

        // Players that share most decisions and drift apart now and then.
        DriftingGreedy a("a", 11, 64), b("b", 22, 64);
        constexpr int kPairs = 300;
        std::vector<PairSample> samples;
        const Interval dup = scoreInterval(playPairs(a, b, DiceMode::Duplicate, kPairs, &samples));
        const Interval ind = scoreInterval(playPairs(a, b, DiceMode::Independent, kPairs));
        const LuckAdjusted adjusted = luckAdjusted(samples);
        MESSAGE("drifting greedy, ", kPairs, " pairs: pair-score sd independent ", ind.stdev,
                ", duplicate ", dup.stdev, ", duplicate and luck-adjusted ",
                adjusted.interval.stdev);
        CHECK(dup.stdev < 0.9 * ind.stdev);
        CHECK(adjusted.interval.stdev < 0.9 * dup.stdev);
        CHECK(adjusted.interval.mean == doctest::Approx(dup.mean).epsilon(0.1));
    }

    TEST_CASE("the referee forfeits faulty players with the right termination") {
        const Rules rules = Rules::preset(Ruleset::Kelly);
        const std::string deal = randomDeal(Ruleset::Kelly, 1, 0);
        const auto play = [&](FaultySeat& faulty, bool faultyFirst) {
            BuiltinSeat other("other", "random", 5);
            const std::array<Seat*, 2> seats = faultyFirst ? std::array<Seat*, 2>{&faulty, &other}
                                                           : std::array<Seat*, 2>{&other, &faulty};
            const GameSpec spec{rules, deal, LuckStream(1, 0, 0, DiceMode::Duplicate), seats, {}};
            auto record = playGame(spec, RefereeConfig{});
            REQUIRE(record);
            return *record;
        };
        FaultySeat illegal(SeatFault::None, "a-a", 3);
        const GameRecord r1 = play(illegal, true);
        CHECK(r1.termination == Termination::Illegal);
        CHECK(r1.outcome == GameOutcome::Player2Wins);
        CHECK(r1.detail.find("'a-a'") != std::string::npos);
        CHECK(illegal.recoveries == 1);

        FaultySeat none(SeatFault::None, "", 2);
        CHECK(play(none, false).termination == Termination::Illegal);
        FaultySeat crash(SeatFault::Crash, "", 4);
        const GameRecord r3 = play(crash, false);
        CHECK(r3.termination == Termination::Crash);
        CHECK(r3.outcome == GameOutcome::Player1Wins);
        FaultySeat timeout(SeatFault::Timeout, "", 1);
        CHECK(play(timeout, true).termination == Termination::Stall);  // no time limit: a stall

        // Every record, forfeits included, replays through the rules core.
        std::string error;
        for (const auto& r : {r1, r3}) {
            CHECK(replayRecord(r, error));
            CHECK(error.empty());
        }
    }

    TEST_CASE("every decision goes to the player whose decision is due") {
        // After a counter-push the defender's player places the attacker: the seat of the
        // player not on turn is asked.
        class Spy final : public Seat {
          public:
            explicit Spy(Player seat) : seat_(seat), inner_("spy", "random", 7) {}
            [[nodiscard]] const std::string& name() const override { return inner_.name(); }
            [[nodiscard]] Reply prepare() override { return {}; }
            [[nodiscard]] Reply decide(const DecisionRequest& r) override {
                const Position& pos = r.position;
                CHECK(pos.decider() == seat_);
                CHECK(pos.phase() != Phase::Outcome);
                if (pos.phase() == Phase::Placement && pos.sideToMove() != seat_)
                    ++counterPlacements;
                return inner_.decide(r);
            }
            void recover() override {}
            void shutdown() override {}
            int counterPlacements = 0;

          private:
            Player seat_;
            BuiltinSeat inner_;
        };
        Spy one(Player::One), two(Player::Two);
        const Rules rules = Rules::preset(Ruleset::Kelly);
        for (int r = 0; r < 20; ++r) {
            const GameSpec spec{rules,
                                randomDeal(Ruleset::Kelly, 3, r),
                                LuckStream(3, r, 0, DiceMode::Duplicate),
                                {&one, &two},
                                {}};
            REQUIRE(playGame(spec, RefereeConfig{}));
        }
        CHECK(one.counterPlacements + two.counterPlacements > 0);
    }

    TEST_CASE("a turn cap draws the game") {
        auto config = baseConfig({builtin("A", "random", 1), builtin("B", "random", 2)}, 2);
        config.referee.maxTurns = 3;
        config.keepRecords = true;
        const RunOutcome out = run(config);
        for (const auto& r : out.records) {
            if (r.termination == Termination::TurnCap) {
                CHECK(r.outcome == GameOutcome::Draw);
                CHECK(r.turns == 3);
            }
        }
        CHECK(tally(out.results)[0].terminations.count(Termination::TurnCap) == 1);
    }

    TEST_CASE("records are written, parsed and replayed to the same final position") {
        auto config =
            baseConfig({builtin("greedy", "greedy", 1), builtin("random", "random", 2)}, 4);
        config.keepRecords = true;
        REQUIRE_FALSE(config.ruleOptions.set("BlockedPush", "kill-on-push"));
        const RunOutcome out = run(config);
        std::string text;
        for (const auto& r : out.records)
            text += formatRecord(r);
        std::string error;
        const auto parsed = parseRecords(text, error);
        INFO(error);
        REQUIRE(parsed);
        REQUIRE(parsed->size() == out.records.size());
        for (std::size_t i = 0; i < parsed->size(); ++i) {
            const GameRecord& a = out.records[i];
            const GameRecord& b = (*parsed)[i];
            CHECK(a.players == b.players);
            CHECK(a.deal == b.deal);
            CHECK(a.rules == b.rules);
            CHECK(a.outcome == b.outcome);
            CHECK(a.termination == b.termination);
            CHECK(a.round == b.round);
            CHECK(a.gameInPair == b.gameInPair);
            CHECK(a.finalDfen == b.finalDfen);
            CHECK(a.closingComment == b.closingComment);
            REQUIRE(a.events.size() == b.events.size());
            for (std::size_t k = 0; k < a.events.size(); ++k) {
                CHECK(a.events[k].token == b.events[k].token);
                CHECK(a.events[k].comment == b.events[k].comment);
            }
            const auto replay = replayRecord(b, error);
            INFO(error);
            REQUIRE(replay);
            CHECK(replay->final->isOver());
            CHECK(replay->rules->blockedPush() == BlockedPush::KillOnPush);
        }
        // A record that does not reach its Final position is caught.
        GameRecord broken = out.records[0];
        broken.events.pop_back();
        CHECK_FALSE(replayRecord(broken, error));
    }

    TEST_CASE("RaysOfDeath: the referee rolls the combat cell; games end; records replay") {
        auto config =
            baseConfig({builtin("greedy", "greedy", 1), builtin("random", "random", 2)}, 2);
        config.keepRecords = true;
        config.ruleAssignments.emplace_back("RaysOfDeath", "true");
        REQUIRE_FALSE(config.ruleOptions.set("RaysOfDeath", "true"));
        const RunOutcome out = run(config);
        REQUIRE(out.records.size() == 4);
        for (std::size_t i = 0; i < out.records.size(); ++i) {
            const GameRecord& r = out.records[i];
            std::vector<std::string> rolls;
            for (const auto& e : r.events)
                if (e.token.starts_with("ray:")) {
                    rolls.push_back(e.token);
                    CHECK(e.comment.starts_with("d4 "));
                }
            CHECK_FALSE(rolls.empty());
            std::string error;
            const auto replay = replayRecord(r, error);
            INFO(error);
            REQUIRE(replay);
            CHECK(replay->final->isOver());
            CHECK(replay->rules->raysOfDeath());
            // The two games of a pair roll the same cells, in the same order.
            if (i % 2 == 1) {
                std::vector<std::string> first;
                for (const auto& e : out.records[i - 1].events)
                    if (e.token.starts_with("ray:")) first.push_back(e.token);
                const std::size_t n = std::min(first.size(), rolls.size());
                CHECK(
                    std::equal(first.begin(), first.begin() + static_cast<long>(n), rolls.begin()));
            }
        }
    }

    TEST_CASE("calibration reads the evaluations back from the records") {
        const GameRecord r =
            testing::kellyRecord(std::string(Position::startDfen(Ruleset::Kelly)),
                                 {{"c3-b3", "ev 800 wdl 850/100/50 d 3 t 5", 1, true},
                                  {"c5-b5", "ev 700 t 5", 1, false},
                                  {"c11-b12", "ev -300 t 5", 2, true}},
                                 GameOutcome::Player1Wins);
        std::string error;
        const auto c = calibrate({r}, "", 4, error);
        INFO(error);
        REQUIRE(c);
        CHECK(c->decisions == 3);
        CHECK(c->games == 1);
        // Bin [0.5, 1): the two decisions of the winner; bin [-0.5, 0): the loser's.
        CHECK(c->bins[3].decisions == 2);
        CHECK(c->bins[3].games == 1);  // two decisions of one game are one sample
        CHECK(c->bins[1].games == 1);
        CHECK(c->bins[0].games == 0);
        CHECK(c->bins[3].predicted == doctest::Approx(0.75));
        CHECK(c->bins[3].actual == doctest::Approx(1.0));
        CHECK(c->bins[3].withWdl == 1);
        CHECK(c->bins[3].predictedWdl[0] == doctest::Approx(0.85));
        CHECK(c->bins[1].actual == doctest::Approx(-1.0));
        CHECK(c->meanSquaredError == doctest::Approx((0.04 + 0.09 + 0.49) / 3));
        const auto onlyY = calibrate({r}, "y", 4, error);
        REQUIRE(onlyY);
        CHECK(onlyY->decisions == 1);
    }

    TEST_CASE("the reported value's fit recovers what games of known results say") {
        // x decides twice at +750 and y once at -750; x wins half the games and draws the
        // rest: at |v| = 0.75 (a knot) the expected result is 0.5 and the draw chance 0.5.
        GameRecord r = testing::kellyRecord(std::string(Position::startDfen(Ruleset::Kelly)),
                                            {{"c3-b3", "ev 750 t 5", 1, true},
                                             {"c5-b5", "ev 750 t 5", 1, false},
                                             {"c11-b12", "ev -750 t 5", 2, true}});
        std::vector<GameRecord> records;
        for (int i = 0; i < 20; ++i) {
            r.outcome = i % 2 == 0 ? GameOutcome::Player1Wins : GameOutcome::Draw;
            r.termination = i % 2 == 0 ? Termination::Elimination : Termination::QuietDraw;
            records.push_back(r);
        }
        std::string error;
        const auto fit = fitReport(records, "", 10, error);
        INFO(error);
        REQUIRE(fit);
        CHECK(fit->ruleset == Ruleset::Kelly);
        CHECK(fit->decisions == 60);
        const eval::Reported at = eval::reported(0.75, Ruleset::Kelly, fit->tunables);
        CHECK(at.value == doctest::Approx(0.5).epsilon(0.01));
        CHECK(at.draw == doctest::Approx(0.5).epsilon(0.01));
        CHECK(fit->meanSquaredErrorAfter < fit->meanSquaredErrorBefore);
        // Restated by the fit, the records are calibrated.
        const auto c = calibrateReported(records, "", 4, fit->tunables, error);
        REQUIRE(c);
        CHECK(c->bins[3].predicted == doctest::Approx(0.5).epsilon(0.01));
        CHECK(c->bins[3].actual == doctest::Approx(0.5));
        CHECK(c->bins[3].predictedWdl[1] == doctest::Approx(0.5).epsilon(0.01));
        // One ruleset at a time.
        records.back().rules = Rules::preset(Ruleset::Holochess).describe();
        records.back().deal = std::string(Position::startDfen(Ruleset::Holochess));
        records.back().events = {{"c2-b1", "ev 750 t 5", 1, true}};
        CHECK_FALSE(fitReport(records, "", 10, error));
        CHECK(error.find("mix rulesets") != std::string::npos);
    }

    TEST_CASE("results files: format, merge, conflicts") {
        auto config =
            baseConfig({builtin("greedy", "greedy", 1), builtin("random", "random", 2)}, 3);
        const RunOutcome out = run(config);
        std::string text = out.results.header();
        for (const auto& g : out.results.games)
            text += ResultsFile::formatGame(g);
        std::string error;
        const auto parsed = parseResults(text, error);
        INFO(error);
        REQUIRE(parsed);
        CHECK(parsed->fingerprint == out.results.fingerprint);
        CHECK(parsed->games == out.results.games);
        CHECK(parsed->engines == out.results.engines);

        const auto same = mergeResults({*parsed, *parsed}, error);
        REQUIRE(same);
        CHECK(same->games.size() == parsed->games.size());

        ResultsFile conflicting = *parsed;
        conflicting.games[0].outcome = conflicting.games[0].outcome == GameOutcome::Draw
                                           ? GameOutcome::Player1Wins
                                           : GameOutcome::Draw;
        CHECK_FALSE(mergeResults({*parsed, conflicting}, error));
        ResultsFile other = *parsed;
        other.fingerprint = "0000000000000000";
        CHECK_FALSE(mergeResults({*parsed, other}, error));
        CHECK_FALSE(parseResults("not a results file\n", error));
        CHECK_FALSE(parseResults(text + "game job=0 round=1 game=1 encounter=5 p1=0 p2=1 "
                                        "result=1-0 termination=crash\n",
                                 error));

        // An encounter of an engine the file does not list (its line lost or edited).
        const auto cut = [&](std::string_view from, std::string_view to) {
            std::string t = text;
            t.erase(t.find(from), t.find(to) - t.find(from));
            return t;
        };
        CHECK_FALSE(parseResults(cut("engine 1 ", "encounter 0"), error));
        CHECK(error.find("encounter of engines the file does not list") != std::string::npos);
        CHECK_FALSE(parseResults(text + "encounter 1 0 0\n", error));
        // A file cut short keeps its fingerprint and none of its encounters: merged with a
        // whole one, whose games name an encounter the first file lacks, it is refused.
        const auto headless = parseResults(text.substr(0, text.find("engine 0 ")), error);
        REQUIRE(headless);
        CHECK(headless->encounters.empty());
        CHECK_FALSE(mergeResults({*headless, *parsed}, error));
        CHECK(error.find("file 2 lists other engines or encounters") != std::string::npos);
    }

    TEST_CASE("shards merge into exactly the unsharded run") {
        const std::vector<EngineSpec> engines{builtin("greedy", "greedy", 1),
                                              builtin("random", "random", 2),
                                              builtin("random2", "random", 3)};
        auto whole = baseConfig(engines, 5);
        const RunOutcome all = run(whole);
        CHECK(all.results.games.size() == 5 * 3 * 2);

        std::vector<ResultsFile> shards;
        for (int k = 0; k < 3; ++k) {
            auto part = baseConfig(engines, 5);
            part.shardIndex = k;
            part.shardCount = 3;
            const RunOutcome o = run(part);
            CHECK(o.results.fingerprint == all.results.fingerprint);
            CHECK(o.results.games.size() == 10);
            shards.push_back(o.results);
        }
        std::string error;
        const auto merged = mergeResults(shards, error);
        REQUIRE(merged);
        auto sorted = all.results.games;
        std::sort(sorted.begin(), sorted.end(), [](const GameLine& a, const GameLine& b) {
            return std::pair(a.job, a.game) < std::pair(b.job, b.game);
        });
        CHECK(merged->games == sorted);
        CHECK(formatTable(*merged, std::nullopt) == formatTable(all.results, std::nullopt));
    }

    TEST_CASE("an interrupted run resumes without losing or replaying finished games") {
        const std::vector<EngineSpec> engines{builtin("greedy", "greedy", 1),
                                              builtin("random", "random", 2)};
        const std::string full = tempPath("full.results"), part = tempPath("part.results");
        std::filesystem::remove(full);
        std::filesystem::remove(part);
        auto config = baseConfig(engines, 6);
        config.resultsPath = full;
        const RunOutcome complete = run(config);
        CHECK(complete.results.games.size() == 12);

        // What an interruption leaves: the header and the games finished so far (here 5,
        // so one pair is half played).
        std::istringstream lines(readFile(full));
        std::ofstream cut(part);
        std::string line;
        int games = 0;
        while (std::getline(lines, line)) {
            if (line.rfind("game ", 0) == 0 && ++games > 5) break;
            cut << line << "\n";
        }
        cut.close();

        config.resultsPath = part;
        std::atomic<bool> interrupt{false};
        std::string error;
        CHECK_FALSE(runTournament(config, interrupt, error));  // exists, and no --resume
        CHECK(error.find("--resume") != std::string::npos);
        config.resume = true;
        config.keepRecords = true;
        const RunOutcome resumed = run(config);
        CHECK(resumed.records.size() == 7);  // only the missing games were played
        const auto a = readResultsFile(full, error);
        const auto b = readResultsFile(part, error);
        REQUIRE(a);
        REQUIRE(b);
        CHECK(mergeResults({*b}, error)->games == mergeResults({*a}, error)->games);

        // A line cut short by an interruption is dropped from the file and its game played
        // again: the file reads back whole, with every game once.
        {
            const std::string text = readFile(full);
            const std::size_t lastGame = text.rfind("game ");
            std::ofstream(part) << text.substr(0, lastGame + 30);  // no newline at the end
        }
        const RunOutcome mended = run(config);
        CHECK(mended.records.size() == 1);
        const auto reread = readResultsFile(part, error);
        INFO(error);
        REQUIRE(reread);
        CHECK(mergeResults({*reread}, error)->games == mergeResults({*a}, error)->games);

        // Games the run would not play, or one game with two results, are not this run's.
        const std::string whole = readFile(full);
        std::ofstream(part) << whole
                            << "game job=99 round=50 game=1 encounter=0 p1=0 p2=1 result=1-0 "
                               "termination=elimination\n";
        CHECK_FALSE(runTournament(config, interrupt, error));
        CHECK(error.find("not in this run's schedule") != std::string::npos);
        const std::string firstGame = whole.substr(whole.find("game "));
        const std::string firstLine = firstGame.substr(0, firstGame.find('\n') + 1);
        std::string conflicting = firstLine;
        const auto result = conflicting.find("result=") + 7;
        conflicting.replace(
            result, conflicting.find(' ', result) - result,
            firstLine.find("result=1/2-1/2") != std::string::npos ? "1-0" : "1/2-1/2");
        std::ofstream(part) << whole << conflicting;
        CHECK_FALSE(runTournament(config, interrupt, error));
        CHECK(error.find("two different results") != std::string::npos);

        // A file cut short in its header keeps its fingerprint but not its engines: games
        // appended to it could never be read back, so the resumption is refused.
        {
            const std::string text = readFile(full);
            std::ofstream(part) << text.substr(0, text.find("engine 0 "));
        }
        CHECK_FALSE(runTournament(config, interrupt, error));
        CHECK(error.find("other engines or encounters") != std::string::npos);

        // A resumption with other settings is refused.
        config.seed = 43;
        CHECK_FALSE(runTournament(config, interrupt, error));
        CHECK(error.find("other settings") != std::string::npos);
        std::filesystem::remove(full);
        std::filesystem::remove(part);
    }

    TEST_CASE("the SPRT ends a clear match early, from either statistic") {
        for (const char* statistic : {"pentanomial", "luck-adjusted"}) {
            INFO(statistic);
            auto config =
                baseConfig({builtin("greedy", "greedy", 1), builtin("random", "random", 2)}, 500);
            std::string error;
            config.sprt =
                SprtConfig::parse(std::string("elo0=0 elo1=20 statistic=") + statistic, error);
            REQUIRE(config.sprt);
            const RunOutcome out = run(config);
            REQUIRE(out.sprtStop);
            CHECK(out.sprtStop->decision == SprtDecision::AcceptH1);
            CHECK(out.sprtStop->llr >= config.sprt->upperBound());
            const auto stats = tally(out.results);
            CHECK(out.sprtStop->pairs <= stats[0].penta.pairs());
            CHECK(stats[0].penta.pairs() < 100);
            CHECK(sprtLlr(*config.sprt, stats[0]) >= config.sprt->upperBound());
            const bool luck = config.sprt->statistic == SprtStatistic::LuckAdjusted;
            CHECK(sprtLlr(*config.sprt, stats[0]) == (luck
                                                          ? sprtLlr(*config.sprt, stats[0].pairs)
                                                          : sprtLlr(*config.sprt, stats[0].penta)));
            // The luck-adjusted test never decides before the luck fit has its pairs.
            if (luck) CHECK(stats[0].penta.pairs() >= static_cast<std::int64_t>(kMinimumLuckPairs));
            const std::string table = formatTable(out.results, config.sprt);
            CHECK(table.find(std::string("statistic=") + statistic + "): LLR") !=
                  std::string::npos);
            CHECK(table.find("H1 accepted") != std::string::npos);

            config.engines.push_back(builtin("third", "random", 3));
            std::atomic<bool> interrupt{false};
            CHECK_FALSE(runTournament(config, interrupt, error));  // SPRT needs a match
        }
    }
}
