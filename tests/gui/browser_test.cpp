// The browser board end to end, in a real headless browser: Debian's chromium driven over
// the DevTools protocol by a small client of our own. It loads the page, checks the 25
// cells, plays as player 1 against the engine by clicking (moves, an attack confirmed
// from its odds, a placement) until the engine has replied, saves the record and reads it
// with the arena's reader, and takes a screenshot at 1280x800 (and checks a phone-size
// viewport); then a Courtier game, a capture chosen among several by clicking. Exit 77
// (skipped) when no chromium is installed.
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <thread>

#include "game.h"
#include "gui_server.h"
#include "position.h"
#include "script_checks.h"
#include "temp_dir.h"
#include "ws_client.h"

using nlohmann::json;
using namespace dejarik;
using namespace std::chrono_literals;
using testing::check;
using testing::fail;
using testing::Failure;

namespace {

constexpr int kSkipped = 77;

std::optional<std::string> findChromium() {
    if (const char* env = std::getenv("DEJARIK_CHROMIUM"); env && *env) return std::string(env);
    for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
        if (access(p, X_OK) == 0) return std::string(p);
    return std::nullopt;
}

std::string base64Decode(const std::string& in) {
    static const std::string kAlphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    int value = 0, bits = -8;
    for (const char c : in) {
        const auto pos = kAlphabet.find(c);
        if (pos == std::string::npos) continue;
        value = (value << 6) + static_cast<int>(pos);
        bits += 6;
        if (bits >= 0) {
            out.push_back(static_cast<char>((value >> bits) & 0xFF));
            bits -= 8;
        }
    }
    return out;
}

// One page of the browser, over the browser's DevTools socket in flattened-session mode.
class DevTools {
  public:
    explicit DevTools(testing::WsClient& ws) : ws_(ws) {}

    json call(const std::string& method, json params = json::object(),
              std::chrono::milliseconds timeout = 20s) {
        const int id = ++lastId_;
        json message{{"id", id}, {"method", method}, {"params", std::move(params)}};
        if (!session_.empty()) message["sessionId"] = session_;
        if (!ws_.send(message.dump())) fail("DevTools: the browser's socket closed");
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < deadline) {
            const auto text = ws_.read(std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now()));
            if (!text) break;
            const json reply = json::parse(*text, nullptr, false);
            if (reply.is_discarded() || !reply.contains("id") || reply["id"] != id) continue;
            if (reply.contains("error")) fail("DevTools " + method + ": " + reply["error"].dump());
            return reply["result"];
        }
        fail("DevTools: no answer to " + method);
    }

    void attach(const std::string& url) {
        const json target = call("Target.createTarget", {{"url", "about:blank"}});
        const json attached =
            call("Target.attachToTarget", {{"targetId", target["targetId"]}, {"flatten", true}});
        session_ = attached["sessionId"];
        call("Page.enable");
        call("Runtime.enable");
        viewport(1280, 800, false);
        call("Page.navigate", {{"url", url}});
    }

    void viewport(int width, int height, bool mobile) {
        call("Emulation.setDeviceMetricsOverride",
             {{"width", width}, {"height", height}, {"deviceScaleFactor", 1}, {"mobile", mobile}});
    }

    // The value of a JavaScript expression in the page; a thrown exception fails the test.
    json eval(const std::string& expression) {
        const json r =
            call("Runtime.evaluate",
                 {{"expression", expression}, {"returnByValue", true}, {"awaitPromise", true}});
        if (r.contains("exceptionDetails"))
            fail("JavaScript '" + expression + "': " + r["exceptionDetails"].dump());
        return r["result"].contains("value") ? r["result"]["value"] : json(nullptr);
    }

    // Polls the expression until it is true.
    bool waitFor(const std::string& expression, std::chrono::milliseconds timeout) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < deadline) {
            if (eval("!!(" + expression + ")") == true) return true;
            std::this_thread::sleep_for(50ms);
        }
        return false;
    }

    void screenshot(const std::string& path) {
        const json shot = call("Page.captureScreenshot", {{"format", "png"}});
        std::ofstream out(path, std::ios::binary);
        out << base64Decode(shot["data"].get<std::string>());
        if (!out) fail("cannot write " + path);
    }

  private:
    testing::WsClient& ws_;
    std::string session_;
    int lastId_ = 0;
};

const char* kHelpers = R"JS(
window.__ready = () => { const u = window.dejarik; return u && u.state && !u.busy &&
  u.queue.length === 0 && (u.state.turn === 'human' || u.state.ending); };
window.__pick = () => { const L = window.dejarik.state.legal; const f = (k) => L.filter((e) => e.kind === k);
  return f('place')[0] || f('attack')[0] || f('move').find((e) => e.to === 'a') ||
    f('move').find((e) => e.to.startsWith('b')) || f('move')[0] || f('pass')[0] || null; };
window.__click = (cell) => document.querySelector(`#cells [data-cell="${cell}"] path`)
  .dispatchEvent(new MouseEvent('click', {bubbles: true}));
true
)JS";

// A Courtier position (RULES §14) where player 1 has a step with several capture
// candidates, as a record to load: random steps from the start until one comes.
std::string courtierChoiceRecord() {
    const Rules rules = Rules::preset(Ruleset::Courtier);
    Position pos = Position::startpos(rules);
    std::uint64_t rng = 1;
    for (int i = 0; i < 200000; ++i) {
        EventList list;
        pos.generate(list);
        bool choice = false;
        for (const Event e : list)
            choice = choice || e.kind() == EventKind::CaptureMove;
        if (choice && pos.sideToMove() == Player::One) {
            arena::GameRecord r;
            r.rules = rules.describe();
            r.deal = pos.dfen();
            r.seed = 1;
            r.players = {"human", "dejarik"};
            r.finished = false;
            r.finalDfen = pos.dfen();
            return arena::formatRecord(r);
        }
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        pos.apply(list[static_cast<int>((rng >> 33) % list.size())]);
        if (pos.isOver()) pos = Position::startpos(rules);
    }
    fail("no Courtier position with a capture choice found");
}

// Courtier in the page: the dialog hides Dejarik's options, the pieces are Guards and
// Kings, a step is clicked and the engine answers; then, in a loaded position, a step
// with several capture candidates asks which enemy to take and sends that token.
void playCourtier(DevTools& page, const std::string& screenshotPath) {
    page.eval(
        "document.querySelector('#btn-new').click(); "
        "const rs = document.querySelector('#ng-ruleset'); rs.value = 'courtier'; "
        "rs.dispatchEvent(new Event('change')); true");
    check(page.eval("document.querySelector('#ng-options [data-option=\"Dice\"]')"
                    ".closest('label').hidden && !document.querySelector("
                    "'#ng-options [data-option=\"DrawTurns\"]').closest('label').hidden") == true,
          "for courtier the dialog hides Dice and keeps DrawTurns");
    page.eval(
        "document.querySelector('#ng-deal').value = 'standard'; "
        "document.querySelector('#ng-strength').value = 1; "
        "document.querySelector('#ng-ok').click(); true");
    check(page.waitFor("window.dejarik.state.ruleset === 'courtier' && "
                       "window.dejarik.state.ply === 0 && window.__ready()",
                       10s),
          "a Courtier game from the dialog");
    const json names = page.eval(
        "Array.from(document.querySelectorAll('#pieces .piece')).map((g) => "
        "g.querySelector('.letter').textContent + ' ' + g.querySelector('.name').textContent)"
        ".sort().join(',')");
    check(names ==
              "U Guard,U Guard,U Guard,U Guard,U Guard,W King,u Guard,u Guard,u Guard,"
              "u Guard,u Guard,w King",
          "Courtier's pieces are Guards U and Kings W: " + names.dump());

    const json step = page.eval("window.dejarik.state.legal.find((e) => e.kind === 'move')");
    if (step == nullptr) fail("no Courtier step offered");
    const std::string from = step["from"], to = step["to"];
    page.eval("window.__click('" + from + "')");
    check(page.eval("document.querySelector('#cells [data-cell=\"" + to +
                    "\"]').classList.contains('target-move')") == true,
          "clicking the Guard or King on " + from + " shows its step to " + to);
    page.eval("window.__click('" + to + "')");
    check(page.waitFor("window.dejarik.state.ply >= 2 && window.__ready()", 15s),
          "the step " + step["token"].get<std::string>() + " is played and the engine answers");
    check(page.eval("document.querySelector('#dice').hidden") == true, "no dice in Courtier");

    const std::string record = courtierChoiceRecord();
    page.eval("window.dejarik.socket.send(JSON.stringify({type: 'load', text: " +
              json(record).dump() + "})); true");
    check(page.waitFor("window.__ready() && window.dejarik.state.plies === 0 && "
                       "window.dejarik.state.legal.some((e) => e.kind === 'capture')",
                       10s),
          "a Courtier position with a capture choice loads");
    const json choice = page.eval(
        "(() => { const L = window.dejarik.state.legal; const c = L.find((e) => e.kind === "
        "'capture'); return L.filter((e) => e.kind === 'capture' && e.from === c.from && "
        "e.to === c.to); })()");
    check(choice.size() >= 2, "the step has several candidates");
    const json& last = choice.back();
    page.eval("window.__click('" + last["from"].get<std::string>() + "')");
    page.eval("window.__click('" + last["to"].get<std::string>() + "')");
    for (const json& c : choice)
        check(page.eval("document.querySelector('#cells [data-cell=\"" +
                        c["captured"].get<std::string>() +
                        "\"]').classList.contains('target-capture')") == true,
              "the candidate " + c["captured"].get<std::string>() + " is highlighted");
    check(page.eval("window.dejarik.state.ply") == 0, "choosing the step alone plays nothing");
    page.screenshot(screenshotPath);
    page.eval("window.__click('" + last["captured"].get<std::string>() + "')");
    check(page.waitFor("window.dejarik.state.plies >= 1 && "
                       "window.dejarik.state.events[0].token === '" +
                           last["token"].get<std::string>() + "'",
                       10s),
          "the capture chosen is sent as " + last["token"].get<std::string>());
}

// A kelly game from the new-game dialog, set as a player would: the ruleset chosen (the
// dialog shows its options), then each field (a selector in the dialog, its value) in
// order, the engine at depth 1, and Start.
void startKellyFromDialog(DevTools& page,
                          const std::vector<std::pair<std::string, std::string>>& fields) {
    std::string script =
        "document.querySelector('#btn-new').click(); "
        "document.querySelector('#ng-ruleset').value = 'kelly'; "
        "document.querySelector('#ng-ruleset').dispatchEvent(new Event('change')); ";
    for (const auto& [selector, value] : fields)
        script += "document.querySelector(" + json(selector).dump() +
                  ").value = " + json(value).dump() + "; ";
    page.eval(script +
              "document.querySelector('#ng-strength').value = 1; "
              "document.querySelector('#ng-ok').click(); true");
}

// Rays of Death in the page: the server rolls each combat cell, the page shows the D4 and the
// D12 and names the cell, marks it on the board, and offers only attacks into or out of it;
// play goes on through the engine's turns and the rolls between them.
void playRaysOfDeath(DevTools& page) {
    startKellyFromDialog(page, {{"#ng-options [data-option=\"RaysOfDeath\"]", "true"},
                                {"#ng-deal", "standard"},
                                {"#ng-seed", "7"}});
    const std::string rays =
        "window.dejarik.state.events.filter((e) => e.token.startsWith('ray:'))";
    check(page.waitFor("window.dejarik.state.ruleset === 'kelly' && window.__ready() && "
                       "/RaysOfDeath=true/.test(window.dejarik.state.rules) && "
                       "window.dejarik.state.ply === 0 && !window.dejarik.state.combat && "
                       "!document.querySelector('#cells .combat')",
                       10s),
          "a Rays of Death game from the dialog, no combat cell before the first roll");
    int rolls = 0, attacks = 0;
    for (int action = 0; action < 100 && (rolls < 2 || attacks == 0); ++action) {
        if (!page.waitFor("window.__ready()", 30s)) fail("the page never came back to the player");
        if (page.eval("window.dejarik.state.ending") != nullptr) break;
        const json shown = page.eval(
            "(() => { const s = window.dejarik.state; const o = document.querySelector("
            "'#dice-outcome'); const r = " +
            rays +
            "; return {combat: s.combat || null, last: r.length ? r[r.length - 1].token : null, "
            "count: r.length, outcome: o.dataset.outcome, text: o.textContent, "
            "marked: Array.from(document.querySelectorAll('#cells .combat')).map((g) => "
            "g.dataset.cell), d4: document.querySelector('#dice-attacker-name').textContent, "
            "d12: document.querySelector('#dice-defender-name').textContent, "
            "faces: Array.from(document.querySelectorAll('#dice .die')).map((d) => "
            "Number(d.textContent)), attacks: s.legal.filter((e) => e.kind === 'attack')}; })()");
        if (shown["count"].get<int>() > rolls) {
            rolls = shown["count"].get<int>();
            // The last roll is the cell in force until the next: the page names and marks it.
            const std::string cell = shown["last"].get<std::string>().substr(4);
            check(shown["combat"] == cell, "the state's combat cell is the last roll's, " + cell);
            check(shown["outcome"] == "ray" && shown["d4"] == "D4" && shown["d12"] == "D12" &&
                      shown["text"].get<std::string>().starts_with("combat cell " + cell + " ("),
                  "the dice show the roll of the combat cell " + cell + ": " + shown.dump());
            check(shown["marked"] == json::array({cell}),
                  "the board marks the combat cell " + cell + " alone: " + shown["marked"].dump());
            const auto& faces = shown["faces"];
            check(faces.size() == 2 && faces[0] >= 1 && faces[0] <= 4 && faces[1] >= 1 &&
                      faces[1] <= 12,
                  "a D4 and a D12 face: " + faces.dump());
        }
        const json& combat = shown["combat"];
        for (const json& a : shown["attacks"])
            if (!combat.is_null())
                check(a["from"] == combat || a["to"] == combat,
                      "the attack " + a["token"].get<std::string>() + " goes into or out of " +
                          combat.dump());
        const json pick = page.eval("window.__pick()");
        if (pick == nullptr) fail("no legal decision offered to the player");
        const int ply = page.eval("window.dejarik.state.ply").get<int>();
        const std::string kind = pick["kind"];
        if (kind == "place") {
            page.eval("window.__click('" + pick["to"].get<std::string>() + "')");
        } else if (kind == "pass") {
            page.eval("document.querySelector('#btn-pass').click()");
        } else {
            page.eval("window.__click('" + pick["from"].get<std::string>() + "')");
            page.eval("window.__click('" + pick["to"].get<std::string>() + "')");
            if (kind == "attack") {
                page.eval("document.querySelector('#btn-confirm').click()");
                ++attacks;
            }
        }
        if (!page.waitFor("window.dejarik.state.ply > " + std::to_string(ply), 10s))
            fail("the server did not take " + pick["token"].get<std::string>());
    }
    check(rolls >= 2 && attacks > 0, "played through " + std::to_string(rolls) +
                                         " rolls of the combat cell and " +
                                         std::to_string(attacks) + " attacks");
}

// Set-up in the page (RULES §15): with Setup arrange the engine (player 1) sets up first;
// the player puts the reserve's creatures on the home cells by clicking them in order, takes
// one back, sends the arrangement, and Undo brings the set-up back.
void playSetup(DevTools& page) {
    // The dialog keeps the last game's choices: Rays of Death is turned off again.
    startKellyFromDialog(page, {{"#ng-options [data-option=\"RaysOfDeath\"]", "false"},
                                {"#ng-options [data-option=\"Setup\"]", "arrange"},
                                {"#ng-deal", "random"},
                                {"#ng-side", "2"},
                                {"#ng-seed", "9"}});
    check(page.waitFor("window.dejarik.state.seed === '9' && window.__ready() && "
                       "window.dejarik.state.phase === 'setup' && window.dejarik.state.ply === 1",
                       15s),
          "a Setup arrange game from the dialog: the engine has set up, the player's turn");
    const json engine = page.eval(
        "(() => { const s = window.dejarik.state; return {token: s.events[0].token, "
        "cells: s.cells.map((p) => p.cell + p.letter)}; })()");
    check(engine["token"].get<std::string>().starts_with("setup:") && engine["cells"].size() == 4,
          "the engine's set-up is played and shown: " + engine.dump());
    for (int i = 0; i < 4; ++i) {
        const std::string want =
            "c" + std::to_string(2 + i) +
            static_cast<char>(std::toupper(engine["token"].get<std::string>()[6 + i]));
        check(engine["cells"][i] == want, "the engine's creature " + want + " on its home cell");
    }
    const std::string buttons = "Array.from(document.querySelectorAll('#setup-reserve button'))";
    check(page.eval("!document.querySelector('#setup').hidden && " + buttons +
                    ".length === 4 && document.querySelector('#btn-setup').disabled && " +
                    "['c8', 'c9', 'c10', 'c11'].every((c) => document.querySelector("
                    "`#cells [data-cell=\"${c}\"]`).classList.contains('target-place'))") == true,
          "the set-up panel offers four creatures, the home cells c8..c11 to fill");
    // Last to first; then c9's creature back, and again: it goes to the first empty cell.
    page.eval(buttons + ".reverse().forEach((b) => b.click()); true");
    page.eval("window.__click('c9'); true");
    check(page.eval("document.querySelector('#btn-setup').disabled && " + buttons +
                    ".filter((b) => !b.disabled).length === 1 && "
                    "!document.querySelector('#pieces [data-piece=\"c9\"]')") == true,
          "a home cell clicked gives its creature back");
    page.eval(buttons + ".find((b) => !b.disabled).click(); true");
    const json letters = page.eval(buttons + ".reverse().map((b) => b.textContent[0]).join('')");
    const json shown = page.eval(
        "['c8', 'c9', 'c10', 'c11'].map((c) => document.querySelector(`#pieces "
        "[data-piece=\"${c}\"].preview .letter`).textContent).join('')");
    check(shown == letters, "the creatures stand where they were put: " + shown.dump() +
                                " against " + letters.dump());
    check(page.eval("window.dejarik.state.ply") == 1, "nothing is sent before Set up");
    page.eval("document.querySelector('#btn-setup').click(); true");
    std::string token = "setup:" + letters.get<std::string>();
    for (char& c : token)
        c = static_cast<char>(std::tolower(c));
    check(page.waitFor("window.dejarik.state.plies >= 2 && window.dejarik.state.events[1].token "
                       "=== '" +
                           token + "'",
                       10s),
          "the arrangement is sent as " + token);
    // The engine's first turn may push or kill them: the position after the set-up is browsed.
    check(page.waitFor("window.__ready() && window.dejarik.state.phase === 'decision'", 15s),
          "the engine takes its first turn");
    page.eval("window.dejarik.socket.send(JSON.stringify({type: 'goto', ply: 2})); true");
    check(page.waitFor("window.dejarik.state.turn === 'browse' && window.dejarik.state.ply === 2 "
                       "&& document.querySelector('#setup').hidden && window.dejarik.state.cells."
                       "filter((p) => p.owner === 2).map((p) => p.cell + p.letter).join() === "
                       "['c8', 'c9', 'c10', 'c11'].map((c, i) => c + '" +
                           letters.get<std::string>() + "'[i]).join()",
                       10s),
          "after the set-up the player's creatures stand as arranged");
    page.eval("document.querySelector('#btn-last').click(); true");
    check(page.waitFor("window.__ready() && window.dejarik.state.turn === 'human'", 10s),
          "back at the player's first turn");
    page.eval("document.querySelector('#btn-undo').click(); true");
    check(page.waitFor("window.__ready() && window.dejarik.state.phase === 'setup' && "
                       "window.dejarik.state.plies === 1 && "
                       "!document.querySelector('#setup').hidden",
                       10s),
          "Undo at the start of the first turn brings the set-up back");
    // The page keeps the events it was sent and drops those an undo takes back.
    check(page.eval("window.dejarik.state.events.length === 1 && "
                    "document.querySelectorAll('#move-list li').length === 1 && "
                    "window.dejarik.state.events[0].token.startsWith('setup:')")
              .get<bool>(),
          "the move list after the undo holds the one set-up left");
}

}  // namespace

int run(int argc, char** argv) {
    if (argc != 4) {
        std::cerr << "usage: gui-browser-test DEJARIK_GUI ENGINE SCREENSHOT.png\n";
        return 2;
    }
    const auto chromium = findChromium();
    if (!chromium) {
        std::cout << "SKIPPED: no chromium (apt-get install chromium, or set DEJARIK_CHROMIUM)\n";
        return kSkipped;
    }
    const std::string screenshotPath = argv[3];

    std::string error;
    auto server = testing::GuiServer::start(argv[1], {"--engine", argv[2]}, error);
    if (!server) fail(error);

    // The browser's profile and its temporary files (chromium puts its singleton socket in
    // $TMPDIR and leaves it there when killed, a folder a run), removed on every way out of
    // the test after the browser (declared later) is gone.
    const testing::TempDir scratch("dejarik-gui-chromium-");
    const auto profile = scratch.path() / "profile";
    const auto browserTmp = scratch.path() / "tmp";
    std::filesystem::create_directories(browserTmp);
    // The browser is this process's only child from here on that reads TMPDIR.
    ::setenv("TMPDIR", browserTmp.c_str(), 1);
    process::ChildProcess::Spec spec;
    spec.argv = {*chromium,
                 "--headless=new",
                 "--no-sandbox",
                 "--disable-gpu",
                 "--disable-dev-shm-usage",
                 "--no-first-run",
                 "--no-default-browser-check",
                 "--remote-debugging-port=0",
                 "--user-data-dir=" + profile.string(),
                 "about:blank"};
    spec.stderrTo = process::ChildProcess::Stderr::Capture;
    auto browser = process::ChildProcess::spawn(spec, error);
    if (!browser) fail("cannot start " + *chromium + ": " + error);
    std::string devtoolsUrl;
    const auto startDeadline = std::chrono::steady_clock::now() + 30s;
    while (devtoolsUrl.empty() && std::chrono::steady_clock::now() < startDeadline) {
        (void)browser->readLine(100ms);
        const std::string& err = browser->stderrText();
        const auto at = err.find("DevTools listening on ");
        if (at != std::string::npos && err.find('\n', at) != std::string::npos)
            devtoolsUrl = err.substr(at + 22, err.find('\n', at) - at - 22);
        if (browser->exited()) break;
    }
    if (devtoolsUrl.empty()) fail("chromium did not open DevTools: " + browser->stderrText());

    testing::WsClient ws;
    if (auto e = ws.connect(devtoolsUrl, 10s)) fail("DevTools: " + *e);
    DevTools page(ws);
    page.call("Browser.setDownloadBehavior", {{"behavior", "deny"}});
    page.attach(server->httpUrl());
    check(page.waitFor("window.dejarik && window.dejarik.hello && window.dejarik.state", 15s),
          "the page loads and gets the game over its socket");
    page.eval(kHelpers);

    const json cells = page.eval(
        "Array.from(document.querySelectorAll('[data-cell]')).map((e) => e.dataset.cell)");
    std::set<std::string> names(cells.begin(), cells.end());
    std::set<std::string> expected{"a"};
    for (int i = 1; i <= 12; ++i) {
        expected.insert("b" + std::to_string(i));
        expected.insert("c" + std::to_string(i));
    }
    check(cells.size() == 25 && names == expected, "25 data-cell elements, a, b1..b12, c1..c12");

    // A fixed game: kelly's standard deal, seeded dice, the engine at depth 1.
    page.eval(
        "document.querySelector('#ng-seed').value = 6; "
        "document.querySelector('#ng-strength').value = 1; "
        "document.querySelector('#btn-new').click(); "
        "document.querySelector('#ng-ok').click(); true");
    check(page.waitFor("window.dejarik.state.seed === '6' && window.dejarik.state.ply === 0 && "
                       "window.__ready()",
                       10s),
          "a new game from the dialog (seed 6, depth 1)");

    int moves = 0, attacks = 0, placements = 0;
    for (int action = 0; action < 120; ++action) {
        if (!page.waitFor("window.__ready()", 30s)) fail("the page never came back to the player");
        if (page.eval("window.dejarik.state.ending") != nullptr) break;
        const json engineEvents =
            page.eval("window.dejarik.state.events.filter((e) => e.player === 2).length");
        if (moves > 0 && attacks > 0 && placements > 0 && engineEvents.get<int>() > 0) break;
        const json pick = page.eval("window.__pick()");
        if (pick == nullptr) fail("no legal decision offered to the player");
        const int ply = page.eval("window.dejarik.state.ply").get<int>();
        const std::string kind = pick["kind"];
        if (kind == "place") {
            check(page.eval("document.querySelector('#cells [data-cell=\"" +
                            pick["to"].get<std::string>() +
                            "\"]').classList.contains('target-place')") == true,
                  "the placement's cell " + pick["to"].get<std::string>() + " is highlighted");
            page.eval("window.__click('" + pick["to"].get<std::string>() + "')");
            ++placements;
        } else if (kind == "pass") {
            page.eval("document.querySelector('#btn-pass').click()");
        } else {
            page.eval("window.__click('" + pick["from"].get<std::string>() + "')");
            const std::string to = pick["to"];
            const std::string cls = kind == "attack" ? "target-attack" : "target-move";
            if (page.eval("document.querySelector('#cells [data-cell=\"" + to +
                          "\"]').classList.contains('" + cls + "')") != true)
                fail("clicking " + pick["from"].get<std::string>() + " does not highlight " + to);
            page.eval("window.__click('" + to + "')");
            if (kind == "attack") {
                const json odds = page.eval(
                    "!document.querySelector('#odds').hidden && Array.from(document."
                    "querySelectorAll('#odds-table td')).map((td) => parseFloat(td.textContent))");
                double sum = 0;
                for (const auto& p : odds)
                    sum += p.get<double>();
                check(odds.is_array() && odds.size() == 4 && std::abs(sum - 100) < 0.1,
                      "the attack " + pick["token"].get<std::string>() +
                          " shows the odds of its four outcomes");
                page.eval("document.querySelector('#btn-confirm').click()");
                check(page.waitFor("document.querySelector('#dice-outcome').dataset.outcome", 10s),
                      "the dice roll and the outcome is named");
                ++attacks;
            } else {
                ++moves;
            }
        }
        if (!page.waitFor("window.dejarik.state.ply > " + std::to_string(ply), 10s))
            fail("the server did not take " + pick["token"].get<std::string>());
    }
    check(moves > 0 && attacks > 0 && placements > 0,
          "played " + std::to_string(moves) + " moves, " + std::to_string(attacks) + " attacks, " +
              std::to_string(placements) + " placements");
    check(page.waitFor("window.__ready() && /ev /.test(document.querySelector('#engine-line')"
                       ".textContent)",
                       10s),
          "the engine's replies show its ev and wdl");

    page.eval("document.querySelector('#btn-save').click(); true");
    check(page.waitFor("window.dejarik.lastRecord", 10s), "the record is saved");
    const std::string text = page.eval("window.dejarik.lastRecord");
    const int plies = page.eval("window.dejarik.state.plies").get<int>();
    check(page.eval("window.dejarik.state.events.map((e) => e.token).join(' ') === "
                    "[...document.querySelectorAll('#move-list li')].map((li) => "
                    "li.firstChild.textContent.replace(/^\\d+\\. /, '')).join(' ')")
              .get<bool>(),
          "the move list shows the events the page rebuilt");
    const auto records = arena::parseRecords(text, error);
    check(records && records->size() == 1,
          "the arena's reader reads the record back" + (records ? "" : ": " + error));
    const arena::GameRecord& record = records->front();
    check(static_cast<int>(record.events.size()) == plies && record.players[0] == "human",
          "the record holds the game's " + std::to_string(plies) + " events, player 1 human");
    std::string tokens;
    for (const auto& e : record.events)
        tokens += (tokens.empty() ? "" : " ") + e.token;
    check(
        page.eval("window.dejarik.state.events.map((e) => e.token).join(' ')").get<std::string>() ==
            tokens,
        "the page's events are the record's");
    const Rules rules(*arena::parseRulesTag(record.rules, error));
    const auto start = Position::fromDfen(record.deal, rules);
    check(start && playTokens(*start, record.moves(), &error).has_value(),
          "the record's events replay under its rules");

    page.screenshot(screenshotPath);
    check(std::filesystem::file_size(screenshotPath) > 10000, "screenshot " + screenshotPath);

    page.viewport(390, 844, true);
    check(page.waitFor("document.documentElement.scrollWidth <= 392 && "
                       "document.querySelector('#board').getBoundingClientRect().width > 300",
                       5s),
          "a phone-size viewport (390x844) shows the whole board without sideways scrolling");
    std::string phonePath = screenshotPath;
    phonePath.insert(phonePath.rfind('.'), "-phone");
    page.screenshot(phonePath);

    page.viewport(1280, 800, false);
    std::string courtierPath = screenshotPath;
    courtierPath.insert(courtierPath.rfind('.'), "-courtier");
    playCourtier(page, courtierPath);
    playRaysOfDeath(page);
    playSetup(page);

    ws.close();
    browser->kill();
    const auto status = server->terminate(5s);
    check(status && status->code == 0, "the server ends cleanly on SIGTERM");
    std::cout << "browser test: passed\n";
    return 0;
}

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const Failure& f) {
        std::cerr << "browser test: FAILED: " << f.what() << "\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "browser test: FAILED: " << e.what() << "\n";
        return 1;
    }
}
