// Game analysis and rollouts (tools/analysis/, docs/analysis.md): games played in process
// through the arena's referee, then analysed; rollouts of positions the endgame tables
// solve.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>

#include "engine.h"
#include "game_analysis.h"
#include "referee.h"
#include "rollout.h"
#include "test_tables_support.h"

using namespace dejarik;
using namespace dejarik::analysis;

namespace {

// A player that decides by the analysis' own search: the best line of `rankAll` (every
// decision ranked, as the analysis ranks them) or of `best`.
class SearchSeat final : public arena::Seat {
  public:
    SearchSeat(std::string name, const SearchSettings& settings, bool rankAll)
        : name_(std::move(name)), search_(settings), rankAll_(rankAll) {}
    [[nodiscard]] const std::string& name() const override { return name_; }
    [[nodiscard]] arena::Reply prepare() override { return {}; }
    [[nodiscard]] arena::Reply decide(const arena::DecisionRequest& request) override {
        const search::Report r =
            rankAll_ ? search_.rankAll(request.position) : search_.best(request.position);
        arena::Reply reply;
        reply.token = r.lines.front().move.token();
        return reply;
    }
    void recover() override {}
    void shutdown() override {}

  private:
    std::string name_;
    PositionSearch search_;
    bool rankAll_;
};

SearchSettings atDepth(int depth, std::shared_ptr<const tables::Tablebase> tables = {}) {
    SearchSettings s;
    s.limits.depth = depth;
    s.options.hashMiB = 1;
    s.tables = std::move(tables);
    return s;
}

arena::GameRecord play(const Rules& rules, const std::string& deal, arena::Seat& one,
                       arena::Seat& two, std::uint64_t seed) {
    arena::TimeControl control;
    control.depth = 1;
    const arena::GameSpec spec{rules,
                               deal,
                               arena::LuckStream(seed, 0, 0, arena::DiceMode::Duplicate),
                               {&one, &two},
                               {control, control}};
    arena::RefereeConfig config;
    config.maxTurns = 200;
    const auto record = arena::playGame(spec, config);
    REQUIRE(record);
    return *record;
}

GameAnalysis analyse(const arena::GameRecord& record, const Rules& rules,
                     const SearchSettings& settings) {
    std::string error;
    const auto a = analyseGame(record, rules, settings, error);
    REQUIRE_MESSAGE(a, error);
    return *a;
}

// A kelly 2v1 endgame (S and G against h) under DrawTurns 0, with its table.
struct Endgame {
    Rules rules = testing::rulesOf(Ruleset::Kelly, {"DrawTurns=0"});
    testing::TempDir dir;
    std::shared_ptr<tables::Tablebase> tb;
    std::string deal = "./SGh........./............ 1 2 0 1";
    Endgame() {
        tb = std::make_shared<tables::Tablebase>(dir.path(), rules);
        (void)tables::generate(*tb, {testing::material("SG v h").canonical()}, {}, {});
    }
};

}  // namespace

TEST_SUITE("analysis") {
    TEST_CASE("marks and ratings by the documented bands") {
        CHECK(markOf(0.0) == Mark::None);
        CHECK(markOf(0.0199) == Mark::None);
        CHECK(markOf(0.02) == Mark::Doubtful);
        CHECK(markOf(0.05) == Mark::Bad);
        CHECK(markOf(0.1) == Mark::VeryBad);
        CHECK(markText(Mark::VeryBad) == "??");
        CHECK(ratingOf(0.001) == "supernatural");
        CHECK(ratingOf(0.03) == "intermediate");
        CHECK(ratingOf(0.5) == "awful");
    }

    TEST_CASE("the random player errs at least five times as much as the search") {
        const Rules rules = testing::rulesOf(Ruleset::Kelly);
        const SearchSettings settings = atDepth(3);
        // Both seats, so that neither side's deal decides it.
        for (const int searchSeat : {0, 1}) {
            CAPTURE(searchSeat);
            SearchSeat engine("search", atDepth(3), false);
            arena::BuiltinSeat random("random", "random", 7);
            const arena::GameRecord record =
                searchSeat == 0
                    ? play(rules, "./............/.HLSN..kgtm. 1 2 0 1", engine, random, 3)
                    : play(rules, "./............/.HLSN..kgtm. 1 2 0 1", random, engine, 3);
            const GameAnalysis a = analyse(record, rules, settings);
            const PlayerSummary& s = a.players[static_cast<std::size_t>(searchSeat)];
            const PlayerSummary& r = a.players[static_cast<std::size_t>(1 - searchSeat)];
            CAPTURE(s.meanError());
            CAPTURE(r.meanError());
            REQUIRE(r.decisions >= 5);
            CHECK(r.meanError() > 0.01);
            CHECK(r.meanError() >= 5 * s.meanError());
        }
    }

    TEST_CASE("a game of the analysis' own best decisions has no error") {
        const Rules rules = testing::rulesOf(Ruleset::Dalsian);
        const SearchSettings settings = atDepth(2);
        SearchSeat one("best 1", settings, true), two("best 2", settings, true);
        const arena::GameRecord record =
            play(rules, std::string(Position::startDfen(Ruleset::Dalsian)), one, two, 11);
        const GameAnalysis a = analyse(record, rules, settings);
        REQUIRE(a.players[0].decisions + a.players[1].decisions >= 10);
        for (const AnalysedEvent& e : a.events) {
            if (e.kind != EntryKind::Decision) continue;
            CAPTURE(e.token);
            CHECK(e.error == 0.0);
            CHECK(e.best == e.token);
        }
        CHECK(a.players[0].totalError == 0.0);
        CHECK(a.players[1].totalError == 0.0);
    }

    TEST_CASE("initial ev + luck - errors of 1 + errors of 2 is the result on exact endgames") {
        const Endgame eg;
        const SearchSettings settings = atDepth(2, eg.tb);
        int games = 0, showdowns = 0;
        double errors = 0;
        for (const std::uint64_t seed : {1, 2, 3, 4, 5, 6}) {
            CAPTURE(seed);
            // The random player makes errors; the search plays the table's best.
            SearchSeat engine("search", settings, false);
            arena::BuiltinSeat random("random", "random", seed);
            const arena::GameRecord record = seed % 2
                                                 ? play(eg.rules, eg.deal, engine, random, seed)
                                                 : play(eg.rules, eg.deal, random, engine, seed);
            if (record.termination == arena::Termination::TurnCap) continue;
            ++games;
            const GameAnalysis a = analyse(record, eg.rules, settings);
            showdowns += record.termination == arena::Termination::Showdown;
            // Every value is a stored table value, off the exact one by half a quantum and
            // off the game operator applied to its successors' by kVerifyTolerance: the
            // identity telescopes over the events, each adding at most that much.
            const double tolerance =
                static_cast<double>(a.events.size() + 1) * tables::kVerifyTolerance;
            CHECK(std::abs(a.residual()) <= tolerance);
            errors += a.players[0].totalError + a.players[1].totalError;
        }
        CHECK(games >= 4);
        CHECK(errors > 0.01);
        CHECK(showdowns >= 1);
    }

    TEST_CASE("a rollout of a solved endgame finds the table's value within its interval") {
        const Endgame eg;
        std::string error;
        const auto root = Position::fromDfen(eg.deal, eg.rules, &error);
        REQUIRE_MESSAGE(root, error);
        const double want = *eg.tb->probeForDecider(*root);
        RolloutConfig config;
        config.search = atDepth(1, eg.tb);
        config.games = 300;
        config.seed = 5;
        // Tied best decisions may go round in circles (the tables know no distance to the
        // attack); a cut playout takes the table's exact value of where it stands.
        config.maxTurns = 25;
        const RolloutResult r = rollout(*root, {{"(engine)", std::nullopt}}, config);
        const CandidateResult& c = r.candidates.front();
        CAPTURE(want);
        CAPTURE(c.plain.mean);
        CAPTURE(c.adjusted.mean);
        CHECK(c.plain.low <= want);
        CHECK(want <= c.plain.high);
        CHECK(c.adjusted.low <= want);
        CHECK(want <= c.adjusted.high);
        CHECK(c.ends[static_cast<int>(PlayoutEnd::Win)] > 100);
    }

    TEST_CASE("rollouts: candidates share their dice, so differences are paired") {
        const Rules rules = testing::rulesOf(Ruleset::Kelly);
        const Position root = Position::startpos(rules);
        EventList legal;
        root.generate(legal);
        RolloutConfig config;
        config.search = atDepth(1);
        config.games = 12;
        config.truncate = 16;
        // The same decision twice: the same games, roll for roll.
        const RolloutResult same = rollout(root, {{"a", legal[0]}, {"b", legal[0]}}, config);
        const Estimate zero = difference(same.candidates[0], same.candidates[1]);
        CHECK(zero.mean == 0.0);
        CHECK(zero.stdError == 0.0);
        // Two decisions: the paired difference is measured at least as precisely as the
        // two means are together.
        const RolloutResult two =
            rollout(root, {{"a", legal[0]}, {"b", legal[legal.size() - 1]}}, config);
        const CandidateResult &a = two.candidates[0], &b = two.candidates[1];
        const Estimate d = difference(a, b);
        CHECK(std::abs(d.mean - (a.plain.mean - b.plain.mean)) <=
              3 * std::hypot(a.plain.stdError, b.plain.stdError));
        CHECK(d.stdError < std::hypot(a.plain.stdError, b.plain.stdError));
    }

    TEST_CASE("rollouts: the same seed the same numbers, on one thread or two") {
        const Rules rules = testing::rulesOf(Ruleset::Kelly);
        const Position root = Position::startpos(rules);
        EventList legal;
        root.generate(legal);
        const std::vector<Candidate> candidates = {{legal[0].token(), legal[0]},
                                                   {legal[1].token(), legal[1]}};
        RolloutConfig config;
        config.search = atDepth(1);
        config.games = 4;
        config.truncate = 12;
        config.seed = 9;
        const RolloutResult a = rollout(root, candidates, config);
        const RolloutResult b = rollout(root, candidates, config);
        config.threads = 2;
        const RolloutResult c = rollout(root, candidates, config);
        config.seed = 10;
        const RolloutResult d = rollout(root, candidates, config);
        bool differs = false;
        for (std::size_t k = 0; k < candidates.size(); ++k) {
            for (std::size_t g = 0; g < 4; ++g) {
                const Playout& pa = a.candidates[k].playouts[g];
                for (const RolloutResult* other : {&b, &c}) {
                    const Playout& po = other->candidates[k].playouts[g];
                    CHECK(pa.result == po.result);
                    CHECK(pa.attackLuck == po.attackLuck);
                    CHECK(pa.showdownLuck == po.showdownLuck);
                    CHECK(pa.actions == po.actions);
                }
                differs = differs || pa.result != d.candidates[k].playouts[g].result;
                CHECK(pa.end == PlayoutEnd::Truncated);
            }
            CHECK(a.candidates[k].adjusted.mean == c.candidates[k].adjusted.mean);
        }
        CHECK(differs);  // another seed, other dice
    }
}
