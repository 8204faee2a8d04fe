#include "engine.h"

#include <spdlog/spdlog.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <new>
#include <stdexcept>

#include "baselines.h"
#include "bench.h"
#include "display.h"
#include "eval.h"
#include "info.h"
#include "odds.h"
#include "options.h"
#include "perft.h"
#include "text.h"
#include "timeman.h"

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

// A table the options ask for cannot be had.
struct TableUnavailable : std::runtime_error {
    explicit TableUnavailable(int mib)
        : std::runtime_error("cannot allocate " + std::to_string(mib) + " MiB of hash") {}
};

}  // namespace

Engine::Engine(Output& out)
    : out_(out),
      rules_(std::make_unique<const Rules>(settings_.rules)),
      pos_(Position::startpos(*rules_)),
      decisionDfen_(pos_.dfen()),
      generator_([this](const std::string& line) { out_.line(line); }) {}

Engine::~Engine() {
    shutdown();
}

void Engine::shutdown() {
    stopJob();
    waitForJob();
    waitForJobThreads();
    generator_.stop();
}

void Engine::refreshTables() {
    if (!tablesStale_) return;
    tablesStale_ = false;  // a folder that cannot be read is reported once per change
    generator_.stop();     // it writes for the tables being replaced: let it end its set
    std::string error;
    tables_ = openTables(settings_, *rules_, &error);
    if (!error.empty()) {
        spdlog::error("{}", error);
        out_.error(error);
    }
    searcher_.setTables(tables_);
}

void Engine::generateTablesFor() {
    if (!settings_.tableGen) return;
    refreshTables();
    (void)generator_.startFor(tables_, pos_, settings_.tableGenNice);
}

search::Searcher& Engine::searcher() {
    if (!searcherSized_) sizeSearcher(settings_.search);
    return searcher_;
}

void Engine::sizeSearcher(const search::Options& options) {
    searcher_.wait();
    try {
        searcher_.setOptions(options);
    } catch (const std::bad_alloc&) {
        throw TableUnavailable(options.hashMiB);
    }
    searcherSized_ = true;
}

const char* Engine::jobName(Job job) {
    constexpr std::array<const char*, 4> kNames = {"nothing", "a search", "go perft", "bench"};
    return kNames[static_cast<int>(job)];
}

Engine::Job Engine::job() {
    const std::lock_guard lock(jobMutex_);
    return job_;
}

void Engine::startJob(Job job) {
    const std::lock_guard lock(jobMutex_);
    job_ = job;
    lastInfo_ = search::Info{};
}

void Engine::finishJob(const std::vector<std::string>& lines) {
    out_.locked([&] {
        {
            // Cleared before the lines go out: a GUI may send its next command the moment
            // it reads them, and that command must not be refused.
            const std::lock_guard lock(jobMutex_);
            job_ = Job::None;
        }
        for (const auto& l : lines)
            out_.emit(l);
    });
    jobEnded_.notify_all();
}

void Engine::startWorker(Job job, Work work) {
    waitForJobThreads();
    startJob(job);
    try {
        worker_ = std::jthread([this, job, work = std::move(work)](std::stop_token stop) {
            std::vector<std::string> closing;
            try {
                closing = work(stop);
            } catch (const std::bad_alloc&) {
                closing = {errorLine(std::string(jobName(job)) + ": out of memory")};
            } catch (const std::exception& e) {
                closing = {errorLine(std::string(jobName(job)) + ": " + e.what())};
            }
            finishJob(closing);
        });
    } catch (...) {
        finishJob({});
        throw;
    }
}

void Engine::stopJob() {
    searcher_.stop();
    worker_.request_stop();
}

void Engine::waitForJob() {
    std::unique_lock lock(jobMutex_);
    jobEnded_.wait(lock, [this] { return job_ == Job::None; });
}

void Engine::waitForJobThreads() {
    searcher_.wait();
    if (worker_.joinable()) worker_.join();
}

bool Engine::handle(std::string_view line) {
    spdlog::debug("<< {}", line);
    Command command = Empty{};
    try {
        ParseResult parsed = parseLine(line);
        const Job busy = job();
        if (const auto* err = std::get_if<ParseError>(&parsed)) {
            out_.error(err->message);
            // A malformed search go still gets its bestmove, unless it arrived mid-search,
            // where the bestmove that follows belongs to the running search.
            if (err->kind == LineKind::SearchGo && busy != Job::Search) out_.line("bestmove none");
            return true;
        }
        command = std::move(std::get<Command>(parsed));
        if (busy != Job::None && !std::holds_alternative<IsReady>(command) &&
            !std::holds_alternative<Stop>(command) && !std::holds_alternative<Quit>(command) &&
            !std::holds_alternative<Empty>(command)) {
            out_.error(std::string(jobName(busy)) +
                       " is running: only isready, stop and quit are accepted until " +
                       (busy == Job::Search ? "bestmove" : "it ends"));
            if (std::holds_alternative<Go>(command) && busy != Job::Search)
                out_.line("bestmove none");
            return true;
        }
        return dispatch(command);
    } catch (const std::bad_alloc&) {
        failed(line, command, "out of memory");
    } catch (const std::exception& e) {
        failed(line, command, e.what());
    } catch (...) {
        failed(line, command, "unexpected failure");
    }
    return true;
}

bool Engine::dispatch(const Command& command) {
    bool keepGoing = true;
    std::visit(Overloaded{
                   [](const Empty&) {},
                   [this](const Dei&) { onDei(); },
                   [this](const IsReady&) { onIsReady(); },
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

void Engine::failed(std::string_view line, const Command& command, const std::string& reason) {
    const auto words = tokenize(line);
    std::string message =
        (words.empty() ? std::string() : std::string(words.front()) + ": ") + reason;
    // Settings change only once every effect of a setoption succeeded.
    if (std::holds_alternative<SetOption>(command)) message += "; the options stay as they were";
    spdlog::error("{}", message);
    out_.error(message);
    if (std::holds_alternative<IsReady>(command)) out_.line("readyok");
    if (std::holds_alternative<Go>(command) && job() != Job::Search) out_.line("bestmove none");
}

void Engine::onDei() {
    std::vector<std::string> lines = {"id name Dejarik", "id author the Dejarik developers"};
    for (const Option& option : options())
        lines.push_back(optionLine(option.spec));
    lines.emplace_back("deiok");
    out_.lines(lines);
}

void Engine::onIsReady() {
    // Ready means ready to search: the table is had, or the error says why not.
    (void)searcher();
    if (job() == Job::None) refreshTables();
    out_.line("readyok");
}

void Engine::onSetOption(const SetOption& cmd) {
    const Option* option = findOption(cmd.name);
    if (!option) {
        out_.error("setoption: unknown option " + text::quoted(cmd.name));
        return;
    }
    if (option->rule && settings_.rules.inactive(*option->rule)) {
        // Under Courtier a Dejarik-only option is refused, or accepted with its neutral
        // value and changes nothing, the position included (RULES §14.13).
        std::string error;
        const auto checked = checkOptionValue(option->spec, cmd.value, &error);
        if (!checked) {
            out_.error("setoption: " + error);
        } else if (auto refused = settings_.rules.refusal(*option->rule, *checked)) {
            out_.error(*refused);
        }
        return;
    }
    Settings next = settings_;
    if (auto error = setOption(next, *option, cmd.value)) {
        // A creature file's errors name the file and line as RULES §16.2 writes them.
        out_.error(error->starts_with("CreatureFile ") ? *error : "setoption: " + *error);
        return;
    }
    bool reopen = false;
    switch (option->effect) {
        case Effect::NewRules:
            adoptRules(next.rules);
            tablesStale_ = true;
            break;
        case Effect::ReopenTables:
            reopen = true;
            break;
        case Effect::TableGen:
            if (!next.tableGen) generator_.stop();
            break;
        case Effect::ResizeSearch:
            sizeSearcher(next.search);
            break;
        case Effect::ClearHash:
            waitForJobThreads();
            searcher().clearHash();
            break;
        case Effect::RestartRandom:
            rng_ = next.seed;
            break;
        case Effect::LoadEval: {
            eval::Tunables tunables;
            if (!next.evalFile.empty())
                if (auto error = eval::loadTunables(next.evalFile, tunables)) {
                    out_.error("setoption: EvalFile: " + *error +
                               "; the weights stay as they were");
                    return;
                }
            waitForJobThreads();
            searcher_.setTunables(tunables);
            break;
        }
        case Effect::None:
            break;
    }
    settings_ = next;
    if (reopen) {
        tablesStale_ = true;
        refreshTables();
    }
    generateTablesFor();
}

void Engine::adoptRules(const RuleOptions& options) {
    auto rules = std::make_unique<const Rules>(options);
    Position pos = Position::startpos(*rules);
    std::string dfen = pos.dfen();
    waitForJobThreads();
    pos_ = pos;
    rules_ = std::move(rules);
    decisionDfen_ = std::move(dfen);
    eventsSinceDecision_.clear();
    spdlog::info("rules now {}", rules_->describe());
}

void Engine::onNewGame() {
    waitForJobThreads();
    searcher().clearHash();
    rng_ = settings_.seed;
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
        const std::string where =
            "position: event " + std::to_string(i + 1) + " " + text::quoted(token);
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
    waitForJobThreads();
    pos_ = pos;
    decisionDfen_ = std::move(dfen);
    eventsSinceDecision_ = std::move(since);
    generateTablesFor();
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
    if (pos_.phase() == Phase::Roll) {
        out_.error(
            "go: the roll of the combat cell is due (RaysOfDeath), not a decision: send it with "
            "position ... moves ray:<cell>");
        out_.line("bestmove none");
        return;
    }
    if (settings_.player) {
        goWithoutSearch(*settings_.player);
        return;
    }
    if (pos_.phase() == Phase::Setup && settings_.randomSetup) {
        goWithoutSearch(search::Baseline::Random);
        return;
    }
    search::Limits limits;
    limits.depth = cmd.depth.value_or(0);
    limits.nodes = cmd.nodes.value_or(0);
    limits.movetimeMs = cmd.movetimeMs.value_or(0);
    limits.timeMs = {cmd.time1Ms.value_or(-1), cmd.time2Ms.value_or(-1)};
    limits.incMs = {cmd.inc1Ms.value_or(0), cmd.inc2Ms.value_or(0)};
    limits.infinite = cmd.infinite || !cmd.hasLimit();
    if (settings_.endingsAgainst && search::EndingPlayer::applies(pos_)) {
        // A solution takes seconds and the go's deadline ends it as a stop does; an ending
        // already solved answers at once, without a clock.
        const search::Baseline against = *settings_.endingsAgainst;
        const search::TimePlan plan = search::planTime(limits, pos_.decider());
        goEnding(against, endings_.solvedFor(pos_, against) ? 0 : plan.hardMs, plan.untilStopped);
        return;
    }

    search::Searcher& s = searcher();
    s.wait();
    s.setPlay(settings_.play);
    refreshTables();
    startJob(Job::Search);
    const bool showMultipv = settings_.search.multiPv > 1;
    auto onInfo = [this, showMultipv](const search::Info& info) {
        lastInfo_ = info;
        const InfoStats stats{info.depth,
                              info.seldepth,
                              info.timeMs,
                              info.nodes,
                              info.nps,
                              info.hashfull,
                              showMultipv ? info.multipv : 0};
        try {
            out_.line(infoLine(stats, info.line, &pos_));
        } catch (const std::exception& e) {  // a progress line can be missed, not the search
            spdlog::error("info line lost: {}", e.what());
        }
    };
    // Made here, where memory can be had: under an address-space limit the search's thread
    // may get none at all (not even for a line of text), and the bestmove is owed.
    const std::vector<std::string> outOfMemory{errorLine("go: out of memory"), "bestmove none"};
    auto onDone = [this, showMultipv, outOfMemory](const search::Report& report) {
        if (report.outOfMemory) return finishJob(outOfMemory);
        std::vector<std::string> closing;
        try {
            std::vector<search::Line> lines = report.lines;
            if (lines.empty() && !report.best.isNone())
                lines.push_back(staticLine(pos_, report.best, searcher_.tunables()));
            if (!report.best.isNone() && !pos_.isLegal(report.best))
                spdlog::error("search returned an illegal bestmove {}", report.best.token());
            const std::int64_t time = report.timeMs;
            const std::uint64_t nps =
                report.nodes * 1000 / static_cast<std::uint64_t>(time > 0 ? time : 1);
            for (std::size_t k = 0; k < lines.size(); ++k) {
                const InfoStats stats{report.depth,
                                      std::max(lastInfo_.seldepth, report.depth),
                                      time,
                                      report.nodes,
                                      nps,
                                      lastInfo_.hashfull,
                                      showMultipv ? static_cast<int>(k) + 1 : 0};
                closing.push_back(infoLine(stats, lines[k], &pos_));
            }
        } catch (const std::exception& e) {  // the bestmove is owed whatever happens
            spdlog::error("final info lines lost: {}", e.what());
        }
        try {
            closing.push_back("bestmove " + pos_.token(report.best));
        } catch (const std::bad_alloc&) {
            return finishJob(outOfMemory);
        }
        finishJob(closing);
    };
    try {
        s.start(pos_, limits, std::move(onInfo), std::move(onDone));
    } catch (...) {
        finishJob({});  // no search: failed() answers the bestmove
        throw;
    }
}

void Engine::goWithoutSearch(search::Baseline baseline) {
    const auto t0 = std::chrono::steady_clock::now();
    const Event decision = search::baselineDecision(baseline, pos_, rng_);
    const search::Line line = staticLine(pos_, decision, searcher_.tunables());
    const auto time =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    const InfoStats stats{1, 1, time, 1, static_cast<std::uint64_t>(1000 / (time > 0 ? time : 1)),
                          0, 0};
    out_.lines({infoLine(stats, line, &pos_), "bestmove " + pos_.token(decision)});
}

namespace {

// Sets a flag once `ms` milliseconds have passed (none for 0), on a thread of its own that
// the destructor ends at once.
class Deadline {
  public:
    Deadline(std::int64_t ms, std::atomic<bool>& flag) {
        if (ms > 0)
            clock_ = std::jthread([this, ms, &flag](std::stop_token done) { run(ms, flag, done); });
    }
    [[nodiscard]] const std::atomic<bool>& passed() const { return passed_; }

  private:
    void run(std::int64_t ms, std::atomic<bool>& flag, const std::stop_token& done) {
        std::mutex m;
        std::condition_variable_any cv;
        std::unique_lock lock(m);
        (void)cv.wait_for(lock, done, std::chrono::milliseconds(ms), [] { return false; });
        if (done.stop_requested()) return;
        passed_ = true;
        flag = true;
    }

    std::atomic<bool> passed_{false};
    std::jthread clock_;  // last: joined before passed_ goes
};

// Returns once `stop` is asked for.
void waitForStop(const std::stop_token& stop) {
    std::mutex m;
    std::condition_variable_any cv;
    std::unique_lock lock(m);
    (void)cv.wait(lock, stop, [] { return false; });
}

}  // namespace

std::optional<search::EndingDecision> Engine::solveEnding(const Position& pos,
                                                          search::Baseline against,
                                                          const std::atomic<bool>& cancel,
                                                          const std::atomic<bool>& late,
                                                          std::vector<std::string>& out) {
    try {
        return endings_.decide(pos, against, &cancel);
    } catch (const tables::Cancelled&) {
        out.push_back(late ? "info string ending not solved: out of time"
                           : "info string ending not solved: stopped");
    } catch (const std::exception& e) {
        spdlog::error("ending not solved: {}", e.what());
        out.push_back(errorLine(std::string("go: ending not solved: ") + e.what()));
    }
    return std::nullopt;
}

void Engine::goEnding(search::Baseline against, std::int64_t deadlineMs, bool untilStopped) {
    std::uint64_t rng = rng_;  // the fallback's own copy: rng_ is the input thread's
    startWorker(Job::Search, [this, pos = pos_, against, rng, deadlineMs,
                              untilStopped](std::stop_token stop) mutable {
        const auto t0 = std::chrono::steady_clock::now();
        std::atomic<bool> cancel{false};
        const std::stop_callback onStop(stop, [&cancel] { cancel = true; });
        const Deadline deadline(deadlineMs, cancel);
        std::vector<std::string> out;
        const std::optional<search::EndingDecision> d =
            solveEnding(pos, against, cancel, deadline.passed(), out);
        search::Line line;
        if (d) {
            line.move = d->best;
            line.pv = {d->best};
            line.value = d->value;
            line.exact = true;
            // The value is W - L; what share of the rest is drawn the solution does not
            // say: all of it, as the least decisive reading.
            line.wdl = eval::wdlFromDrawShare(d->value, 1);
        } else {
            // Stopped (or failed) before the solution: greedy's decision, at once.
            line = staticLine(pos, search::baselineDecision(search::Baseline::Greedy, pos, rng),
                              searcher_.tunables());
        }
        const auto time = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::steady_clock::now() - t0)
                              .count();
        const InfoStats stats{1, 1, time, 1, 0, 0, 0};
        out.push_back(infoLine(stats, line, &pos));
        if (untilStopped) {
            // `go infinite` (or a go without limits) answers only when told to stop, as
            // the search does (PROTOCOL.md): the solution's lines now, the bestmove then.
            out_.lines(out);
            out.clear();
            waitForStop(stop);
        }
        out.push_back("bestmove " + pos.token(line.move));
        return out;
    });
}

void Engine::onGoPerft(const GoPerft& cmd) {
    startWorker(Job::Perft, [this, pos = pos_, depth = cmd.depth](std::stop_token stop) {
        std::uint64_t total = depth == 0 ? 1 : 0;
        int rows = 0;
        const bool complete = perftDivide(pos, depth, stop, [&](Event first, std::uint64_t n) {
            out_.line(pos.token(first) + ": " + std::to_string(n));
            total += n;
            ++rows;
        });
        if (!complete)
            return std::vector<std::string>{
                "info string go perft stopped: " + std::to_string(rows) + " of " +
                std::to_string(pos.countEvents()) + " first events counted, no total"};
        return std::vector<std::string>{"", "Nodes searched: " + std::to_string(total)};
    });
}

void Engine::onStop() {
    stopJob();
    // The next command is read only after the job's closing lines are out (PROTOCOL.md
    // `stop`).
    waitForJob();
}

void Engine::onDisplay() {
    std::vector<std::string> lines = boardPicture(pos_);
    std::string where = "dfen " + decisionDfen_;
    if (!eventsSinceDecision_.empty()) where += " moves " + join(eventsSinceDecision_);
    lines.push_back(where);
    lines.push_back("rules " + rules_->describe());
    if (rules_->fromCreatureFile()) lines.push_back(creaturesText(*rules_));
    if (rules_->raysOfDeath()) lines.push_back(raysText(pos_));
    lines.push_back("due " + dueText(pos_));
    const std::string legal = legalEventsText(pos_);
    lines.push_back("legal " + (legal.empty() ? std::string("none") : legal));
    char key[32];
    std::snprintf(key, sizeof key, "key %016llx", static_cast<unsigned long long>(pos_.key()));
    lines.emplace_back(key);
    refreshTables();
    lines.push_back(tableLine(tables_.get(), pos_));
    out_.lines(lines);
}

void Engine::onEval() {
    if (pos_.isOver()) {
        out_.error("eval: the game is over (" + resultText(pos_) + ")");
        return;
    }
    if (pos_.phase() == Phase::Setup) {
        // The evaluator judges boards; before the set-ups only a search weighs them.
        out_.error("eval: a set-up is pending (RULES §15): go searches the arrangements");
        return;
    }
    const eval::Tunables& tunables = searcher_.tunables();
    const eval::Breakdown b = eval::explain(pos_, tunables);
    std::vector<std::string> lines;
    lines.emplace_back("term                  player 1  player 2      diff  note");
    for (const auto& t : b.terms) {
        char name[64];
        std::snprintf(name, sizeof name, "%-18.18s", t.name.c_str());
        lines.push_back(std::string(name) + fixedWidth(t.player1) + fixedWidth(t.player2) +
                        fixedWidth(t.player1 - t.player2) + (t.note.empty() ? "" : "  " + t.note));
    }
    refreshTables();
    lines.push_back(tableLine(tables_.get(), pos_));
    // The tables give one value; its win/draw/loss split is derived as the search's is.
    if (const auto v = tables_ ? tables_->probe(pos_) : std::nullopt) {
        const auto t = eval::wdl(pos_, *v, tunables, eval::Certainty::Exact);
        lines.push_back("table wdl " + std::to_string(t[0]) + " " + std::to_string(t[1]) + " " +
                        std::to_string(t[2]) + " for player 1");
    }
    const auto wdl = eval::wdl(pos_, b.value, tunables);
    lines.push_back("raw " + signedFixed(b.raw, 3) + " for player 1");
    lines.push_back("eval " + signedFixed(b.value, 3) + " for player 1 (ev " +
                    std::to_string(wdl[0] - wdl[2]) + " wdl " + std::to_string(wdl[0]) + " " +
                    std::to_string(wdl[1]) + " " + std::to_string(wdl[2]) + ")");
    out_.lines(lines);
}

void Engine::onOdds(const Odds& cmd) {
    if (pos_.rules().courtier()) {
        out_.error("no attacks in Courtier");
        return;
    }
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
    } else if (pos_.phase() == Phase::Roll) {
        if (cmd.attack) {
            out_.error("odds: the roll of the combat cell is due, not an attack");
            return;
        }
        out_.line(rollOddsLine(pos_));
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
    const int depth = cmd.depth.value_or(search::kBenchDepth);
    startWorker(Job::Bench, [this, depth](std::stop_token stop) {
        const auto result = search::runBench(
            depth,
            [this](const std::string& progress) {
                out_.line("info string " + text::printable(progress));
            },
            stop);
        if (result.stopped)
            return std::vector<std::string>{
                "info string bench stopped: " + std::to_string(result.positions) + " of " +
                std::to_string(search::benchPositions().size()) +
                " positions searched, no signature"};
        return std::vector<std::string>{"bench nodes " + std::to_string(result.nodes) + " nps " +
                                        std::to_string(result.nps) + " time " +
                                        std::to_string(result.timeMs)};
    });
}

}  // namespace dejarik::protocol
