// The DEI engine: the state behind the protocol loop (settings, rules, position, searcher)
// and one handler per command.
//
// Threads: handle() runs on the input thread. The commands that may take long run as jobs
// on a thread of their own, so that the input thread goes on reading `isready`, `stop` and
// `quit` meanwhile: a search on the Searcher's thread, `go perft` and `bench` on worker_.
// While a job runs every other command is refused, so the position, the rules and the
// settings stay as the job read them. A job ends with its closing lines (the final info and
// bestmove, the perft total, the bench summary), printed in one block with the job marked
// finished, so that a command the GUI sends on reading them is accepted.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "command.h"
#include "endgame.h"
#include "endings.h"
#include "options.h"
#include "output.h"
#include "position.h"
#include "rules.h"
#include "search.h"

namespace dejarik::protocol {

class Engine {
  public:
    explicit Engine(Output& out);
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // Handles one input line. Returns false once the engine should exit (`quit`). Never
    // throws: a command that fails (out of memory, no thread to be had) is answered with an
    // error line and whatever else it owes the GUI (`readyok`, `bestmove none`).
    [[nodiscard]] bool handle(std::string_view line);

    // Ends a running job (a search still prints its bestmove) and waits for it: for `quit`
    // and the end of input.
    void shutdown();

  private:
    enum class Job : std::uint8_t { None, Search, Perft, Bench };
    // A job's work on worker_: returns its closing lines.
    using Work = std::function<std::vector<std::string>(std::stop_token)>;

    // The command's handler; false for `quit`.
    [[nodiscard]] bool dispatch(const Command& command);
    // After a handler threw: the error line and what the command still owes the GUI.
    void failed(std::string_view line, const Command& command, const std::string& reason);

    void onDei();
    void onIsReady();
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

    void goWithoutSearch(search::Baseline baseline);
    // EndingsAgainst: the exact decision of a small ending against the baseline, on worker_;
    // a solution still running at `deadlineMs` after the go (0: none) is given up as at a stop.
    // `untilStopped` (go infinite, or no limit): the bestmove waits for stop.
    void goEnding(search::Baseline against, std::int64_t deadlineMs, bool untilStopped);
    // goEnding's solution: the decision, or nothing and the line that says why (`late`: the
    // deadline cancelled it).
    std::optional<search::EndingDecision> solveEnding(const Position& pos, search::Baseline against,
                                                      const std::atomic<bool>& cancel,
                                                      const std::atomic<bool>& late,
                                                      std::vector<std::string>& out);
    // Opens the endgame tables again when the settings or the rules changed since (an error
    // line when the folder cannot be read) and hands them to the searcher. Not while a job
    // runs.
    void refreshTables();
    // TableGen: starts making the sets the position needs, if it is on and none is running.
    void generateTablesFor();
    // Rules built from `options`, with their startpos in place of the position.
    void adoptRules(const RuleOptions& options);

    // As messages name it: "a search", "go perft", "bench" (in Job order).
    [[nodiscard]] static const char* jobName(Job job);
    [[nodiscard]] Job job();
    void startJob(Job job);
    // Prints the closing lines with the job marked finished.
    void finishJob(const std::vector<std::string>& lines);
    void startWorker(Job job, Work work);
    // Asks the running job, if any, to end.
    void stopJob();
    // Returns once the job, if any, has printed its closing lines.
    void waitForJob();
    // Returns once no job thread reads the position or the rules any more.
    void waitForJobThreads();

    // The searcher sized to the settings. Throws when its table cannot be had; the next call
    // tries again.
    [[nodiscard]] search::Searcher& searcher();
    // Gives the searcher these options; throws (and nothing changes) when the table cannot be
    // had.
    void sizeSearcher(const search::Options& options);

    Output& out_;

    Settings settings_;
    // Positions hold a pointer to their Rules: rules_ is replaced only when no job runs, and
    // pos_ is rebuilt against the new rules before the old ones go.
    std::unique_ptr<const Rules> rules_;
    Position pos_;
    // For `d`: the DFEN of the last decision point and the events played since.
    std::string decisionDfen_;
    std::vector<std::string> eventsSinceDecision_;
    std::uint64_t rng_ = 0;  // the baseline players' state, restarted by Seed and newgame

    // The running job, shared with its thread.
    std::mutex jobMutex_;
    std::condition_variable jobEnded_;
    Job job_ = Job::None;
    search::Info lastInfo_;  // the running search's last progress, for its closing lines

    // The table is allocated by the first command that needs it, at the size the options
    // ask then: `deiok` comes at once, and a Hash set before costs one allocation only.
    bool searcherSized_ = false;
    // The endgame tables of rules_ (null: off or unreadable), opened again by refreshTables()
    // once tablesStale_ says the settings or the rules changed.
    std::shared_ptr<tables::Tablebase> tables_;
    bool tablesStale_ = true;
    TableGenerator generator_;
    // Last: destroyed first, so that their destructors stop and join the job threads while
    // everything the jobs touch still exists.
    search::Searcher searcher_;
    // The small endings solved against EndingsAgainst's baseline: used on worker_ only, so
    // declared before it (worker_ joins first).
    search::EndingPlayer endings_;
    std::jthread worker_;
};

}  // namespace dejarik::protocol
