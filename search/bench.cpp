#include "bench.h"

#include <array>
#include <chrono>
#include <string_view>

#include "search.h"

namespace dejarik::search {

namespace {

// Openings, middle games and endings of every ruleset, with the options that change search;
// Courtier's start, a capture choice and a middle game last.
constexpr std::array<BenchPosition, 15> kPositions = {{
    {Ruleset::Kelly, "", "./............/.GHSN..mltk. 1 2 0 1"},
    {Ruleset::Kelly, "", "./.S.k..m...../..G.......lT 1 2 5 9"},
    {Ruleset::Kelly, "", "./..S.m..K..../.G.....n.... 2 1 12 14"},
    {Ruleset::Kelly, "", "L/n.........../...S........ 1 2 0 1"},
    {Ruleset::Kelly, "", "./Sn........../.....H..t... 1 2 70 71"},
    {Ruleset::Kelly, "BlockedPush=kill-on-push KingOfTheCentre=true",
     "H/.s..N...t.../.G......m..L 2 2 3 12"},
    {Ruleset::DalsianClassic, "", "./............/.GHSN..mltk. 1 2 0 1"},
    {Ruleset::DalsianClassic, "", "N/..k........./...G....mt.. 1 2 0 9 2/2"},
    {Ruleset::Dalsian, "", "./............/.GHSN..mltk. 1 2 0 1"},
    {Ruleset::Dalsian, "", "./SmKl......../tNh......... 1 2 0 1"},
    {Ruleset::Holochess, "", "./............/.SGNL..mhtk. 1 2 0 1"},
    {Ruleset::Holochess, "", "./L..m.....t../...S..G..k.. 1 2 0 1"},
    {Ruleset::Courtier, "", "./............/UUUWUUuuuwuu 1 1 0 1"},
    {Ruleset::Courtier, "", "./u.u.u...U.../U.U.U.w.W.u. 1 1 0 1"},
    {Ruleset::Courtier, "", "w/U.u.U.u.U.u./W........... 2 1 17 40"},
}};

}  // namespace

RuleOptions BenchPosition::ruleOptions() const {
    RuleOptions o;
    o.ruleset = ruleset;
    std::string_view rest = options;
    while (!rest.empty()) {
        const auto space = rest.find(' ');
        // The table above is fixed and valid; a bad entry would show as a changed count.
        (void)o.setAssignment(rest.substr(0, space));
        rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
    }
    return o;
}

std::span<const BenchPosition> benchPositions() {
    return kPositions;
}

BenchResult runBench(int depth, const std::function<void(const std::string&)>& progress,
                     const std::stop_token& stop) {
    BenchResult result;
    Searcher searcher;
    searcher.setOptions(Options{.hashMiB = 16, .threads = 1, .multiPv = 1});
    const std::stop_callback onStop(stop, [&searcher] { searcher.stop(); });
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < kPositions.size(); ++i) {
        if (stop.stop_requested()) {
            result.stopped = true;
            break;
        }
        const BenchPosition& b = kPositions[i];
        const Rules rules(b.ruleOptions());
        const auto pos = Position::fromDfen(b.dfen, rules);
        if (!pos) continue;
        searcher.clearHash();  // each position as if a new game: the count must not depend on order
        Limits limits;
        limits.depth = depth;
        Report r;
        searcher.start(*pos, limits, {}, [&r](const Report& done) { r = done; });
        // A stop that came before start() armed the searcher would be lost without this.
        if (stop.stop_requested()) searcher.stop();
        searcher.wait();
        if (stop.stop_requested()) {  // the search may have been cut short: not counted
            result.stopped = true;
            break;
        }
        ++result.positions;
        result.nodes += r.nodes;
        if (progress)
            progress("position " + std::to_string(i + 1) + "/" + std::to_string(kPositions.size()) +
                     " " + std::string(rulesetName(b.ruleset)) + " " + std::string(b.dfen) +
                     " best " + r.best.token() + " nodes " + std::to_string(r.nodes));
    }
    result.timeMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    result.nps = result.timeMs > 0 ? result.nodes * 1000 / static_cast<std::uint64_t>(result.timeMs)
                                   : result.nodes * 1000;
    return result;
}

}  // namespace dejarik::search
