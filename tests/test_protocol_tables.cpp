// The endgame tables through the engine: Tables, TablePath and TableGen, exact scores, the
// `table` lines of `d` and `eval`, background generation and its end at quit.
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "endgame.h"
#include "temp_dir.h"
#include "test_protocol_support.h"

using namespace dejarik::test;
using dejarik::testing::TempDir;

namespace {

constexpr const char* kTwoVsOne = "./SGh........./............ 1 2 0 1";
constexpr const char* kFourVsOne = "./SGHT......../n........... 1 2 0 1";
constexpr const char* kThreeVsTwo = "./SGH........./nk.......... 1 2 0 1";

// Background generation on; at nice 0, because the test run's other jobs, two a core,
// starve a thread at the default nice 19 (the ten sets below, 0.5 s alone, took 46 s in
// Release beside three busy loops on two cores; this suite 81-98 s of the ASan run).
void tableGenOn(Engine& e) {
    CHECK(e.command("setoption name TableGenNice value 0").empty());
    CHECK(e.command("setoption name TableGen value true").empty());
}

// The last `info depth` line before the bestmove.
std::string lastInfo(const std::vector<std::string>& lines) {
    for (auto it = lines.rbegin(); it != lines.rend(); ++it)
        if (startsWith(*it, "info depth")) return *it;
    return {};
}

// Starts `gen` on the kelly sets the position `dfen` needs, in the empty folder `dir`, on a
// thread of nice value `nice`.
void startKellyGeneration(dejarik::protocol::TableGenerator& gen, const TempDir& dir,
                          const char* dfen, int nice) {
    dejarik::protocol::Settings settings;
    settings.tablePath = dir.str();
    const auto rules = dejarik::Rules::preset(dejarik::Ruleset::Kelly);
    std::string error;
    const auto tb = dejarik::protocol::openTables(settings, rules, &error);
    REQUIRE(tb);
    const auto pos = dejarik::Position::fromDfen(dfen, rules, &error);
    REQUIRE(pos);
    REQUIRE(gen.startFor(tb, *pos, nice));
}

}  // namespace

TEST_SUITE("tables") {
    TEST_CASE("DrawTurns 0: the table's value at the root, exact; with Tables off not exact") {
        TempDir dir;
        Engine e;
        CHECK(e.command("setoption name TablePath value " + dir.str()).empty());
        CHECK(e.command("setoption name DrawTurns value 0").empty());
        tableGenOn(e);
        e.send(std::string("position dfen ") + kTwoVsOne);
        const auto gen = e.until("info string tablegen done");
        CHECK(countIf(gen, "info string tablegen [") == 1);
        const std::string table = lineStarting(e.command("d"), "table SG v h: ");
        REQUIRE(!table.empty());
        CHECK(table.find(" exact") != std::string::npos);
        const double v = std::stod(table.substr(std::string("table SG v h: ").size()));

        const std::string with = lastInfo(e.go("go depth 2"));
        CHECK(with.find(" exact") != std::string::npos);
        CHECK(std::abs(std::stoi(field(with, "ev")) - std::lround(1000 * v)) <= 1);

        CHECK(e.command("setoption name Tables value false").empty());
        CHECK(lineStarting(e.command("d"), "table") == "table: off");
        const std::string without = lastInfo(e.go("go depth 2"));
        CHECK(without.find(" exact") == std::string::npos);
    }

    TEST_CASE("DrawTurns N: d gives the distance and whether the draw comes first; never exact") {
        TempDir dir;
        Engine e;
        CHECK(e.command("setoption name TablePath value " + dir.str()).empty());
        tableGenOn(e);
        e.send(std::string("position dfen ") + kTwoVsOne);
        e.until("info string tablegen done");
        const std::string now = lineStarting(e.command("d"), "table SG v h: ");
        CHECK(now.find("without the quiet draw, its attack in 0 actions, 80 left before the "
                       "draw") != std::string::npos);
        CHECK(now.find("not used") == std::string::npos);
        CHECK(lastInfo(e.go("go depth 2")).find(" exact") == std::string::npos);
        // Moving away from the attack takes the distance past the 4 actions left.
        e.command("position dfen ./SGh........./............ 1 2 75 1 moves b2-b7");
        const std::string late = lineStarting(e.command("d"), "table SG v h: ");
        CHECK(late.find(", 4 left before the draw: not used") != std::string::npos);
        CHECK(lastInfo(e.go("go depth 2")).find(" exact") == std::string::npos);
    }

    TEST_CASE("d and eval name the table's answer, or why there is none") {
        TempDir dir;
        Engine e;
        CHECK(e.command("setoption name TablePath value " + dir.str()).empty());
        CHECK(lineStarting(e.command("d"), "table") == "table: none (8 creatures)");
        e.command(std::string("position dfen ") + kTwoVsOne);
        CHECK(lineStarting(e.command("d"), "table") == "table SG v h: missing");
        const auto ev = e.command("eval");
        CHECK(lineStarting(ev, "table") == "table SG v h: missing");
        CHECK(startsWith(ev.back(), "eval "));
    }

    TEST_CASE("TableGen on five creatures: the sets, progress lines, isready answered") {
        TempDir dir;
        Engine e;
        CHECK(e.command("setoption name Ruleset value dalsian").empty());
        CHECK(e.command("setoption name TablePath value " + dir.str()).empty());
        tableGenOn(e);
        e.send(std::string("position dfen ") + kFourVsOne);
        const std::string start = e.until("info string tablegen: ").back();
        const int sets = std::stoi(start.substr(std::string("info string tablegen: ").size()));
        CHECK(sets >= 4);  // the four 3v1 sets a capture reaches, and their 2v1 sets
        e.send("isready");
        const auto beforeReady = e.until("readyok");
        CHECK(countIf(beforeReady, "info string tablegen done") == 0);
        // Ten sets: 0.5 s alone (4-5 s under ASan).
        const auto rest = e.until("info string tablegen done");
        CHECK(countIf(beforeReady, "info string tablegen [") +
                  countIf(rest, "info string tablegen [") ==
              static_cast<std::size_t>(sets));
        CHECK(dir.count(".dtb") == sets);
        CHECK(dir.count(".tmp.") == 0);
        // A capture now finds its table.
        e.command(std::string("position dfen ") + "./SGH........./n........... 1 2 0 1");
        CHECK(lineStarting(e.command("d"), "table SGH v n: ").find("for player 1") !=
              std::string::npos);
        e.send("quit");
        CHECK(e.exitStatus() == 0);
    }

    TEST_CASE("quit during a generation exits after the set being solved") {
        TempDir dir;
        Engine e;
        CHECK(e.command("setoption name TablePath value " + dir.str()).empty());
        CHECK(e.command("setoption name TableGen value true").empty());
        e.send(std::string("position dfen ") + kThreeVsTwo);
        const std::string start = e.until("info string tablegen: ").back();
        const int sets = std::stoi(start.substr(std::string("info string tablegen: ").size()));
        e.send("quit");
        CHECK(e.exitStatus() == 0);
        // Abandoned: not every set was made, and none is half-written.
        CHECK(dir.count(".dtb") < sets);
        CHECK(dir.count(".tmp.") == 0);
    }

    TEST_CASE("a rule change opens the tables of the new rules") {
        TempDir dir;
        Engine e;
        CHECK(e.command("setoption name TablePath value " + dir.str()).empty());
        tableGenOn(e);
        e.send(std::string("position dfen ") + kTwoVsOne);
        (void)e.until("info string tablegen done");
        CHECK(lineStarting(e.command("d"), "table SG v h: ").find("for player 1") !=
              std::string::npos);
        CHECK(e.command("setoption name TableGen value false").empty());
        CHECK(e.command("setoption name Ruleset value holochess").empty());
        e.command(std::string("position dfen ") + kTwoVsOne);
        CHECK(lineStarting(e.command("d"), "table") == "table SG v h: missing");
        CHECK(e.command("setoption name Ruleset value kelly").empty());
        e.command(std::string("position dfen ") + kTwoVsOne);
        CHECK(lineStarting(e.command("d"), "table SG v h: ").find("for player 1") !=
              std::string::npos);
    }

    TEST_CASE("a TablePath that cannot be read: one error line, the engine plays on") {
        TempDir dir;
        const std::string file = dir.str() + "/not-a-folder";
        std::ofstream(file) << "x";
        Engine e;
        checkOneError(e.command("setoption name TablePath value " + file), "a file as TablePath");
        CHECK(e.sync().empty());  // reported once
        CHECK(lineStarting(e.command("d"), "table") == "table: off");
        CHECK(!bestmoveOf(e.go("go depth 1").back()).empty());
        // A good folder again: tables back.
        CHECK(e.command("setoption name TablePath value " + dir.str()).empty());
        CHECK(lineStarting(e.command("d"), "table") == "table: none (8 creatures)");
    }

    TEST_CASE("the generation runs at the nice value it was started with") {
        // Raising one's nice value is always allowed; the process's own value also, whatever
        // it is; each generation's progress lines come from its thread.
        const int own = getpriority(PRIO_PROCESS, 0);
        for (const int nice : {19, own}) {
            CAPTURE(nice);
            TempDir dir;
            std::mutex m;
            std::vector<int> seen;
            std::atomic<bool> done{false};
            dejarik::protocol::TableGenerator gen([&](const std::string& line) {
                if (startsWith(line, "info string tablegen: ")) return;  // the caller's thread
                const std::scoped_lock lock(m);
                seen.push_back(getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid))));
                if (startsWith(line, "info string tablegen done")) done = true;
            });
            startKellyGeneration(gen, dir, kTwoVsOne, nice);
            const auto deadline = std::chrono::steady_clock::now() + kLiveness;
            while (!done && std::chrono::steady_clock::now() < deadline)
                std::this_thread::sleep_for(10ms);
            gen.stop();
            const std::scoped_lock lock(m);
            REQUIRE(seen.size() == 2);  // the set's line, then done
            CHECK(seen[0] == nice);
            CHECK(seen[1] == nice);
        }
    }
    TEST_CASE("stop asks the generation to end after its set and returns at once") {
        // The thread is held inside its first progress line, as a slow set would hold it;
        // stop() used to join it, so a rule change waited out the set (52 s at nice 19 on a
        // loaded machine). A watchdog lets it go after 10 s, so that the old way fails
        // instead of hanging.
        TempDir dir;
        std::mutex m;
        std::condition_variable cv;
        bool held = false, released = false, stopped = false;
        dejarik::protocol::TableGenerator gen([&](const std::string& line) {
            if (startsWith(line, "info string tablegen: ")) return;  // the caller's thread
            std::unique_lock lock(m);
            if (startsWith(line, "info string tablegen [") && !held) {
                held = true;
                cv.notify_all();
                cv.wait(lock, [&] { return released; });
            }
            if (startsWith(line, "info string tablegen stopped")) stopped = true;
            cv.notify_all();
        });
        startKellyGeneration(gen, dir, kThreeVsTwo, getpriority(PRIO_PROCESS, 0));
        {
            std::unique_lock lock(m);
            REQUIRE(cv.wait_for(lock, kLiveness, [&] { return held; }));
        }
        std::jthread watchdog([&](std::stop_token token) {
            std::unique_lock lock(m);
            cv.wait_for(lock, 10s, [&] { return released || token.stop_requested(); });
            released = true;
            cv.notify_all();
        });
        gen.stop();
        CHECK(gen.running());  // returned with the set's thread still held
        {
            std::unique_lock lock(m);
            released = true;
            cv.notify_all();
            CHECK(cv.wait_for(lock, kLiveness, [&] { return stopped; }));
        }
        watchdog.request_stop();
    }
}
