// Players, creatures and the rule set a game is played under (RULES §2, §6–§9).
//
// A Rules value is immutable once built and holds everything the rules depend on,
// including the combat odds of every creature pair, so positions refer to it instead of
// consulting any global state.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "creature_set.h"
#include "dice.h"
#include "option.h"

namespace dejarik {

enum class Player : std::uint8_t { One, Two };
[[nodiscard]] constexpr Player opponent(Player p) {
    return p == Player::One ? Player::Two : Player::One;
}
[[nodiscard]] constexpr int index(Player p) {
    return static_cast<int>(p);
}
// +1 for player 1, -1 for player 2: turns a value for player 1 into p's, and back.
[[nodiscard]] constexpr double perspective(Player p) {
    return p == Player::One ? 1.0 : -1.0;
}

// A creature of the set in force: its index in the set's table (RULES §16). The names are
// the ruleset's own creatures (§2), indices 0-7 in both built-in tables; a creature file
// numbers its creatures in file order, up to kMaxCreatures.
enum class Creature : std::uint8_t {
    Savrip,
    Monnok,
    Ghhhk,
    Houjix,
    Strider,
    Ngok,
    Klorslug,
    Molator
};
// The ruleset's own creatures (§2), in both built-in tables.
inline constexpr int kCreatureCount = 8;
inline constexpr std::string_view kCreatureLetters = "SMGHTNKL";
// Creatures of any set (RULES §16: one per letter).
inline constexpr int kMaxCreatures = CreatureSet::kMaxCreatures;

// A creature owned by a player, or no piece. Code 0 is the empty cell so a cleared board
// array is an empty board. Bits of code - 1: creature & 7, then the owner, then creature >> 3,
// so that the ruleset's own creatures keep indices 0..15 (and their Zobrist keys).
class Piece {
  public:
    constexpr Piece() = default;
    constexpr Piece(Player owner, Creature creature)
        : code_(static_cast<std::uint8_t>(1 + (static_cast<int>(creature) & 7) +
                                          8 * dejarik::index(owner) +
                                          16 * (static_cast<int>(creature) >> 3))) {}

    [[nodiscard]] static constexpr Piece none() { return Piece(); }
    [[nodiscard]] constexpr bool isNone() const { return code_ == 0; }
    [[nodiscard]] constexpr Player owner() const {
        return static_cast<Player>(((code_ - 1) >> 3) & 1);
    }
    [[nodiscard]] constexpr Creature creature() const {
        return static_cast<Creature>(((code_ - 1) & 7) | ((code_ - 1) >> 4) << 3);
    }
    // 0..kPieceIndices - 1 for a piece, used to index key tables.
    [[nodiscard]] constexpr int index() const { return code_ - 1; }
    static constexpr int kPieceIndices = 16 * ((kMaxCreatures + 7) / 8);
    constexpr bool operator==(const Piece&) const = default;

    // The letters of the ruleset's own creatures (§2): upper case for player 1, lower case
    // for player 2, '.' for none. With a creature set in force, Rules::letter is the one.
    [[nodiscard]] char letter() const;
    [[nodiscard]] static std::optional<Piece> fromLetter(char letter);

  private:
    std::uint8_t code_ = 0;
};

// Courtier (RULES §14) is a different game on the same board; kRulesets lists the four
// Dejarik rulesets only.
enum class Ruleset : std::uint8_t { Kelly, DalsianClassic, Dalsian, Holochess, Courtier };
inline constexpr std::array<Ruleset, 4> kRulesets = {Ruleset::Kelly, Ruleset::DalsianClassic,
                                                     Ruleset::Dalsian, Ruleset::Holochess};
[[nodiscard]] std::string_view rulesetName(Ruleset r);
// RULES §3: a deal splits the eight creatures four and four at random, except that
// holochess keeps its two groups (group 1 for player 1) and only shuffles each.
[[nodiscard]] constexpr bool dealKeepsStartGroups(Ruleset r) {
    return r == Ruleset::Holochess;
}
[[nodiscard]] std::optional<Ruleset> parseRuleset(std::string_view name);

enum class BlockedPush : std::uint8_t { Stay, Kill, KillOnPush };
[[nodiscard]] std::string_view blockedPushName(BlockedPush b);

struct RuleOptionSpec;

// The rule options as a user sets them (PROTOCOL.md "Options"): unset optionals and
// centreWin -1 mean "as the ruleset says". The defaults here are the options' defaults.
struct RuleOptions {
    Ruleset ruleset = Ruleset::Kelly;
    std::optional<DiceModel> dice;
    std::optional<bool> safeOuterOrbit;
    std::optional<bool> kingOfTheCentre;
    std::optional<bool> centreStraight;
    std::optional<BlockedPush> blockedPush;
    int centreWin = -1;
    int drawTurns = 40;
    // Setup arrange (RULES §15.2): startpos holds both players' creatures in reserve.
    bool arrange = false;
    // A creature set read from a file (RULES §16.3); none: the ruleset's own creatures.
    std::shared_ptr<const CreatureSet> creatureFile;
    // Rays of Death (docs/rules.md): activation cycles and a rolled combat cell.
    bool raysOfDeath = false;

    bool operator==(const RuleOptions&) const = default;

    // A reason to refuse an option wherever it is named, asked before its value is read (a
    // record from a browser page must not make the server open a file it names; a table's
    // header holds only the options of its rules), or nothing.
    using Refusal = std::function<std::optional<std::string>(const RuleOptionSpec&)>;

    // Sets one option by its protocol name and value, both case-insensitive (ruleOptionSpecs).
    // Returns an error message, or nothing on success. Under Courtier the Dejarik-only
    // options take only their neutral values (RULES §14.13).
    [[nodiscard]] std::optional<std::string> set(std::string_view name, std::string_view value,
                                                 const Refusal& refuse = {});

    // Why `option` may not take `value` now, or nothing: under Courtier the options of
    // Dejarik alone take only their neutral values (RULES §14.13). A neutral value is then
    // accepted and changes nothing (`set` leaves the options as they are).
    [[nodiscard]] std::optional<std::string> refusal(const RuleOptionSpec& option,
                                                     const OptionValue& value) const;
    // Whether setting `option` would change nothing whatever the value: a Dejarik-only
    // option under Courtier.
    [[nodiscard]] bool inactive(const RuleOptionSpec& option) const;

    // "Name=Value" form used on command lines.
    [[nodiscard]] std::optional<std::string> setAssignment(std::string_view assignment,
                                                           const Refusal& refuse = {});

    [[nodiscard]] static bool isRuleOption(std::string_view name);
};

// A rule option: its declaration and what an accepted value does to RuleOptions. The value
// "ruleset" (or CentreWin -1) unsets an option, so that the ruleset's own setting applies.
struct RuleOptionSpec {
    OptionSpec spec;
    // Setting Ruleset puts this option back to its default (the ruleset's setting).
    bool resetByRuleset = false;
    // Returns an error when the value cannot take effect (a creature file that fails to load);
    // the options are then unchanged.
    std::optional<std::string> (*apply)(RuleOptions& options, const OptionValue& value) = nullptr;
};

// Every rule option, in the order engines announce them.
[[nodiscard]] std::span<const RuleOptionSpec> ruleOptionSpecs();

// The rule option of a name in any letter case, or nullptr.
[[nodiscard]] const RuleOptionSpec* findRuleOption(std::string_view name);

class Rules {
  public:
    explicit Rules(const RuleOptions& options = {});
    [[nodiscard]] static Rules preset(Ruleset r) {
        RuleOptions options;
        options.ruleset = r;
        return Rules(options);
    }

    [[nodiscard]] const RuleOptions& options() const { return options_; }
    [[nodiscard]] Ruleset ruleset() const { return options_.ruleset; }
    // The game is Courtier (RULES §14): Guards and Kings, one step a turn, no dice.
    [[nodiscard]] bool courtier() const { return options_.ruleset == Ruleset::Courtier; }
    [[nodiscard]] DiceModel dice() const { return dice_; }
    [[nodiscard]] bool safeOuterOrbit() const { return safeOuterOrbit_; }
    [[nodiscard]] bool kingOfTheCentre() const { return kingOfTheCentre_; }
    [[nodiscard]] bool centreStraight() const { return centreStraight_; }
    [[nodiscard]] BlockedPush blockedPush() const { return blockedPush_; }
    [[nodiscard]] int centreWin() const { return centreWin_; }
    [[nodiscard]] int drawTurns() const { return options_.drawTurns; }
    // Setup arrange: startpos is set-up pending (RULES §15.2). It shapes no game tree.
    [[nodiscard]] bool arrange() const { return options_.arrange; }
    // Rays of Death (docs/rules.md): creatures act in cycles, attacks go into or out of a
    // rolled combat cell.
    [[nodiscard]] bool raysOfDeath() const { return options_.raysOfDeath; }

    [[nodiscard]] const Ratings& ratings(Creature c) const { return ratings_[static_cast<int>(c)]; }

    // The creature set in force: the ruleset's own table or the CreatureFile's (RULES §16).
    [[nodiscard]] const CreatureSet& creatures() const { return *creatures_; }
    [[nodiscard]] bool fromCreatureFile() const { return options_.creatureFile != nullptr; }
    // Whether a deal keeps the players' start groups (RULES §3; a creature file's designer
    // chose its groups) rather than splitting the creatures at random.
    [[nodiscard]] bool dealKeepsStartGroups() const {
        return dejarik::dealKeepsStartGroups(ruleset()) || fromCreatureFile();
    }
    [[nodiscard]] int creatureCount() const { return creatures_->size(); }
    // A piece's letter in the set in force (Courtier's U and W under courtier): upper case
    // player 1, lower case player 2, '.' none.
    [[nodiscard]] char letter(Piece p) const;
    // The piece a letter of the set in force names (its case gives the owner), or nothing.
    [[nodiscard]] std::optional<Piece> pieceOf(char letter) const;
    // The set's letters, upper case, in table order ("SMGHTNKL").
    [[nodiscard]] std::string letters() const;
    // The start position's DFEN (RULES §3, §16.3), with Setup arrange its creatures in
    // reserve (§15.2).
    [[nodiscard]] std::string startDfen() const;
    // What the evaluator's material model depends on (dice model and ratings): equal keys,
    // equal combat and showdown odds for every creature pair.
    [[nodiscard]] std::uint64_t materialKey() const { return materialKey_; }

    // Combat odds of attacker against defender, exact and as doubles; `mask` has bit o set
    // for every outcome o of non-zero probability.
    struct Combat {
        AttackOdds exact;
        std::array<double, 4> probability{};
        std::uint8_t mask = 0;
        std::uint8_t outcomeCount = 0;
    };
    [[nodiscard]] const Combat& combat(Creature attacker, Creature defender) const {
        return combat_[static_cast<int>(attacker)][static_cast<int>(defender)];
    }

    // Showdown between player 1's last piece and player 2's last piece.
    struct Showdown {
        ShowdownOdds exact;
        double p1Wins = 0;  // 0 and 0 when no round can decide (a draw)
        double p2Wins = 0;
    };
    [[nodiscard]] const Showdown& showdown(Creature p1, Creature p2) const {
        return showdown_[static_cast<int>(p1)][static_cast<int>(p2)];
    }

    // One line: the ruleset and every resolved option, in protocol names.
    [[nodiscard]] std::string describe() const;

    // A 64-bit digest of everything that shapes the game tree apart from the quiet-draw
    // limit: dice model, attack and path restrictions, blocked pushes, CentreWin and every
    // creature's ratings, as resolved (two option mixes that play alike share it). Endgame
    // tables, solved without the quiet draw, are identified by it.
    [[nodiscard]] std::uint64_t gameFingerprint() const { return gameFingerprint_; }
    // gameFingerprint() with DrawTurns mixed in: two Rules with the same fingerprint give
    // every position the same value, so search tables may share entries between them.
    [[nodiscard]] std::uint64_t fingerprint() const { return fingerprint_; }

  private:
    RuleOptions options_;
    DiceModel dice_;
    bool safeOuterOrbit_;
    bool kingOfTheCentre_;
    bool centreStraight_;
    BlockedPush blockedPush_;
    int centreWin_;
    std::uint64_t gameFingerprint_ = 0;
    std::uint64_t fingerprint_ = 0;
    std::uint64_t materialKey_ = 0;
    std::shared_ptr<const CreatureSet> creatures_;
    std::array<Ratings, kMaxCreatures> ratings_{};
    std::array<std::array<Combat, kMaxCreatures>, kMaxCreatures> combat_{};
    std::array<std::array<Showdown, kMaxCreatures>, kMaxCreatures> showdown_{};
};

}  // namespace dejarik
