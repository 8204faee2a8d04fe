#include "engine.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "baselines.h"
#include "number.h"
#include "text.h"

namespace dejarik::arena {

namespace {

std::string lower(std::string s) {
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix &&
           (s.size() == prefix.size() || s[prefix.size()] == ' ');
}

// Reads the fields the arena records from an `info` line; false when it has no score.
bool parseInfo(const std::string& line, DecisionInfo& info) {
    const auto w = splitWords(line);
    DecisionInfo parsed;
    bool scored = false;
    for (std::size_t i = 1; i < w.size(); ++i) {
        if (w[i] == "pv" || w[i] == "string") break;
        if (w[i] == "depth" && i + 1 < w.size()) {
            parsed.depth = parseNumber<int>(w[++i]);
        } else if (w[i] == "nodes" && i + 1 < w.size()) {
            parsed.nodes = parseNumber<std::uint64_t>(w[++i]);
        } else if (w[i] == "score" && i + 2 < w.size() && w[i + 1] == "ev") {
            parsed.ev = parseNumber<int>(w[i + 2]);
            scored = parsed.ev.has_value();
            i += 2;
            if (i + 4 < w.size() && w[i + 1] == "wdl") {
                const auto a = parseNumber<int>(w[i + 2]), b = parseNumber<int>(w[i + 3]),
                           c = parseNumber<int>(w[i + 4]);
                if (a && b && c) parsed.wdl = std::array<int, 3>{*a, *b, *c};
                i += 4;
            }
        }
    }
    if (scored) info = parsed;
    return scored;
}

}  // namespace

std::string goCommand(const DecisionRequest& r) {
    const TimeControl& c = r.control;
    std::string go = "go";
    if (c.depth > 0) go += " depth " + std::to_string(c.depth);
    if (c.nodes > 0) go += " nodes " + std::to_string(c.nodes);
    if (c.movetimeMs > 0) go += " movetime " + std::to_string(c.movetimeMs);
    if (c.baseMs >= 0) {
        for (int p = 0; p < 2; ++p) {
            if (!r.clockMs[p]) continue;
            // An engine a little over its time (within the margin) still gets a valid clock:
            // without one, `go` would mean a search until stopped.
            go += " time" + std::to_string(p + 1) + " " +
                  std::to_string(std::max<std::int64_t>(*r.clockMs[p], 1));
            if (r.incMs[p] > 0)
                go += " inc" + std::to_string(p + 1) + " " + std::to_string(r.incMs[p]);
        }
    }
    return go;
}

namespace {

std::int64_t millisecondsSince(Clock::time_point t0) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
}

}  // namespace

std::optional<std::string> EngineSpec::apply(const std::vector<std::string>& items) {
    for (const auto& item : items) {
        const auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0)
            return "engine setting '" + item + "' is not of the form key=value";
        const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
        if (key == "name") {
            // A name ends the line it stands on in the results file and names the engine
            // in the records' tags: a control character would cut it, bytes of no UTF-8
            // character would make the files no text.
            if (!text::isPrintable(value))
                return "name " + text::quoted(value) +
                       " holds a control character or a byte of no UTF-8 character";
            name = value;
        } else if (key == "cmd") {
            cmd = value;
        } else if (key == "arg") {
            args.push_back(value);
        } else if (key == "dir") {
            workdir = value;
        } else if (key == "stderr") {
            stderrPath = value;
        } else if (key == "builtin") {
            builtin = value;
        } else if (key == "seed") {
            const auto s = parseNumber<std::uint64_t>(value);
            if (!s) return "seed: expected a non-negative integer, got '" + value + "'";
            builtinSeed = *s;
        } else if (key.rfind("option.", 0) == 0 && key.size() > 7) {
            const std::string option = key.substr(7);
            const auto same = [&](const auto& o) { return lower(o.first) == lower(option); };
            options.erase(std::remove_if(options.begin(), options.end(), same), options.end());
            options.emplace_back(option, value);
        } else if (TimeControl::isKey(key)) {
            if (auto e = control.set(key, value)) return *e;
        } else {
            return "unknown engine setting '" + key +
                   "' (name, cmd, arg, dir, stderr, option.NAME, depth, nodes, movetime, tc, "
                   "builtin, seed)";
        }
    }
    return std::nullopt;
}

std::optional<std::string> EngineSpec::finish(bool needsLimit) {
    if (!builtin.empty()) {
        if (!search::parseBaseline(builtin)) return "builtin: " + search::notABaseline(builtin);
        if (!cmd.empty()) return "an engine has either cmd= or builtin=, not both";
        if (name.empty()) name = builtin;
        return std::nullopt;
    }
    if (cmd.empty()) return "an engine needs cmd=PATH (or builtin=random|greedy|cautious)";
    if (name.empty()) {
        const auto slash = cmd.find_last_of('/');
        name = slash == std::string::npos ? cmd : cmd.substr(slash + 1);
    }
    if (needsLimit && !control.any())
        return "engine " + name + " has no search limit (depth=, nodes=, movetime= or tc=)";
    return std::nullopt;
}

std::string EngineSpec::describe() const {
    std::string s = "name=" + name;
    if (!builtin.empty()) return s + " builtin=" + builtin + " seed=" + std::to_string(builtinSeed);
    s += " cmd=" + cmd;
    for (const auto& a : args)
        s += " arg=" + a;
    for (const auto& [key, value] : options)
        s += " option." + key + "=" + value;
    return s + " " + control.str();
}

std::vector<std::string> EngineSpec::argv() const {
    std::vector<std::string> v{cmd};
    v.insert(v.end(), args.begin(), args.end());
    return v;
}

EngineSeat::EngineSeat(EngineSpec spec,
                       std::vector<std::pair<std::string, std::string>> ruleOptions,
                       EngineTimeouts timeouts, std::shared_ptr<spdlog::logger> log,
                       const std::atomic<bool>* interrupt)
    : spec_(std::move(spec)),
      ruleOptions_(std::move(ruleOptions)),
      timeouts_(timeouts),
      log_(std::move(log)),
      interrupt_(interrupt) {}

EngineSeat::~EngineSeat() {
    shutdown();
}

bool EngineSeat::send(const std::string& line) {
    log_->debug("{} < {}", spec_.name, line);
    return process_ && process_->send(line);
}

ChildProcess::ReadStatus EngineSeat::readLine(std::string& line, Clock::time_point deadline) {
    const auto status = process_->readLine(line, deadline, interrupt_);
    if (status == ChildProcess::ReadStatus::Line && line.ends_with('\r')) line.pop_back();
    return status;
}

void EngineSeat::logLine(const std::string& line) {
    if (startsWith(line, "info")) {
        if (line.find("error") != std::string::npos) {
            log_->warn("{}: {}", spec_.name, line);
        } else {
            log_->debug("{} > {}", spec_.name, line);
        }
    } else {
        // As UCI managers do: an unknown line is noted and otherwise ignored.
        log_->info("{}: ignoring unexpected output '{}'", spec_.name, line);
    }
}

Reply EngineSeat::crashed(const std::string& doing) {
    Reply r;
    r.fault = SeatFault::Crash;
    std::string how = process_ ? process_->kill().describe() : std::string("not running");
    r.detail = "engine ended while " + doing + " (" + how + ")";
    log_->warn("{}: {}", spec_.name, r.detail);
    process_.reset();
    return r;
}

std::optional<Reply> EngineSeat::readHandshakeLine(std::string& line, Clock::time_point deadline,
                                                   const std::string& doing,
                                                   const std::string& awaited) {
    switch (readLine(line, deadline)) {
        case ChildProcess::ReadStatus::Line:
            return std::nullopt;
        case ChildProcess::ReadStatus::Closed:
            return crashed(doing);
        case ChildProcess::ReadStatus::Timeout:
            process_->kill();
            process_.reset();
            return Reply{
                SeatFault::Timeout,
                "",
                {},
                "no " + awaited + " within " + std::to_string(timeouts_.start.count()) + " ms"};
        case ChildProcess::ReadStatus::Interrupted:
            return Reply{SeatFault::Interrupted, "", {}, "interrupted"};
    }
    return std::nullopt;
}

Reply EngineSeat::start() {
    ++starts_;
    std::string error;
    ChildProcess::Spec child;
    child.argv = spec_.argv();
    child.workdir = spec_.workdir;
    child.stderrTo = spec_.stderrPath.empty() ? ChildProcess::Stderr::Discard
                                              : ChildProcess::Stderr::AppendToFile;
    child.stderrPath = spec_.stderrPath;
    process_ = ChildProcess::spawn(child, error);
    if (!process_) {
        log_->warn("{}: {}", spec_.name, error);
        return {SeatFault::Crash, "", {}, error};
    }
    log_->debug("{}: started (pid {}, start {})", spec_.name, process_->pid(), starts_);
    if (!send("dei")) return crashed("starting");
    const auto deadline = Clock::now() + timeouts_.start;
    std::string line;
    while (true) {
        if (auto fault = readHandshakeLine(line, deadline, "starting", "deiok")) return *fault;
        if (line == "deiok") break;
        if (startsWith(line, "option")) {
            // option name <id, may have spaces> type ...
            const auto w = splitWords(line);
            std::string optionName;
            for (std::size_t i = 2; i < w.size() && w[i] != "type"; ++i)
                optionName += (optionName.empty() ? "" : " ") + w[i];
            announcedOptions_.insert(lower(optionName));
            log_->debug("{} > {}", spec_.name, line);
        } else if (startsWith(line, "id")) {
            log_->debug("{} > {}", spec_.name, line);
        } else {
            logLine(line);
        }
    }
    for (const auto& list : {ruleOptions_, spec_.options}) {
        for (const auto& [key, value] : list) {
            if (!announcedOptions_.contains(lower(key)))
                log_->warn("{}: the engine did not announce option '{}'", spec_.name, key);
            if (!send("setoption name " + key + " value " + value)) return crashed("starting");
        }
    }
    return waitReady();
}

Reply EngineSeat::waitReady() {
    if (!send("isready")) return crashed("getting ready");
    const auto deadline = Clock::now() + timeouts_.start;
    std::string line;
    while (true) {
        if (auto fault = readHandshakeLine(line, deadline, "getting ready", "readyok"))
            return *fault;
        if (line == "readyok") return {};
        logLine(line);
    }
}

Reply EngineSeat::prepare() {
    if (process_) {
        if (auto how = process_->exited()) {
            log_->warn("{}: engine ended between games ({}), restarting", spec_.name,
                       how->describe());
            process_.reset();
        }
    }
    if (!process_) {
        Reply r = start();
        if (r.fault != SeatFault::None) return r;
    }
    if (!send("newgame")) return crashed("starting a game");
    return waitReady();
}

Reply EngineSeat::decide(const DecisionRequest& request) {
    if (!process_) return {SeatFault::Crash, "", {}, "engine not running"};
    std::string position = "position dfen " + request.deal;
    if (!request.moves.empty()) {
        position += " moves";
        for (const auto& m : request.moves)
            position += " " + m;
    }
    if (!send(position)) return crashed("receiving the position");
    const auto t0 = Clock::now();
    if (!send(goCommand(request))) return crashed("receiving go");

    DecisionInfo info;
    bool stopped = false;
    auto deadline = t0 + request.wait;
    std::string line;
    while (true) {
        switch (readLine(line, deadline)) {
            case ChildProcess::ReadStatus::Line:
                break;
            case ChildProcess::ReadStatus::Closed:
                return crashed("searching");
            case ChildProcess::ReadStatus::Timeout:
                if (!stopped) {
                    stopped = true;
                    if (!send("stop")) return crashed("being stopped");
                    deadline = Clock::now() + timeouts_.stopGrace;
                    continue;
                }
                return {SeatFault::Timeout, "", info,
                        "no bestmove within " + std::to_string(request.wait.count()) +
                            " ms, none " + std::to_string(timeouts_.stopGrace.count()) +
                            " ms after stop"};
            case ChildProcess::ReadStatus::Interrupted:
                (void)send("stop");
                return {SeatFault::Interrupted, "", info, "interrupted"};
        }
        if (startsWith(line, "bestmove")) {
            log_->debug("{} > {}", spec_.name, line);
            info.elapsedMs = millisecondsSince(t0);
            const auto w = splitWords(line);
            const std::string token = w.size() > 1 ? w[1] : "";
            if (stopped)
                return {SeatFault::Timeout, token, info,
                        "no bestmove within " + std::to_string(request.wait.count()) +
                            " ms (it came " + std::to_string(info.elapsedMs) + " ms after go)"};
            return {SeatFault::None, token == "none" ? "" : token, info, ""};
        }
        if (startsWith(line, "info") && !startsWith(line, "info string")) {
            if (!parseInfo(line, info)) log_->debug("{} > {}", spec_.name, line);
            continue;
        }
        logLine(line);
    }
}

void EngineSeat::recover() {
    if (!process_) return;
    const std::string how = process_->kill().describe();
    log_->info("{}: engine ended after a fault ({}); it restarts for the next game", spec_.name,
               how);
    process_.reset();
}

void EngineSeat::shutdown() {
    if (!process_) return;
    (void)send("stop");
    (void)send("quit");
    const std::string how = process_->stop(timeouts_.quitGrace).describe();
    log_->debug("{}: engine ended ({})", spec_.name, how);
    process_.reset();
}

std::optional<std::vector<std::string>> EngineSeat::converse(
    const std::vector<std::string>& commands, std::chrono::milliseconds wait) {
    if (!process_ && start().fault != SeatFault::None) return std::nullopt;
    for (const auto& c : commands)
        if (!send(c)) return std::nullopt;
    if (!send("isready")) return std::nullopt;
    std::vector<std::string> lines;
    const auto deadline = Clock::now() + wait;
    std::string line;
    while (readLine(line, deadline) == ChildProcess::ReadStatus::Line) {
        if (line == "readyok") return lines;
        lines.push_back(line);
    }
    return std::nullopt;
}

BuiltinSeat::BuiltinSeat(std::string name, std::string kind, std::uint64_t seed)
    : name_(std::move(name)),
      player_(search::parseBaseline(kind).value_or(search::Baseline::Random)),
      seed_(seed) {}

Reply BuiltinSeat::decide(const DecisionRequest& request) {
    // The turn and quiet counters are not in the key; mixing them in keeps a repeated
    // position from repeating its choice forever.
    const Position& pos = request.position;
    std::uint64_t rng =
        mixKey(mixKey(mixKey(seed_, pos.key()), pos.turn()), pos.quiet() * 4 + pos.actionsLeft());
    const Event e = search::baselineDecision(player_, pos, rng);
    Reply r;
    r.token = e.isNone() ? "" : pos.token(e);
    return r;
}

std::unique_ptr<Seat> makeSeat(const EngineSpec& spec,
                               const std::vector<std::pair<std::string, std::string>>& ruleOptions,
                               const EngineTimeouts& timeouts,
                               const std::shared_ptr<spdlog::logger>& log,
                               const std::atomic<bool>* interrupt) {
    if (!spec.builtin.empty())
        return std::make_unique<BuiltinSeat>(spec.name, spec.builtin, spec.builtinSeed);
    return std::make_unique<EngineSeat>(spec, ruleOptions, timeouts, log, interrupt);
}

}  // namespace dejarik::arena
