// The endgame tables in the engine: opening them as the options say, the `table` line of
// `d` and `eval`, and the background generator behind TableGen (docs/tables.md, "In the
// engine").
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "options.h"
#include "position.h"
#include "rules.h"
#include "tablebase.h"

namespace dejarik::protocol {

// The folder TablePath names, or tables::defaultTablePath() when it is empty.
[[nodiscard]] std::filesystem::path tableRoot(const Settings& settings);

// The tables of `rules` from the folder the settings name: null when Tables is off, or
// null and `error` set when the folder cannot be read. A folder that does not exist yet is
// an empty table base, which TableGen may fill.
[[nodiscard]] std::shared_ptr<tables::Tablebase> openTables(const Settings& settings,
                                                            const Rules& rules, std::string* error);

// What the tables say about a position, for `d` and `eval`: "table KL v s: +0.532 for
// player 1 exact" (player 1's view; under DrawTurns N "without the quiet draw, its attack
// in 7 actions, 80 left before the draw", with ": not used" when the draw comes first),
// "table KL v s: missing", "table: none (5 creatures)", "table: off".
[[nodiscard]] std::string tableLine(const tables::Tablebase* tb, const Position& pos);

// TableGen: makes the sets a position needs (its own with 3 or 4 creatures, with 5 the
// ones a capture reaches) and the smaller sets below them, one set after the other on a
// thread of its own at a low priority (TableGenNice, 19 unless set). One generation at a time.
// Stopping finishes the set being solved (a few seconds at most; files are written whole, under a
// temporary name first) and abandons the rest.
class TableGenerator {
  public:
    using Report = std::function<void(const std::string&)>;  // one protocol line
    explicit TableGenerator(Report report) : report_(std::move(report)) {}
    // Waits for the set under way (thread_'s destructor, before report_ goes).
    ~TableGenerator() = default;
    TableGenerator(const TableGenerator&) = delete;
    TableGenerator& operator=(const TableGenerator&) = delete;

    // Starts generating what `pos` needs and `tb` lacks on a thread of nice value `nice`
    // (0 to 19); false when a generation runs or nothing is missing.
    bool startFor(const std::shared_ptr<tables::Tablebase>& tb, const Position& pos, int nice);
    // Asks the generation to stop after the set under way and returns at once: a set cannot
    // be interrupted, and at nice 19 on a loaded machine one took 52 s, all of which the
    // engine's input thread (a rule change, TableGen false) used to wait.
    void stop();
    [[nodiscard]] bool running() const { return running_.load(); }

  private:
    Report report_;
    std::atomic<bool> running_{false};
    std::jthread thread_;
};

}  // namespace dejarik::protocol
