#include "engine_link.h"

#include <spdlog/spdlog.h>

#include <charconv>

#include "game.h"

namespace dejarik::gui {

namespace {

using process::ChildProcess;
using process::Clock;

template <typename T>
bool number(const std::string& s, T& out) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

std::optional<InfoLine> parseInfoLine(std::string_view line) {
    const auto w = arena::splitWords(line);
    if (w.empty() || w[0] != "info") return std::nullopt;
    InfoLine info;
    bool scored = false;
    for (std::size_t i = 1; i < w.size(); ++i) {
        const std::string& key = w[i];
        const bool hasValue = i + 1 < w.size();
        if (key == "string") return std::nullopt;
        if (key == "pv") {
            info.pv.assign(w.begin() + static_cast<std::ptrdiff_t>(i) + 1, w.end());
            break;
        }
        if (key == "score" && i + 2 < w.size() && w[i + 1] == "ev") {
            if (!number(w[i + 2], info.ev)) return std::nullopt;
            scored = true;
            i += 2;
            if (i + 3 < w.size() && w[i + 1] == "wdl") {
                std::array<int, 3> t{};
                for (int k = 0; k < 3; ++k)
                    if (!number(w[i + 2 + static_cast<std::size_t>(k)],
                                t[static_cast<std::size_t>(k)]))
                        return std::nullopt;
                info.wdl = t;
                i += 4;
            }
            if (i + 1 < w.size() && w[i + 1] == "exact") {
                info.exact = true;
                ++i;
            }
            continue;
        }
        if (!hasValue) continue;
        if (key == "multipv") {
            if (!number(w[i + 1], info.multipv) || info.multipv < 1) return std::nullopt;
        } else if (key == "depth") {
            if (!number(w[i + 1], info.depth)) return std::nullopt;
        } else if (key == "nodes") {
            if (!number(w[i + 1], info.nodes)) return std::nullopt;
        } else if (key == "time") {
            if (!number(w[i + 1], info.timeMs)) return std::nullopt;
        }
        // Other keys (seldepth, nps, hashfull) carry one value each: skip it.
        ++i;
    }
    if (!scored) return std::nullopt;
    return info;
}

std::vector<std::pair<std::string, std::string>> ruleOptionPairs(const Rules& rules) {
    const auto w = arena::splitWords(rules.describe());
    std::vector<std::pair<std::string, std::string>> out;
    if (w.empty()) return out;
    out.emplace_back("Ruleset", w[0]);
    for (std::size_t i = 1; i < w.size(); ++i) {
        const auto eq = w[i].find('=');
        if (eq != std::string::npos) out.emplace_back(w[i].substr(0, eq), w[i].substr(eq + 1));
    }
    return out;
}

EngineLink::EngineLink(std::string path, EngineTimeouts timeouts,
                       std::shared_ptr<spdlog::logger> log, const std::atomic<bool>* interrupt)
    : path_(std::move(path)), timeouts_(timeouts), log_(std::move(log)), interrupt_(interrupt) {}

EngineLink::~EngineLink() {
    quit();
}

bool EngineLink::send(const std::string& line) {
    log_->debug("engine < {}", line);
    return process_ && process_->send(line);
}

void EngineLink::kill() {
    if (!process_) return;
    const auto how = process_->kill();
    log_->info("engine {} ended ({})", process_->pid(), how.describe());
    process_.reset();
}

bool EngineLink::waitFor(const std::string& awaited) {
    const auto deadline = Clock::now() + timeouts_.start;
    std::string line;
    while (process_) {
        // The handshake is short: it is not cut short by the page, only by its deadline.
        switch (process_->readLine(line, deadline)) {
            case ChildProcess::ReadStatus::Line:
                if (line == awaited) return true;
                log_->debug("engine > {}", line);
                continue;
            case ChildProcess::ReadStatus::Closed:
            case ChildProcess::ReadStatus::Timeout:
            case ChildProcess::ReadStatus::Interrupted:
                log_->warn("engine: no {} within {} ms", awaited, timeouts_.start.count());
                kill();
                return false;
        }
    }
    return false;
}

std::optional<std::string> EngineLink::start(const Rules& rules) {
    quit();
    std::string error;
    process::ChildProcess::Spec spec;
    spec.argv = {path_};
    process_ = ChildProcess::spawn(spec, error);
    if (!process_) return "cannot start the engine '" + path_ + "': " + error;
    log_->info("engine {} started", process_->pid());
    if (!send("dei") || !waitFor("deiok")) return "the engine '" + path_ + "' did not start";
    for (const auto& [name, value] : ruleOptionPairs(rules))
        if (!send("setoption name " + name + " value " + value)) break;
    if (!send("isready") || !waitFor("readyok")) return "the engine did not take the rule options";
    return std::nullopt;
}

bool EngineLink::setOption(const std::string& name, const std::string& value) {
    return send("setoption name " + name + " value " + value) && send("isready") &&
           waitFor("readyok");
}

EngineLink::Search EngineLink::search(const std::string& deal,
                                      const std::vector<std::string>& moves, const std::string& go,
                                      std::chrono::milliseconds wait,
                                      const std::function<void(const InfoLine&)>& onInfo) {
    Search result;
    std::string position = "position dfen " + deal;
    if (!moves.empty()) position += " moves";
    for (const auto& m : moves)
        position += " " + m;
    const auto t0 = Clock::now();
    const auto crashed = [&](const char* doing) {
        result.status = Status::Crash;
        std::string how = process_ ? process_->kill().describe() : "not running";
        result.detail = std::string("the engine ended while ") + doing + " (" + how + ")";
        process_.reset();
        return result;
    };
    if (!send(position) || !send(go)) return crashed("receiving the position");

    auto deadline = t0 + wait;
    bool stopped = false;
    std::string line;
    while (true) {
        switch (process_->readLine(line, deadline, stopped ? nullptr : interrupt_)) {
            case ChildProcess::ReadStatus::Line:
                break;
            case ChildProcess::ReadStatus::Closed:
                return crashed("searching");
            case ChildProcess::ReadStatus::Interrupted:
                result.status = Status::Interrupted;
                [[fallthrough]];
            case ChildProcess::ReadStatus::Timeout:
                if (!stopped) {
                    stopped = true;
                    if (!send("stop")) return crashed("being stopped");
                    deadline = Clock::now() + timeouts_.grace;
                    continue;
                }
                result.status = Status::Stall;
                result.detail = "the engine gave no bestmove within " +
                                std::to_string(wait.count()) + " ms, nor " +
                                std::to_string(timeouts_.grace.count()) + " ms after stop";
                kill();
                return result;
        }
        if (line.ends_with('\r')) line.pop_back();
        if (line.starts_with("bestmove")) {
            log_->debug("engine > {}", line);
            const auto w = arena::splitWords(line);
            result.bestmove = w.size() > 1 && w[1] != "none" ? w[1] : "";
            result.elapsedMs =
                std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
            return result;
        }
        if (auto info = parseInfoLine(line)) {
            if (info->multipv == 1) result.last = *info;
            if (onInfo) onInfo(*info);
        } else {
            log_->debug("engine > {}", line);
        }
    }
}

void EngineLink::quit() {
    if (!process_) return;
    (void)send("stop");
    (void)send("quit");
    const auto how = process_->stop(timeouts_.grace);
    log_->info("engine {} quit ({})", process_->pid(), how.describe());
    process_.reset();
}

}  // namespace dejarik::gui
