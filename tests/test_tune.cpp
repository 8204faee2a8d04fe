// The tuner (tools/tune/tuner.h): its samples are the tables' positions and values, its loss
// is the mean squared error, and its fit lowers the loss and keeps every weight in range.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>

#include "baselines.h"
#include "eval.h"
#include "game.h"
#include "generate.h"
#include "search.h"
#include "temp_dir.h"
#include "tuner.h"

using namespace dejarik;

namespace {

// Every kelly set of three distinct creatures: those ctest generated for this test and
// tune-cli (tests/tune.cmake, the environment's DEJARIK_KELLY3_TABLES), else generated here
// once for the program.
const tables::Tablebase& kellyTables() {
    // Declared before the tables so that it outlives them; only made when nothing is shared.
    static std::optional<testing::TempDir> dir;
    static const Rules rules = Rules::preset(Ruleset::Kelly);
    static const auto tb = [] {
        if (const char* shared = std::getenv("DEJARIK_KELLY3_TABLES"))
            return std::make_unique<tables::Tablebase>(shared, rules);
        auto t = std::make_unique<tables::Tablebase>(dir.emplace().str(), rules);
        tables::generate(*t, tables::distinctSets(3), {}, nullptr);
        return t;
    }();
    return *tb;
}

}  // namespace

TEST_CASE("samples: decision points of at most three creatures, labelled by the tables") {
    const tables::Tablebase& tb = kellyTables();
    REQUIRE(tb.problems().empty());
    REQUIRE(tb.sets().size() == tables::distinctSets(3).size());
    const auto samples = tune::tableSamples(tb, Ruleset::Kelly, 300, 4, 3);
    REQUIRE(samples.size() == 300);
    int distinct = 0;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const Position& pos = samples[i].pos;
        CHECK(pos.phase() == Phase::Decision);
        CHECK_FALSE(pos.isOver());
        CHECK(pos.occupied().count() <= 3);
        CHECK(&pos.rules() == &tb.rules());
        CHECK(pos.rules().drawTurns() == 0);
        CHECK(samples[i].label == tb.probe(pos).value());
        if (i == 0 || pos.key() != samples[i - 1].pos.key()) ++distinct;
    }
    CHECK(distinct > 250);
    // The same seed gives the same positions; another seed others.
    const auto again = tune::tableSamples(tb, Ruleset::Kelly, 300, 4, 3);
    const auto other = tune::tableSamples(tb, Ruleset::Kelly, 300, 4, 4);
    CHECK(again.back().pos.key() == samples.back().pos.key());
    CHECK(other.back().pos.key() != samples.back().pos.key());
}

TEST_CASE("capture samples: five creatures, an attack to make, labelled by the search") {
    // The test's tables hold the sets of three; a capture from five lands on four, which the
    // search then searches itself: the label must be the search's value all the same.
    const tables::Tablebase& tb = kellyTables();
    const auto shared = std::shared_ptr<const tables::Tablebase>(&tb, [](const auto*) {});
    const tune::CaptureOptions options{
        .count = 40, .perGame = 2, .depth = 2, .threads = 1, .seed = 3};
    const auto samples = tune::captureSamples(shared, Ruleset::Kelly, {}, options);
    REQUIRE(samples.size() == 40);
    search::Searcher searcher;
    searcher.setOptions({.hashMiB = 1, .threads = 1, .multiPv = 1});
    searcher.setTables(shared);
    search::Limits limits;
    limits.depth = 2;
    int differ = 0;
    for (const tune::Sample& s : samples) {
        CAPTURE(s.pos.dfen());
        CHECK(s.pos.phase() == Phase::Decision);
        CHECK(s.pos.occupied().count() == tables::kDefaultMaxPieces + 1);
        CHECK(s.pos.rules().drawTurns() == 0);
        EventList list;
        s.pos.generate(list);
        CHECK(std::any_of(list.begin(), list.end(),
                          [](Event e) { return e.kind() == EventKind::Attack; }));
        searcher.clearHash();
        const double v = searcher.run(s.pos, limits).lines.front().value;
        CHECK(s.label == doctest::Approx(s.pos.decider() == Player::One ? v : -v));
        differ += std::abs(s.label - eval::evaluate(s.pos)) > 1e-3;
    }
    CHECK(differ > 10);  // the search, not the evaluator alone
    // Two threads label the same positions the same way.
    auto two = options;
    two.threads = 2;
    const auto again = tune::captureSamples(shared, Ruleset::Kelly, {}, two);
    REQUIRE(again.size() == samples.size());
    for (std::size_t i = 0; i < samples.size(); ++i) {
        CHECK(again[i].pos.key() == samples[i].pos.key());
        CHECK(again[i].label == doctest::Approx(samples[i].label));
    }
}

TEST_CASE("loss: the mean squared error, the same on any number of threads") {
    const auto samples = tune::tableSamples(kellyTables(), Ruleset::Kelly, 200, 4, 5);
    double sum = 0;
    for (const auto& s : samples) {
        const double d = eval::evaluate(s.pos) - s.label;
        sum += d * d;
    }
    const double loss = tune::meanSquaredError(samples, eval::kDefaultTunables, 1);
    CHECK(loss == doctest::Approx(sum / 200).epsilon(1e-12));
    CHECK(tune::meanSquaredError(samples, eval::kDefaultTunables, 3) ==
          doctest::Approx(loss).epsilon(1e-12));
    CHECK(tune::meanSquaredError({}, eval::kDefaultTunables, 2) == 0);
}

TEST_CASE("fit: lowers the loss, moves only the weights named, keeps them in range") {
    const auto samples = tune::tableSamples(kellyTables(), Ruleset::Kelly, 600, 4, 7);
    // A start far off: the terms four times too loud.
    eval::Tunables start;
    REQUIRE_FALSE(start.set("calibration", 2.0));
    tune::FitOptions options;
    options.params = {"calibration", "exposure"};
    options.seconds = 20;
    options.threads = 2;
    options.lastStep = 0.01;
    int lines = 0;
    const eval::Tunables tuned =
        tune::fit(samples, start, options, [&](const std::string&) { ++lines; });
    CHECK(lines > 0);
    const double before = tune::meanSquaredError(samples, start, 1);
    const double after = tune::meanSquaredError(samples, tuned, 1);
    MESSAGE("loss ", before, " -> ", after, ", calibration ", tuned.base.calibration);
    CHECK(after < before);
    CHECK(tuned.base.calibration < 2.0);
    for (const eval::TunableSpec& spec : eval::tunableSpecs()) {
        CAPTURE(spec.name);
        CHECK(spec.get(tuned) >= spec.min);
        CHECK(spec.get(tuned) <= spec.max);
        if (spec.name != "calibration" && spec.name != "exposure")
            CHECK(spec.get(tuned) == spec.get(start));
    }
    // Nothing to fit: the start comes back.
    options.params = {};
    CHECK(tune::fit(samples, start, options, {}) == start);
}

TEST_CASE("default parameters follow the rules") {
    const auto has = [](const std::vector<std::string>& names, const char* name) {
        return std::find(names.begin(), names.end(), name) != names.end();
    };
    const auto kelly = tune::defaultParams(Rules::preset(Ruleset::Kelly));
    const auto dalsian = tune::defaultParams(Rules::preset(Ruleset::Dalsian));
    const auto classic = tune::defaultParams(Rules::preset(Ruleset::DalsianClassic));
    const auto holochess = tune::defaultParams(Rules::preset(Ruleset::Holochess));
    CHECK(has(kelly, "calibration"));
    CHECK(has(dalsian, "calibration"));
    // Holochess and dalsian-classic fit their own evaluation weights, not kelly's.
    CHECK(has(holochess, "holochessCalibration"));
    CHECK(has(holochess, "holochessMobilityCap"));
    CHECK_FALSE(has(holochess, "calibration"));
    CHECK(has(classic, "classicExposure"));
    CHECK_FALSE(has(classic, "exposure"));
    CHECK_FALSE(has(kelly, "safeRing"));
    CHECK(has(dalsian, "safeRing"));
    CHECK(has(classic, "holdStep"));
    CHECK_FALSE(has(kelly, "holdStep"));
    for (const auto* list : {&kelly, &dalsian, &classic, &holochess})
        for (const std::string& name : *list) {
            CAPTURE(name);
            CHECK(eval::findTunable(name) != nullptr);
            CHECK(name != "quietHorizon");
            CHECK(name != "drawByHiding");
        }
}

TEST_CASE("record samples: every decision point of a game, labelled by its result") {
    const Rules rules = Rules::preset(Ruleset::Kelly);
    arena::GameRecord record;
    record.rules = rules.describe();
    record.deal = Position::startpos(rules).dfen();
    record.outcome = arena::GameOutcome::Player2Wins;
    record.termination = arena::Termination::QuietDraw;
    Position pos = Position::startpos(rules);
    std::uint64_t rng = 9;
    int decisions = 0;
    for (int i = 0; i < 40 && !pos.isOver(); ++i) {
        if (pos.phase() == Phase::Decision) ++decisions;
        const Event e = pos.phase() == Phase::Outcome ? [&] {
            EventList l;
            pos.generate(l);
            return l[0];
        }()
                                                      : search::greedyDecision(pos, rng);
        record.events.push_back({e.token(), "", 0, false});
        pos.apply(e);
    }
    std::string error;
    const auto parsed = arena::parseRecords(arena::formatRecord(record), error);
    REQUIRE_MESSAGE(parsed, error);
    tune::RecordSamples out;
    REQUIRE_FALSE(tune::recordSamples(*parsed, 1, out));
    CHECK(static_cast<int>(out.samples.size()) == decisions);
    for (const auto& s : out.samples) {
        CHECK(s.label == -1);
        CHECK(s.pos.phase() == Phase::Decision);
        CHECK(s.pos.rules().drawTurns() == 40);
    }
    tune::RecordSamples every3;
    REQUIRE_FALSE(tune::recordSamples(*parsed, 3, every3));
    CHECK(static_cast<int>(every3.samples.size()) == (decisions + 2) / 3);

    // A record that does not replay is named.
    auto broken = *parsed;
    broken[0].events[3].token = "c9-c8";
    tune::RecordSamples none;
    const auto err = tune::recordSamples(broken, 1, none);
    REQUIRE(err);
    CHECK(err->find("record 1") != std::string::npos);
    CHECK(err->find("event 4 'c9-c8' is not legal") != std::string::npos);

    auto badDeal = *parsed;
    badDeal[0].deal = "./............/.HNML..gkst. 1 2 0";
    const auto dealErr = tune::recordSamples(badDeal, 1, none);
    REQUIRE(dealErr);
    CHECK(dealErr->find("record 1") != std::string::npos);
    CHECK(dealErr->find("Deal: ") != std::string::npos);

    // A Rules tag that does not parse names the record the same way.
    auto badRules = *parsed;
    badRules[0].rules = "Ruleset=chess";
    const auto rulesErr = tune::recordSamples(badRules, 1, none);
    REQUIRE(rulesErr);
    CHECK(rulesErr->find("record " + badRules[0].roundTag() + ": ") != std::string::npos);
}
