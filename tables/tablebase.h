// The endgame tables of one rule mix, opened from a directory, probed by the search.
//
// Semantics (docs/tables.md): the value of optimal play with the quiet draw left out
// (DrawTurns 0), so exact for DrawTurns 0 and an evaluation otherwise; the quiet counter
// and the turn number of a probed position are ignored, the CentreWin counters are not.
// Values are in [-1, 1]: +1 a certain win, a showdown 2p - 1, endless play 0.
//
// Thread safety: probes may run on any number of threads, also while load() or the
// generator adds sets; a set once loaded stays until the Tablebase is destroyed.
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "file.h"
#include "index.h"
#include "material.h"
#include "position.h"
#include "rules.h"

namespace dejarik::tables {

// $XDG_CACHE_HOME/dejarik/tables, else ~/.cache/dejarik/tables, else ./dejarik-tables.
[[nodiscard]] std::filesystem::path defaultTablePath();

// "0123456789abcdef": the directory of a rule mix under the table root.
[[nodiscard]] std::string fingerprintName(std::uint64_t fingerprint);

// One loaded set. The entries' view comes first, beside the layout, so that a probe
// reads one cache line of the Table, then the state's code and its codebook word.
struct Table {
    Entries entries;  // in the mapped file or a copy of its payload
    Layout layout;
    Material material;
    std::unique_ptr<TableFile> file;

    // The stored value of a state, from side A's view.
    [[nodiscard]] double value(std::uint32_t state) const {
        return decodeValue(entries.value(state));
    }
    // Its stored distance (saturated at kDistanceCap).
    [[nodiscard]] std::uint8_t distance(std::uint32_t state) const {
        return entries.distance(state);
    }
};

// A table's answer: the value (player 1's view, or the decider's where said) and the
// distance, the actions before the attack (or the game-ending move) that realises it
// under optimal play of the game without the quiet draw, where the side the value serves
// hurries and the other delays (docs/tables.md, "Distances"). 0 at a chance node (the
// attack is under way) and, mostly, for a value of 0 (no attack needed).
struct TableValue {
    double value = 0;
    int distance = 0;
};

// Where probes read the entries of the sets found at construction: in the mapped files
// (the page cache's 4 KiB pages), or copied into one anonymous region with transparent
// huge pages asked for, where a random probe over all sets misses the TLB far less often
// (docs/tables.md, "Probing: the API"; tools/bench-tables prints both). Sets added later
// by load() are read from their files in either case.
enum class TableMemory : std::uint8_t { Mapped, HugePages };

// Why the tables cannot serve these rules, or nothing when they can: they solve Dejarik
// with the rulesets' own eight creatures (tables/material.h indexes sets by them), without
// Rays of Death (whose rounds and marks they do not index).
[[nodiscard]] std::optional<std::string> uncovered(const Rules& rules);

class Tablebase {
  public:
    // The tables of `rules` (any DrawTurns: the tables ignore it) under root/<fingerprint>/.
    // Every valid set file found there is loaded; the others are named in problems(). A
    // missing directory is an empty table base.
    Tablebase(const std::filesystem::path& root, const Rules& rules,
              TableMemory memory = TableMemory::Mapped);
    ~Tablebase();
    Tablebase(const Tablebase&) = delete;
    Tablebase& operator=(const Tablebase&) = delete;

    // The rules the tables are solved under: the given ones with DrawTurns 0.
    [[nodiscard]] const Rules& rules() const { return *rules_; }
    [[nodiscard]] std::uint64_t fingerprint() const { return rules_->gameFingerprint(); }
    [[nodiscard]] const std::filesystem::path& directory() const { return directory_; }
    [[nodiscard]] std::filesystem::path fileOf(const Material& m) const;
    // One line per file refused at opening or loading, with the reason.
    [[nodiscard]] std::vector<std::string> problems() const;

    // The value of a position for player 1, at any phase: a decision point is read from its
    // table, a chance node is the probability-weighted sum over its outcomes and a
    // placement the best placement for its player; a finished game gives its result. Nothing
    // when the position has more than maxPieces() creatures (checked first), when its rules are of
    // another mix, when a set it needs is missing, or for a CentreWin counter that no play
    // reaches.
    [[nodiscard]] std::optional<double> probe(const Position& pos) const;
    // The same from the view of the player who decides (the player on turn at a chance
    // node).
    [[nodiscard]] std::optional<double> probeForDecider(const Position& pos) const;
    // The most creatures a probe looks at: kDefaultMaxPieces, or five once a set of five is
    // loaded. Above it every probe answers nothing at once (no placement is indexed, so
    // that the orbits of five are never built for tables that have no set of five).
    [[nodiscard]] int maxPieces() const { return maxPieces_.load(std::memory_order_acquire); }
    // Starts loading the entry a probe of this decision position will read (nothing for
    // other phases, derived states or positions the tables do not hold): issued well before
    // the probe, its memory read overlaps other work.
    void prefetch(const Position& pos) const;
    // The value with its distance (player 1's view). A choice the tables derive (a
    // placement, a decision of the mover with the hold counter up and one action left)
    // takes the best value and, among equal values, the shortest distance for the side the
    // value serves and the longest for the other.
    [[nodiscard]] std::optional<TableValue> probeWithDistance(const Position& pos) const;

    // The value of a state of a canonical set (side A's view), stored or derived.
    [[nodiscard]] std::optional<double> stateValue(const Material& m, std::uint32_t state) const;

    [[nodiscard]] bool has(const Material& m) const { return table(m) != nullptr; }
    // The loaded table of a set in any orientation, or null.
    [[nodiscard]] const Table* table(const Material& m) const;
    // The sets loaded, canonical, fewer pieces first.
    [[nodiscard]] std::vector<Material> sets() const;

    // Loads (or reloads after another process wrote it) the file of a set; false and a
    // message when it is missing or refused.
    bool load(const Material& m, std::string* error = nullptr);

  private:
    [[nodiscard]] std::optional<TableValue> lookup(const Position& pos) const;
    [[nodiscard]] std::optional<TableValue> derive(const Position& pos) const;
    // `entries`: where the set's entries are read, null for its file.
    bool adopt(std::unique_ptr<TableFile> file, const Material& expected, std::string* error,
               const std::uint8_t* entries = nullptr);
    // Copies the files' entries into one huge-page region; their addresses there, or
    // nothing when the region cannot be had.
    std::vector<const std::uint8_t*> copyToHugePages(
        const std::vector<std::unique_ptr<TableFile>>& files);

    struct Region {
        void* address = nullptr;
        std::size_t bytes = 0;
        Region() = default;
        Region(const Region&) = delete;
        Region& operator=(const Region&) = delete;
        ~Region();
    };

    std::unique_ptr<const Rules> rules_;
    std::filesystem::path directory_;
    Region region_;  // the copied entries (TableMemory::HugePages)
    std::unique_ptr<std::atomic<const Table*>[]> slots_;
    std::atomic<int> maxPieces_{kDefaultMaxPieces};  // raised after the slot is stored
    mutable std::mutex mutex_;
    std::vector<std::unique_ptr<Table>> owned_;  // never shrinks: probes hold raw pointers
    std::vector<std::string> problems_;
};

}  // namespace dejarik::tables
