// A creature set (RULES §16): the creatures' letters, names and ratings, the dice model they
// were made for and the start arrangement, either a ruleset's own table (§2, §9) or read
// from a creature file (§16.1) with every check of §16.2.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dice.h"

namespace dejarik {

struct Ratings {
    int attack = 0;
    int defence = 0;
    int movement = 0;
    bool operator==(const Ratings&) const = default;
};

struct CreatureDef {
    char letter = 'A';  // upper case; player 2's pieces print it in lower case
    Ratings ratings;
    std::string name;
    bool operator==(const CreatureDef&) const = default;
};

class CreatureSet {
  public:
    // A set has at most one creature per letter A-Z.
    static constexpr int kMaxCreatures = 26;
    static constexpr std::size_t kMaxFileBytes = 64 * 1024;
    static constexpr std::size_t kMaxLineLength = 200;
    static constexpr int kMinRating = 1, kMaxRating = 8, kMinMovement = 1, kMaxMovement = 4;

    // A built-in table: creatures in the given order, start groups as creature indices.
    CreatureSet(std::string name, std::vector<CreatureDef> creatures,
                std::array<std::uint8_t, 4> start1, std::array<std::uint8_t, 4> start2);

    // The text of a creature file; `path` only names it in errors, which read
    // "CreatureFile <path>:<line>: <what>" (RULES §16.2).
    [[nodiscard]] static std::optional<CreatureSet> parse(std::string_view text,
                                                          const std::string& path,
                                                          std::string* error);
    // The file at `path`, read once.
    [[nodiscard]] static std::optional<CreatureSet> load(const std::string& path,
                                                         std::string* error);

    [[nodiscard]] const std::string& name() const { return name_; }
    // The file it was read from; empty for a built-in table.
    [[nodiscard]] const std::string& path() const { return path_; }
    [[nodiscard]] std::optional<DiceModel> dice() const { return dice_; }
    [[nodiscard]] int size() const { return static_cast<int>(creatures_.size()); }
    // In file order, which is the set's creature-table order (RULES §15.4).
    [[nodiscard]] const CreatureDef& creature(int i) const { return creatures_[i]; }
    // The index of an upper-case letter's creature, or nothing.
    [[nodiscard]] std::optional<int> find(char upper) const;
    // The creature indices of a player's start group, on c2-c5 (player 1) or c8-c11.
    [[nodiscard]] const std::array<std::uint8_t, 4>& start(int player) const {
        return start_[player];
    }

    bool operator==(const CreatureSet&) const = default;

  private:
    CreatureSet() = default;

    std::string name_;
    std::string path_;
    std::optional<DiceModel> dice_;
    std::vector<CreatureDef> creatures_;
    std::array<std::array<std::uint8_t, 4>, 2> start_{};
};

}  // namespace dejarik
