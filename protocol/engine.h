// The DEI engine: the state behind the protocol loop (options, rules, position, searcher)
// and one handler per command.
//
// Threads: handle() runs on the input thread. A search runs on the Searcher's thread and
// answers through callbacks, which print through the same Output. While a search runs the
// position and the rules stay untouched (every command that would change them is refused),
// because the search reads both.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "position.h"
#include "protocol/command.h"
#include "protocol/output.h"
#include "rules.h"
#include "search/search.h"

namespace dejarik::protocol {

enum class PlayerKind : std::uint8_t { Search, Greedy, Random };

class Engine {
  public:
    explicit Engine(Output& out);
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // Handles one input line. Returns false once the engine should exit (`quit`).
    [[nodiscard]] bool handle(std::string_view line);

    // Ends a running search (its bestmove is still printed) and waits for it: for `quit`
    // and the end of input.
    void shutdown();

  private:
    void onDei();
    void onSetOption(const SetOption& cmd);
    void onNewGame();
    void onPosition(const SetPosition& cmd);
    void onGo(const Go& cmd);
    void onGoPerft(const GoPerft& cmd);
    void onStop();
    void onDisplay();
    void onEval();
    void onOdds(const Odds& cmd);
    void onBench(const Bench& cmd);

    void goWithoutSearch();
    void setRuleOption(std::string_view name, std::string_view value);
    [[nodiscard]] bool searching();
    void waitForBestmove();
    [[nodiscard]] search::Searcher& searcher();
    // The same, but a searcher this call builds gets no options yet: setoption applies its
    // own, so that the table is allocated once, at the size asked for.
    [[nodiscard]] search::Searcher& builtSearcher();
    // Returns once no search thread reads the position or the rules any more.
    void waitForSearchThread();

    Output& out_;

    RuleOptions ruleOptions_;
    // Positions hold a pointer to their Rules: rules_ is replaced only when no search runs,
    // and pos_ is rebuilt against the new rules before the old ones go.
    std::unique_ptr<const Rules> rules_;
    Position pos_;
    // For `d`: the DFEN of the last decision point and the events played since.
    std::string decisionDfen_;
    std::vector<std::string> eventsSinceDecision_;

    search::Options searchOptions_;
    std::uint64_t seed_ = 0;
    std::uint64_t rng_ = 0;  // the baseline players' state, restarted by Seed and newgame
    PlayerKind player_ = PlayerKind::Search;

    // The running search, shared with the search thread.
    std::mutex sessionMutex_;
    std::condition_variable sessionEnded_;
    bool searching_ = false;
    search::Info lastInfo_;

    // The searcher is built on a helper thread at startup, because allocating its hash table
    // takes longer than a GUI should wait for `deiok`; the commands that need it wait for it.
    std::future<std::unique_ptr<search::Searcher>> searcherBuild_;
    // Last: destroyed first, so its destructor stops and joins the search thread while
    // everything the callbacks touch still exists.
    std::unique_ptr<search::Searcher> searcher_;
};

}  // namespace dejarik::protocol
