#include "session.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <random>

#include "game.h"

namespace dejarik::gui {

namespace {

// After this many faults in a row the session stops restarting the engine on its own and
// the page offers a retry instead: an engine that cannot play would otherwise loop.
constexpr int kFaultsBeforeGivingUp = 2;

std::uint64_t freshSeed() {
    std::random_device device;
    return (static_cast<std::uint64_t>(device()) << 32 | device()) % 1000000000;
}

}  // namespace

Session::Session(SessionConfig config, Sender send, std::shared_ptr<spdlog::logger> log)
    : config_(std::move(config)),
      send_(std::move(send)),
      log_(log),
      engine_(config_.enginePath, config_.timeouts, std::move(log), &interrupt_) {}

void Session::post(std::string_view text) {
    std::string error;
    auto request = parseRequest(text, error);
    if (!request) {
        log_->info("refused a message: {}", error);
        send_(encodeError(error));
        return;
    }
    std::lock_guard lock(mutex_);
    if (closed_) return;
    queue_.push_back(std::move(*request));
    refreshInterrupt();
    wake_.notify_one();
}

void Session::close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    refreshInterrupt();
    wake_.notify_one();
}

void Session::refreshInterrupt() {
    bool any = closed_;
    for (const auto& r : queue_)
        any = any || interruptsSearch(r);
    interrupt_ = any;
}

bool Session::pending() {
    std::lock_guard lock(mutex_);
    return closed_ || !queue_.empty();
}

std::optional<Request> Session::pop() {
    std::unique_lock lock(mutex_);
    wake_.wait(lock, [this] { return closed_ || !queue_.empty(); });
    if (closed_) return std::nullopt;
    Request r = std::move(queue_.front());
    queue_.pop_front();
    refreshInterrupt();
    return r;
}

void Session::run() {
    send_(encodeHello(config_.engineName, config_.maxGames));
    GameSetup setup;
    setup.seed = freshSeed();
    std::string error;
    adopt(Referee::start(setup, error));
    while (true) {
        advance();
        const auto request = pop();
        if (!request) break;
        handle(*request);
    }
    engine_.quit();
    log_->info("session ended");
}

void Session::sendState(bool thinking) {
    View v;
    v.ply = view_;
    v.engineFailed = engineFailed_;
    v.thinking = thinking;
    v.engineName = config_.engineName;
    v.eventsFrom = pageEvents_;  // encodeState clamps it to the game
    pageEvents_ = game_->plies();
    send_(encodeState(*game_, v));
}

void Session::adopt(std::unique_ptr<Referee> game) {
    game_ = std::move(game);
    pageEvents_ = 0;
    view_ = 0;
    failures_ = 0;
    engineFailed_ = false;
    sendState();
}

bool Session::ensureEngine() {
    const std::string rules = game_->rules().describe();
    if (engine_.running() && engineRules_ == rules) return true;
    if (auto error = engine_.start(game_->rules())) {
        engineRules_.clear();
        send_(encodeNotice("engine", *error));
        return false;
    }
    engineRules_ = rules;
    return true;
}

void Session::advance() {
    while (!pending() && view_ == game_->plies()) {
        switch (game_->turn()) {
            case Turn::Dice: {
                const Position before = game_->position();
                const Roll roll = game_->roll();
                send_(encodeDice(before, roll));
                view_ = game_->plies();
                sendState();
                continue;
            }
            case Turn::Engine:
                if (engineFailed_) return;
                engineDecides();
                continue;
            case Turn::Human:
            case Turn::Over:
                return;
        }
    }
}

void Session::engineFault(const std::string& detail) {
    log_->warn("engine fault: {}", detail);
    engine_.quit();
    engineRules_.clear();
    ++failures_;
    if (failures_ >= kFaultsBeforeGivingUp) {
        engineFailed_ = true;
        send_(encodeNotice("engine", detail + "; the engine failed " + std::to_string(failures_) +
                                         " times in a row: press Retry to start it again"));
    } else {
        send_(encodeNotice("engine", detail + "; the engine is restarted"));
    }
    sendState();
}

void Session::engineDecides() {
    if (!ensureEngine()) {
        engineFault("the engine did not start");
        return;
    }
    sendState(true);
    const Player searched = game_->position().decider();
    const Strength& s = game_->setup().strength;
    const auto wait = s.depth > 0
                          ? config_.timeouts.stall
                          : std::chrono::milliseconds(s.movetimeMs) + config_.timeouts.margin;
    const auto result =
        engine_.search(game_->deal(), game_->moves(), s.goCommand(), wait,
                       [&](const InfoLine& info) { send_(encodeInfo(info, false, searched)); });
    switch (result.status) {
        case EngineLink::Status::Crash:
        case EngineLink::Status::Stall:
            engineFault(result.detail);
            return;
        case EngineLink::Status::Interrupted: {
            // A Stop means "decide now": the engine's answer to the stop is played.
            std::lock_guard lock(mutex_);
            const bool moveNow =
                !closed_ && !queue_.empty() && std::holds_alternative<StopRequest>(queue_.front());
            if (!moveNow || result.bestmove.empty()) return;
            queue_.pop_front();
            refreshInterrupt();
            break;
        }
        case EngineLink::Status::Done:
            break;
    }
    if (result.bestmove.empty()) {
        engineFault("the engine gave no decision");
        return;
    }
    arena::DecisionInfo info;
    if (result.last) {
        info.ev = result.last->ev;
        info.wdl = result.last->wdl;
        info.depth = result.last->depth;
        info.nodes = result.last->nodes;
    }
    info.elapsedMs = result.elapsedMs;
    if (auto error = game_->decide(result.bestmove, false, info.str())) {
        engineFault("the engine's decision '" + result.bestmove + "' was refused: " + *error);
        return;
    }
    failures_ = 0;
    view_ = game_->plies();
    sendState();
}

void Session::analyse(const AnalyseRequest& request) {
    const Position& pos = game_->positionAt(view_);
    if (pos.isOver() || pos.chanceDue()) {
        send_(encodeError("nothing to analyse: " +
                          std::string(pos.isOver() ? "the game is over" : "the dice are due")));
        return;
    }
    if (!ensureEngine()) return;
    if (!engine_.setOption("MultiPV", std::to_string(request.multipv))) {
        engineFault("the engine failed while setting MultiPV");
        return;
    }
    auto moves = game_->moves();
    moves.resize(view_);
    const Player searched = pos.decider();
    const auto result =
        engine_.search(game_->deal(), moves, "go movetime " + std::to_string(request.movetimeMs),
                       std::chrono::milliseconds(request.movetimeMs) + config_.timeouts.margin,
                       [&](const InfoLine& info) { send_(encodeInfo(info, true, searched)); });
    if (result.status == EngineLink::Status::Crash || result.status == EngineLink::Status::Stall) {
        engineFault(result.detail);
        return;
    }
    if (!engine_.setOption("MultiPV", "1")) {
        engineFault("the engine failed while setting MultiPV");
        return;
    }
    send_(encodeNotice("analysis", "best " + result.bestmove));
}

void Session::handle(const Request& request) {
    std::string error;
    if (const auto* r = std::get_if<NewGameRequest>(&request)) {
        GameSetup setup = r->setup;
        if (!r->seedGiven) setup.seed = freshSeed();
        auto game = Referee::start(setup, error);
        if (!game) {
            send_(encodeError(error));
            return;
        }
        adopt(std::move(game));
    } else if (const auto* p = std::get_if<PlayRequest>(&request)) {
        if (view_ != game_->plies()) {
            send_(encodeError("you are looking at an earlier position: go to the end to play"));
            return;
        }
        if (auto e = game_->decide(p->token, true)) {
            send_(encodeError(*e));
            return;
        }
        view_ = game_->plies();
        sendState();
    } else if (std::holds_alternative<UndoRequest>(request)) {
        if (!game_->undoTurn()) {
            send_(encodeError("nothing to undo: no turn of yours has begun"));
            return;
        }
        pageEvents_ = std::min(pageEvents_, game_->plies());
        view_ = game_->plies();
        sendState();
    } else if (std::holds_alternative<SaveRequest>(request)) {
        send_(encodeRecord(arena::formatRecord(game_->record(config_.engineName))));
    } else if (const auto* l = std::get_if<LoadRequest>(&request)) {
        auto game =
            Referee::fromRecord(l->text, game_->setup().human, game_->setup().strength, error);
        if (!game) {
            send_(encodeError("cannot load the record: " + error));
            return;
        }
        adopt(std::move(game));
    } else if (const auto* g = std::get_if<GotoRequest>(&request)) {
        if (g->ply > game_->plies()) {
            send_(encodeError("the game has only " + std::to_string(game_->plies()) + " events"));
            return;
        }
        view_ = g->ply;
        sendState();
    } else if (const auto* a = std::get_if<AnalyseRequest>(&request)) {
        analyse(*a);
    } else if (std::holds_alternative<RetryRequest>(request)) {
        failures_ = 0;
        engineFailed_ = false;
        sendState();
    }
    // A Stop with no search under way has nothing to stop.
}

}  // namespace dejarik::gui
