// Scripted clients against a real dejarik-gui with real engine processes:
//   load:   eight clients play full games at once, one under Rays of Death (a ninth is
//           refused while they play);
//           afterwards the server's child processes and threads are back to their baseline.
//   robust: malformed and out-of-order messages are refused and change nothing; a page that
//           leaves mid-search has its engine reaped; engines that crash, stall or play
//           illegally are reported and restarted; no request reads outside the page, and no
//           record loaded makes the server open a file.
#include <dirent.h>
#include <sys/stat.h>

#include <barrier>
// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility> (g++ 12).
#include <utility>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "game.h"
#include "gui_server.h"
#include "script_checks.h"
#include "ws_client.h"

using nlohmann::json;
using namespace dejarik;
using namespace std::chrono_literals;
using testing::check;
using testing::fail;
using testing::Failure;

namespace {

// How often `what` stands in `text`.
int count(std::string_view text, std::string_view what) {
    int n = 0;
    for (auto at = text.find(what); at != std::string_view::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

// The processes whose parent is `pid` (the server's engines).
int childrenOf(pid_t pid) {
    int n = 0;
    DIR* proc = opendir("/proc");
    if (!proc) return -1;
    while (const dirent* e = readdir(proc)) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        std::ifstream stat(std::string("/proc/") + e->d_name + "/stat");
        std::string line;
        if (!std::getline(stat, line)) continue;
        // pid (comm) state ppid: comm may hold spaces, so read after the last ')'.
        const auto close = line.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream rest(line.substr(close + 1));
        std::string state;
        pid_t ppid = 0;
        if (rest >> state >> ppid && ppid == pid) ++n;
    }
    closedir(proc);
    return n;
}

int threadsOf(pid_t pid) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
    return -1;
}

bool waitUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        if (done()) return true;
        std::this_thread::sleep_for(20ms);
    }
    return done();
}

// A client of the board: reads messages, keeping the last state.
class Page {
  public:
    explicit Page(const std::string& url) {
        if (auto e = ws_.connect(url, 5s)) fail(*e);
    }
    void send(const json& m) {
        if (!ws_.send(m.dump())) fail("the server closed the socket");
    }
    void sendRaw(const std::string& text) {
        if (!ws_.send(text)) fail("the server closed the socket");
    }
    // The next message of one of these types (others are kept in `seen`).
    json next(const std::set<std::string>& types, std::chrono::milliseconds timeout = 20s) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < deadline) {
            const auto text = ws_.read(std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now()));
            if (!text) break;
            json m = json::parse(*text);
            if (m["type"] == "state") {
                state = m;
                merge(m);
            }
            seen.push_back(m);
            if (types.contains(m["type"])) return m;
        }
        return nullptr;
    }
    // The next state the predicate accepts.
    json stateWhere(const std::function<bool(const json&)>& accept,
                    std::chrono::milliseconds timeout = 20s) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < deadline) {
            const json m = next({"state"}, std::chrono::duration_cast<std::chrono::milliseconds>(
                                               deadline - std::chrono::steady_clock::now()));
            if (m.is_null()) break;
            if (accept(m)) return m;
        }
        return nullptr;
    }
    void close() { ws_.close(); }
    bool sawNotice(const std::string& fragment) const {
        for (const auto& m : seen)
            if (m["type"] == "notice" &&
                m["message"].get<std::string>().find(fragment) != std::string::npos)
                return true;
        return false;
    }

    json state;
    std::vector<json> seen;
    // The game's event tokens as the page rebuilds them from each state's `eventsFrom` and
    // `events`, or why it could not.
    std::vector<std::string> tokens;
    std::string eventsFault;

  private:
    void merge(const json& m) {
        const auto from = m["eventsFrom"].get<std::size_t>();
        if (from > tokens.size()) {
            eventsFault = "events from " + std::to_string(from) + " sent to a page holding " +
                          std::to_string(tokens.size());
            return;
        }
        tokens.resize(from);
        for (const json& e : m["events"])
            tokens.push_back(e["token"].get<std::string>());
        if (tokens.size() != m["plies"].get<std::size_t>())
            eventsFault = std::to_string(tokens.size()) + " events rebuilt where the game has " +
                          m["plies"].dump();
    }

    testing::WsClient ws_;
};

// Whether the events the page rebuilt from the state messages are the record's (read by
// the arena's reader), or why not.
std::optional<std::string> eventsAgainstRecord(const Page& page, const std::string& text) {
    if (!page.eventsFault.empty()) return page.eventsFault;
    std::string error;
    const auto records = arena::parseRecords(text, error);
    if (!records || records->size() != 1) return "the record does not read back: " + error;
    const auto& events = records->front().events;
    if (events.size() != page.tokens.size())
        return std::to_string(page.tokens.size()) + " events rebuilt by the page, " +
               std::to_string(events.size()) + " in the record";
    for (std::size_t k = 0; k < events.size(); ++k)
        if (events[k].token != page.tokens[k])
            return "event " + std::to_string(k + 1) + ": '" + page.tokens[k] +
                   "' rebuilt by the page, '" + events[k].token + "' in the record";
    return std::nullopt;
}

bool isTurn(const json& s, const char* turn) {
    return s["turn"] == turn;
}

int runLoad(const std::string& gui, const std::string& engine) {
    constexpr int kClients = 8;
    std::string error;
    auto server = testing::GuiServer::start(gui, {"--engine", engine, "--max-games", "8"}, error);
    if (!server) fail(error);
    const pid_t pid = server->pid();
    {
        // A first page and its game thread come and go before the baseline is taken: a
        // sanitizer's runtime starts its own thread with the program's first one.
        Page warmUp(server->wsUrl());
        (void)warmUp.next({"state"});
    }
    if (!waitUntil([&] { return threadsOf(pid) <= 2 && childrenOf(pid) == 0; }, 5s))
        fail("the first page's session did not end");
    std::this_thread::sleep_for(100ms);
    const int baseChildren = childrenOf(pid), baseThreads = threadsOf(pid);

    std::barrier ready(kClients + 1);
    std::vector<std::string> results(kClients);
    std::vector<std::thread> clients;
    for (int i = 0; i < kClients; ++i) {
        clients.emplace_back([&, i] {
            int arrived = 0;  // at the barrier: a client that fails leaves it
            try {
                Page page(server->wsUrl());
                const bool started = !page.stateWhere([](const json&) { return true; }).is_null();
                const char* rulesets[] = {"kelly", "dalsian-classic", "dalsian", "holochess",
                                          "courtier"};
                // The last one under Rays of Death: its combat cells are rolled by the
                // server, never asked of the page or the engine. Attacks being rare there,
                // a quiet-draw limit keeps its game as short as the others' (383 events with
                // the default limit, 46 with this one).
                json options = json::object();
                if (i == kClients - 1) {
                    options["RaysOfDeath"] = true;
                    options["DrawTurns"] = 8;
                }
                // One sets up (RULES §15): the engine's set-up and the page's both in its record.
                const bool arrange = i == kClients - 2;
                if (arrange) options["Setup"] = "arrange";
                page.send({{"type", "new"},
                           {"ruleset", rulesets[i % 5]},
                           {"options", options},
                           {"deal", "random"},
                           {"seed", 100 + i},
                           {"side", 1 + i % 2},
                           {"depth", 1}});
                ready.arrive_and_wait();
                ++arrived;
                ready.arrive_and_wait();  // the ninth client has been refused meanwhile
                ++arrived;
                if (!started) {
                    results[i] = "no first state";
                    return;
                }
                std::uint64_t rng = 1234567 + static_cast<std::uint64_t>(i);
                for (int step = 0; step < 5000; ++step) {
                    const json s = page.stateWhere(
                        [&](const json& m) {
                            return m["seed"] == std::to_string(100 + i) &&
                                   (!m["ending"].is_null() || isTurn(m, "human"));
                        },
                        30s);
                    if (s.is_null()) {
                        results[i] = "stuck at event " + page.state["plies"].dump();
                        return;
                    }
                    if (!s["ending"].is_null()) {
                        results[i] = "ended " + s["ending"]["result"].get<std::string>() + " by " +
                                     s["ending"]["termination"].get<std::string>() + " after " +
                                     s["plies"].dump() + " events";
                        page.send({{"type", "save"}});
                        const json record = page.next({"record"});
                        if (record.is_null() ||
                            record["text"].get<std::string>().find(
                                "[Result \"" + s["ending"]["result"].get<std::string>() + "\"]") ==
                                std::string::npos)
                            results[i] = "no record of the finished game";
                        else if (arrange && count(record["text"].get<std::string>(), "setup:") != 2)
                            results[i] = "no two set-ups in the record";
                        else if (auto fault = eventsAgainstRecord(page, record["text"]))
                            results[i] = *fault;
                        page.close();
                        return;
                    }
                    if (s["phase"] == "roll") {
                        results[i] = "the page is asked to roll at event " + s["plies"].dump();
                        return;
                    }
                    const json& legal = s["legal"];
                    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                    page.send(
                        {{"type", "play"}, {"event", legal[(rng >> 33) % legal.size()]["token"]}});
                }
                results[i] = "not over after 5000 decisions";
            } catch (const Failure& f) {
                results[i] = f.what();
                if (arrived < 2) ready.arrive_and_drop();
            }
        });
    }
    ready.arrive_and_wait();
    // Checked once every client has ended: a failure here must not leave them running.
    bool ninthRefused = false;
    try {
        Page ninth(server->wsUrl());
        const json refused = ninth.next({"error", "state"}, 5s);
        ninthRefused = !refused.is_null() && refused["type"] == "error" &&
                       refused["message"].get<std::string>().find("busy") != std::string::npos;
    } catch (const Failure&) {
    }
    ready.arrive_and_wait();
    int peak = 0;
    std::atomic<bool> running{true};
    std::thread monitor([&] {
        while (running) {
            peak = std::max(peak, childrenOf(pid));
            std::this_thread::sleep_for(10ms);
        }
    });
    for (auto& t : clients)
        t.join();
    running = false;
    monitor.join();
    check(ninthRefused, "a ninth client is refused while eight games are under way");
    for (int i = 0; i < kClients; ++i)
        check(results[i].rfind("ended", 0) == 0,
              "client " + std::to_string(i + 1) + ": " + results[i]);
    check(peak >= 2 && peak <= kClients,
          "engine processes at once: at most " + std::to_string(peak) + " (limit 8)");
    check(waitUntil([&] { return childrenOf(pid) == baseChildren; }, 10s),
          "engine processes back to the baseline (" + std::to_string(baseChildren) + ")");
    check(waitUntil([&] { return threadsOf(pid) <= baseThreads; }, 10s),
          "server threads back to the baseline (" + std::to_string(baseThreads) + ")");
    const auto status = server->terminate(5s);
    check(status && status->code == 0, "the server ends cleanly");
    const std::string& log = server->stderrText();
    const bool clean = log.find("Sanitizer") == std::string::npos &&
                       log.find("runtime error") == std::string::npos;
    check(clean, "no sanitizer report from the server" + (clean ? "" : ":\n" + log));
    return 0;
}

std::string writeWrapper(const std::filesystem::path& dir, const std::string& name,
                         const std::string& engine, const std::string& args) {
    const auto path = dir / name;
    std::ofstream out(path);
    out << "#!/bin/sh\nexec '" << engine << "' " << args << "\n";
    out.close();
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path.string();
}

int runRobust(const std::string& gui, const std::string& engine, const std::string& testEngine) {
    std::string error;
    {
        auto server = testing::GuiServer::start(gui, {"--engine", engine}, error);
        if (!server) fail(error);
        const pid_t pid = server->pid();
        const std::string hostPort = server->wsUrl().substr(5, server->wsUrl().size() - 8);
        check(testing::httpStatus(hostPort, "/") == 200 &&
                  testing::httpStatus(hostPort, "/app.js") == 200,
              "the page and its script are served");
        for (const char* bad : {"/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/web/app.js",
                                "/index.html/..", "//etc/passwd", "/CMakeLists.txt"})
            check(testing::httpStatus(hostPort, bad) == 404,
                  std::string("GET ") + bad + " is refused (404)");

        Page page(server->wsUrl());
        check(!page.next({"hello"}).is_null() && !page.next({"state"}).is_null(),
              "hello and the first state");
        page.send({{"type", "new"}, {"seed", 5}, {"depth", 1}});
        const json start = page.stateWhere([](const json& s) { return s["seed"] == "5"; });
        check(!start.is_null() && isTurn(start, "human"), "a new game");
        for (const std::string bad :
             {"garbage", "[]", "{\"type\":\"play\"}", "{\"type\":\"play\",\"event\":\"c2-c9\"}",
              "{\"type\":\"play\",\"event\":\"kill\"}", "{\"type\":\"goto\",\"ply\":5}",
              "{\"type\":\"undo\"}", "{\"type\":\"new\",\"depth\":0}",
              "{\"type\":\"load\",\"text\":\"[Event \\\"x\\\"]\"}", "{\"type\":\"warp\"}"}) {
            page.sendRaw(bad);
            const json e = page.next({"error", "state"}, 5s);
            if (e.is_null() || e["type"] != "error") fail("no error for " + bad);
        }
        // A record's Rules tag may not name a file either: a valid creature file, and a FIFO
        // whose opening would block the session for good, are refused unopened.
        const auto files = std::filesystem::temp_directory_path() /
                           ("dejarik-gui-files-" + std::to_string(::getpid()));
        std::filesystem::create_directories(files);
        std::ofstream(files / "set.txt") << "set Mine\nstart ABCD EFGH\nA 6 6 2 Aa\nB 6 5 3 Bb\n"
                                            "C 4 3 2 Cc\nD 4 4 1 Dd\nE 2 7 3 Ee\nF 3 8 1 Ff\n"
                                            "G 7 3 2 Gg\nH 8 2 2 Hh\n";
        if (::mkfifo((files / "fifo").c_str(), 0600) != 0) fail("cannot make a FIFO");
        for (const char* name : {"set.txt", "fifo"}) {
            page.send({{"type", "load"},
                       {"text", "[Player1 \"a\"]\n[Player2 \"b\"]\n[Rules \"kelly CreatureFile=" +
                                    (files / name).string() +
                                    "\"]\n[Deal \"./............/.ABCD..efgh. 1 2 0 1\"]\n"
                                    "[Result \"*\"]\n\n*\n"}});
            const json e = page.next({"error", "state"}, 5s);
            check(!e.is_null() && e["type"] == "error" &&
                      e["message"] ==
                          "cannot load the record: Rules tag: 'CreatureFile' names a "
                          "file on the server and cannot be set by a page",
                  std::string("a record naming a file on the server (") + name + ") is refused");
        }
        std::filesystem::remove_all(files);
        page.send({{"type", "goto"}, {"ply", 0}});
        const json same = page.next({"state"});
        check(!same.is_null() && same["dfen"] == start["dfen"] && same["plies"] == 0 &&
                  same["seed"] == "5",
              "ten malformed or out-of-order messages and two records naming files: errors, "
              "the game unchanged");

        page.send({{"type", "analyse"}, {"multipv", 3}, {"movetime", 300}});
        std::set<int> lines;
        for (json m = page.next({"info", "notice"}); !m.is_null() && m["type"] == "info";
             m = page.next({"info", "notice"}))
            if (m["analysis"] == true) lines.insert(m["multipv"].get<int>());
        check(lines == std::set<int>{1, 2, 3} && page.sawNotice("best "),
              "an analysis with three lines (MultiPV 3)");

        json replied = start;
        while (!replied.is_null() && replied["plies"].get<int>() < 3) {
            page.send({{"type", "play"}, {"event", replied["legal"][0]["token"]}});
            const int before = replied["plies"].get<int>();
            replied = page.stateWhere([before](const json& s) {
                return isTurn(s, "human") && s["plies"].get<int>() > before;
            });
        }
        check(!replied.is_null(), "the engine replies to a turn of the human");
        page.send({{"type", "save"}});
        const json record = page.next({"record"});
        check(!record.is_null(), "the game is saved");
        page.send({{"type", "load"}, {"text", record["text"]}});
        const json loaded = page.next({"state"});
        check(!loaded.is_null() && loaded["turn"] == "browse" && loaded["ply"] == 0 &&
                  loaded["plies"] == replied["plies"],
              "the record loads, opened at its start for replay");
        page.send({{"type", "goto"}, {"ply", replied["plies"]}});
        const json end = page.next({"state"});
        check(!end.is_null() && end["dfen"] == replied["dfen"] && isTurn(end, "human"),
              "replayed to its end, the game goes on where it was saved");

        // A page that leaves while the engine thinks.
        page.send({{"type", "new"}, {"side", 2}, {"movetime", 20000}});
        check(!page.stateWhere([](const json& s) { return s["thinking"] == true; }).is_null() &&
                  childrenOf(pid) == 1,
              "the engine thinks (20 s) for the page");
        page.close();
        check(waitUntil([&] { return childrenOf(pid) == 0; }, 4s),
              "the page left mid-search: its engine is stopped and reaped");

        Page again(server->wsUrl());
        again.send({{"type", "new"}, {"side", 2}, {"movetime", 20000}});
        check(!again.stateWhere([](const json& s) { return s["thinking"] == true; }).is_null(),
              "the server serves the next page");
        again.send({{"type", "stop"}});
        check(!again.stateWhere([](const json& s) { return s["plies"] == 1; }, 5s).is_null(),
              "Move now: the engine's decision comes at once");
        again.close();
        const auto status = server->terminate(5s);
        check(status && status->code == 0, "the server ends cleanly");
    }

    const auto dir = std::filesystem::temp_directory_path() /
                     ("dejarik-gui-robust-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    struct Fault {
        std::string args, expect;
        std::vector<std::string> serverArgs;
    };
    for (const Fault& f : {Fault{"--fault crash", "ended while searching", {}},
                           Fault{"--fault hang", "no bestmove", {"--stall-timeout", "300"}},
                           Fault{"--fault illegal", "was refused", {}}}) {
        const std::string wrapper = writeWrapper(dir, "engine.sh", testEngine, f.args);
        std::vector<std::string> args{"--engine", wrapper};
        args.insert(args.end(), f.serverArgs.begin(), f.serverArgs.end());
        auto server = testing::GuiServer::start(gui, args, error);
        if (!server) fail(error);
        Page page(server->wsUrl());
        page.send({{"type", "new"}, {"side", 2}, {"depth", 1}});
        const json failed =
            page.stateWhere([](const json& s) { return s["engineFailed"] == true; }, 15s);
        check(!failed.is_null() && page.sawNotice(f.expect) && page.sawNotice("restarted"),
              "engine " + f.args + ": reported ('" + f.expect + "'), restarted, then given up");
        page.send({{"type", "retry"}});
        check(!page.stateWhere([](const json& s) { return s["engineFailed"] == true; }, 15s)
                   .is_null(),
              "engine " + f.args + ": Retry starts it again");
        page.close();
        check(waitUntil([&] { return childrenOf(server->pid()) == 0; }, 5s),
              "engine " + f.args + ": no process left behind");
        const auto status = server->terminate(5s);
        check(status && status->code == 0, "engine " + f.args + ": the server ends cleanly");
    }
    std::filesystem::remove_all(dir);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    try {
        if (mode == "load" && argc == 4) return runLoad(argv[2], argv[3]);
        if (mode == "robust" && argc == 5) return runRobust(argv[2], argv[3], argv[4]);
    } catch (const Failure& f) {
        std::cerr << "gui clients test: FAILED: " << f.what() << "\n";
        return 1;
    }
    std::cerr << "usage: gui-clients-test load DEJARIK_GUI ENGINE\n"
                 "       gui-clients-test robust DEJARIK_GUI ENGINE TEST_ENGINE\n";
    return 2;
}
