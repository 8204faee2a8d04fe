#include "protocol/engine.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <new>

#include "eval/eval.h"
#include "perft.h"
#include "protocol/display.h"
#include "protocol/info.h"
#include "protocol/odds.h"
#include "protocol/options.h"
#include "search/baselines.h"
#include "search/bench.h"

namespace dejarik::protocol {

namespace {

template <class... Ts>
struct Overloaded : Ts... {
    using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

std::string signedFixed(double v, int places) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%+.*f", places, v);
    return buf;
}

std::string fixedWidth(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%10.3f", v);
    return buf;
}

std::string join(const std::vector<std::string>& parts) {
    std::string s;
    for (const auto& p : parts) {
        if (!s.empty()) s += ' ';
        s += p;
    }
    return s;
}

}  // namespace

Engine::Engine(Output& out)
    : out_(out),
      rules_(std::make_unique<const Rules>(ruleOptions_)),
      pos_(Position::startpos(*rules_)),
      decisionDfen_(pos_.dfen()),
      searcherBuild_(
          std::async(std::launch::async, [] { return std::make_unique<search::Searcher>(); })) {}

Engine::~Engine() {
    shutdown();
}

void Engine::shutdown() {
    if (!searcher_) return;  // no search was ever started
    searcher_->stop();
    waitForBestmove();
    searcher_->wait();
}

search::Searcher& Engine::builtSearcher() {
    if (!searcher_) searcher_ = searcherBuild_.get();
    return *searcher_;
}

search::Searcher& Engine::searcher() {
    if (!searcher_) builtSearcher().setOptions(searchOptions_);
    return *searcher_;
}

void Engine::waitForSearchThread() {
    if (searcher_) searcher_->wait();
}

bool Engine::searching() {
    const std::lock_guard lock(sessionMutex_);
    return searching_;
}

void Engine::waitForBestmove() {
    std::unique_lock lock(sessionMutex_);
    sessionEnded_.wait(lock, [this] { return !searching_; });
}

bool Engine::handle(std::string_view line) {
    spdlog::debug("<< {}", line);
    const ParseResult parsed = parseLine(line);
    const bool busy = searching();
    if (const auto* err = std::get_if<ParseError>(&parsed)) {
        out_.error(err->message);
        // A malformed search go still gets its bestmove, unless it arrived mid-search,
        // where the bestmove that follows belongs to the running search.
        if (err->kind == LineKind::SearchGo && !busy) out_.line("bestmove none");
        return true;
    }
    const Command& command = std::get<Command>(parsed);
    if (busy && !std::holds_alternative<IsReady>(command) &&
        !std::holds_alternative<Stop>(command) && !std::holds_alternative<Quit>(command) &&
        !std::holds_alternative<Empty>(command)) {
        out_.error("a search is running: only isready, stop and quit are accepted until bestmove");
        return true;
    }
    bool keepGoing = true;
    std::visit(Overloaded{
                   [](const Empty&) {},
                   [this](const Dei&) { onDei(); },
                   [this, busy](const IsReady&) {
                       // Ready means ready to search: the first isready waits for the
                       // searcher to be built (mid-search it exists already).
                       if (!busy) (void)searcher();
                       out_.line("readyok");
                   },
                   [this](const NewGame&) { onNewGame(); },
                   [this](const Stop&) { onStop(); },
                   [&keepGoing](const Quit&) { keepGoing = false; },
                   [this](const Display&) { onDisplay(); },
                   [this](const Eval&) { onEval(); },
                   [this](const SetOption& c) { onSetOption(c); },
                   [this](const SetPosition& c) { onPosition(c); },
                   [this](const Go& c) { onGo(c); },
                   [this](const GoPerft& c) { onGoPerft(c); },
                   [this](const Odds& c) { onOdds(c); },
                   [this](const Bench& c) { onBench(c); },
               },
               command);
    if (!keepGoing) shutdown();
    return keepGoing;
}

void Engine::onDei() {
    std::vector<std::string> lines = {"id name Dejarik", "id author the Dejarik developers"};
    for (const auto& spec : optionSpecs())
        lines.push_back(optionLine(spec));
    lines.emplace_back("deiok");
    out_.lines(lines);
}

void Engine::onSetOption(const SetOption& cmd) {
    const OptionSpec* spec = findOption(cmd.name);
    if (!spec) {
        out_.error("setoption: unknown option '" + cmd.name + "'");
        return;
    }
    const std::string name(spec->name);
    if (spec->type == OptionType::Button) {
        if (cmd.value) {
            out_.error("setoption: option " + name + " is a button and takes no value");
            return;
        }
        searcher().wait();
        searcher().clearHash();
        return;
    }
    if (!cmd.value) {
        out_.error("setoption: option " + name + " needs a value");
        return;
    }
    std::string error;
    if (spec->type == OptionType::Combo) {
        const auto value = comboValue(*spec, *cmd.value, &error);
        if (!value) {
            out_.error("setoption: " + error);
            return;
        }
        if (spec->ruleOption) {
            setRuleOption(name, *value);
        } else {  // Player
            player_ = *value == "greedy"   ? PlayerKind::Greedy
                      : *value == "random" ? PlayerKind::Random
                                           : PlayerKind::Search;
        }
        return;
    }
    const auto value = spinValue(*spec, *cmd.value, &error);
    if (!value) {
        out_.error("setoption: " + error);
        return;
    }
    if (spec->ruleOption) {
        setRuleOption(name, *cmd.value);
        return;
    }
    if (name == "Seed") {
        seed_ = static_cast<std::uint64_t>(*value);
        rng_ = seed_;
        return;
    }
    search::Options next = searchOptions_;
    if (name == "Hash") next.hashMiB = static_cast<int>(*value);
    if (name == "Threads") next.threads = static_cast<int>(*value);
    if (name == "MultiPV") next.multiPv = static_cast<int>(*value);
    search::Searcher& s = builtSearcher();
    s.wait();
    try {
        s.setOptions(next);
        searchOptions_ = next;
    } catch (const std::bad_alloc&) {
        out_.error("setoption: cannot allocate " + std::to_string(next.hashMiB) +
                   " MiB of hash; the options stay as they were");
        s.setOptions(searchOptions_);
    }
}

void Engine::setRuleOption(std::string_view name, std::string_view value) {
    RuleOptions next = ruleOptions_;
    if (auto err = next.set(name, value)) {
        out_.error("setoption: " + *err);
        return;
    }
    waitForSearchThread();
    auto rules = std::make_unique<const Rules>(next);
    pos_ = Position::startpos(*rules);
    rules_ = std::move(rules);
    ruleOptions_ = next;
    decisionDfen_ = pos_.dfen();
    eventsSinceDecision_.clear();
    spdlog::info("rules now {}", rules_->describe());
}

void Engine::onNewGame() {
    searcher().wait();
    searcher().clearHash();
    rng_ = seed_;
}

void Engine::onPosition(const SetPosition& cmd) {
    std::string error;
    auto start = cmd.dfen ? Position::fromDfen(*cmd.dfen, *rules_, &error)
                          : std::optional(Position::startpos(*rules_));
    if (!start) {
        out_.error("position: " + error);
        return;
    }
    Position pos = *start;
    std::string dfen = pos.dfen();
    std::vector<std::string> since;
    for (std::size_t i = 0; i < cmd.moves.size(); ++i) {
        const std::string& token = cmd.moves[i];
        const std::string where = "position: event " + std::to_string(i + 1) + " '" + token + "'";
        if (pos.isOver()) {
            out_.error(where + ": the game is already over (" + resultText(pos) + ")");
            return;
        }
        const auto event = pos.parseEvent(token);
        if (!event) {
            out_.error(where + (Event::parse(token)
                                    ? " is not legal here (legal: " + legalEventsText(pos) + ")"
                                    : " is not an event"));
            return;
        }
        pos.apply(*event);
        since.push_back(event->token());
        if (pos.phase() == Phase::Decision) {
            dfen = pos.dfen();
            since.clear();
        }
    }
    waitForSearchThread();
    pos_ = pos;
    decisionDfen_ = std::move(dfen);
    eventsSinceDecision_ = std::move(since);
}

void Engine::onGo(const Go& cmd) {
    if (pos_.isOver()) {
        out_.error("go: the game is over (" + resultText(pos_) + ")");
        out_.line("bestmove none");
        return;
    }
    if (pos_.phase() == Phase::Outcome) {
        out_.error("go: a chance outcome is due (" +
                   Event::attack(pos_.pendingFrom(), pos_.pendingTo()).token() +
                   "), not a decision: send it with position ... moves");
        out_.line("bestmove none");
        return;
    }
    if (player_ != PlayerKind::Search) {
        goWithoutSearch();
        return;
    }
    search::Limits limits;
    limits.depth = cmd.depth.value_or(0);
    limits.nodes = cmd.nodes.value_or(0);
    limits.movetimeMs = cmd.movetimeMs.value_or(0);
    limits.timeMs = {cmd.time1Ms.value_or(-1), cmd.time2Ms.value_or(-1)};
    limits.incMs = {cmd.inc1Ms.value_or(0), cmd.inc2Ms.value_or(0)};
    limits.infinite = cmd.infinite || !cmd.hasLimit();

    searcher().wait();
    {
        const std::lock_guard lock(sessionMutex_);
        searching_ = true;
        lastInfo_ = search::Info{};
    }
    const bool showMultipv = searchOptions_.multiPv > 1;
    auto onInfo = [this, showMultipv](const search::Info& info) {
        lastInfo_ = info;
        const InfoStats stats{info.depth,
                              info.seldepth,
                              info.timeMs,
                              info.nodes,
                              info.nps,
                              info.hashfull,
                              showMultipv ? info.multipv : 0};
        out_.line(infoLine(stats, info.line));
    };
    auto onDone = [this, showMultipv](const search::Report& report) {
        std::vector<search::Line> lines = report.lines;
        if (lines.empty() && !report.best.isNone()) lines.push_back(staticLine(pos_, report.best));
        if (!report.best.isNone() && !pos_.isLegal(report.best))
            spdlog::error("search returned an illegal bestmove {}", report.best.token());
        const std::int64_t time = report.timeMs;
        const std::uint64_t nps =
            report.nodes * 1000 / static_cast<std::uint64_t>(time > 0 ? time : 1);
        out_.locked([&] {
            for (std::size_t k = 0; k < lines.size(); ++k) {
                const InfoStats stats{report.depth,
                                      std::max(lastInfo_.seldepth, report.depth),
                                      time,
                                      report.nodes,
                                      nps,
                                      lastInfo_.hashfull,
                                      showMultipv ? static_cast<int>(k) + 1 : 0};
                out_.emit(infoLine(stats, lines[k]));
            }
            {
                // Cleared before bestmove goes out: a GUI may send its next command the
                // moment it reads bestmove, and that command must not be refused.
                const std::lock_guard lock(sessionMutex_);
                searching_ = false;
            }
            out_.emit("bestmove " + report.best.token());
        });
        sessionEnded_.notify_all();
    };
    searcher().start(pos_, limits, std::move(onInfo), std::move(onDone));
}

void Engine::goWithoutSearch() {
    const auto t0 = std::chrono::steady_clock::now();
    const Event decision = player_ == PlayerKind::Greedy ? search::greedyDecision(pos_, rng_)
                                                         : search::randomDecision(pos_, rng_);
    const search::Line line = staticLine(pos_, decision);
    const auto time =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    const InfoStats stats{1, 1, time, 1, static_cast<std::uint64_t>(1000 / (time > 0 ? time : 1)),
                          0, 0};
    out_.lines({infoLine(stats, line), "bestmove " + decision.token()});
}

void Engine::onGoPerft(const GoPerft& cmd) {
    std::vector<std::string> lines;
    std::uint64_t total = cmd.depth == 0 ? 1 : 0;
    if (cmd.depth > 0) {
        for (const auto& [event, count] : perftDivide(pos_, cmd.depth)) {
            lines.push_back(event.token() + ": " + std::to_string(count));
            total += count;
        }
    }
    lines.emplace_back("");
    lines.push_back("Nodes searched: " + std::to_string(total));
    out_.lines(lines);
}

void Engine::onStop() {
    if (!searcher_) return;
    searcher_->stop();
    // The next command is read only after the bestmove is out (PROTOCOL.md `stop`).
    waitForBestmove();
}

void Engine::onDisplay() {
    std::vector<std::string> lines = boardPicture(pos_);
    std::string where = "dfen " + decisionDfen_;
    if (!eventsSinceDecision_.empty()) where += " moves " + join(eventsSinceDecision_);
    lines.push_back(where);
    lines.push_back("rules " + rules_->describe());
    lines.push_back("due " + dueText(pos_));
    const std::string legal = legalEventsText(pos_);
    lines.push_back("legal " + (legal.empty() ? std::string("none") : legal));
    char key[32];
    std::snprintf(key, sizeof key, "key %016llx", static_cast<unsigned long long>(pos_.key()));
    lines.emplace_back(key);
    out_.lines(lines);
}

void Engine::onEval() {
    if (pos_.isOver()) {
        out_.error("eval: the game is over (" + resultText(pos_) + ")");
        return;
    }
    const eval::Breakdown b = eval::explain(pos_);
    std::vector<std::string> lines;
    lines.emplace_back("term                  player 1  player 2      diff  note");
    for (const auto& t : b.terms) {
        char name[64];
        std::snprintf(name, sizeof name, "%-18.18s", t.name.c_str());
        lines.push_back(std::string(name) + fixedWidth(t.player1) + fixedWidth(t.player2) +
                        fixedWidth(t.player1 - t.player2) + (t.note.empty() ? "" : "  " + t.note));
    }
    const auto wdl = eval::wdl(pos_, b.value);
    lines.push_back("raw " + signedFixed(b.raw, 3) + " for player 1");
    lines.push_back("eval " + signedFixed(b.value, 3) + " for player 1 (ev " +
                    std::to_string(std::lround(1000 * b.value)) + " wdl " + std::to_string(wdl[0]) +
                    " " + std::to_string(wdl[1]) + " " + std::to_string(wdl[2]) + ")");
    out_.lines(lines);
}

void Engine::onOdds(const Odds& cmd) {
    if (pos_.isOver()) {
        out_.error("odds: the game is over (" + resultText(pos_) + ")");
        return;
    }
    std::vector<Event> attacks;
    if (pos_.phase() == Phase::Outcome) {
        const Event pending = Event::attack(pos_.pendingFrom(), pos_.pendingTo());
        if (cmd.attack && Event::parse(*cmd.attack) != pending) {
            out_.error("odds: " + *cmd.attack + " is not the pending attack " + pending.token());
            return;
        }
        attacks.push_back(pending);
    } else if (pos_.phase() == Phase::Placement) {
        out_.error("odds: a placement is due, not an attack");
        return;
    } else if (cmd.attack) {
        const auto e = pos_.parseEvent(*cmd.attack);
        if (!e || e->kind() != EventKind::Attack) {
            out_.error("odds: " + *cmd.attack + " is not a legal attack here");
            return;
        }
        attacks.push_back(*e);
    } else {
        EventList list;
        pos_.generate(list);
        for (const Event e : list)
            if (e.kind() == EventKind::Attack) attacks.push_back(e);
        if (attacks.empty()) {
            out_.error("odds: no legal attack here");
            return;
        }
    }
    std::vector<std::string> lines;
    for (const Event a : attacks)
        lines.push_back(oddsLine(pos_, a));
    out_.lines(lines);
}

void Engine::onBench(const Bench& cmd) {
    const auto result = search::runBench(
        cmd.depth.value_or(search::kBenchDepth),
        [this](const std::string& progress) { out_.line("info string " + printable(progress)); });
    out_.line("bench nodes " + std::to_string(result.nodes) + " nps " + std::to_string(result.nps) +
              " time " + std::to_string(result.timeMs));
}

}  // namespace dejarik::protocol
