#include "rules.h"

#include <algorithm>
#include <cctype>

#include "courtier.h"
#include "text.h"
#include "zobrist.h"

namespace dejarik {

namespace {

constexpr std::array<std::string_view, 5> kRulesetNames = {"kelly", "dalsian-classic", "dalsian",
                                                           "holochess", "courtier"};
constexpr std::array<std::string_view, 3> kBlockedPushNames = {"stay", "kill", "kill-on-push"};

// Attack / defence / movement, in Creature order S M G H T N K L (RULES §9), one row per
// creature: the Kelly ratings (kelly, both dalsians) and the Holochess ones.
using RatingTable = std::array<Ratings, kCreatureCount>;
constexpr RatingTable kKellyRatings = {
    {{6, 6, 2}, {6, 5, 3}, {4, 3, 2}, {4, 4, 1}, {2, 7, 3}, {3, 8, 1}, {7, 3, 2}, {8, 2, 2}}};
constexpr RatingTable kHolochessRatings = {
    {{5, 5, 2}, {5, 4, 3}, {3, 3, 2}, {4, 3, 1}, {1, 6, 2}, {2, 6, 1}, {6, 2, 2}, {6, 1, 3}}};

struct Preset {
    DiceModel dice;
    bool safeOuterOrbit;
    bool centreStraight;
    BlockedPush blockedPush;
    int centreWin;
};

Preset presetOf(Ruleset r) {
    switch (r) {
        case Ruleset::Kelly:
            return {DiceModel::Pools, false, false, BlockedPush::Stay, 0};
        case Ruleset::DalsianClassic:
            return {DiceModel::D20, false, false, BlockedPush::Stay, 3};
        case Ruleset::Dalsian:
            return {DiceModel::TwoD10, true, false, BlockedPush::Stay, 0};
        case Ruleset::Holochess:
            return {DiceModel::SplitD6, false, true, BlockedPush::Kill, 0};
        case Ruleset::Courtier:
            // No attacks and no dice: only the neutral settings (RULES §14.13).
            return {DiceModel::Pools, false, false, BlockedPush::Stay, 0};
    }
    return {DiceModel::Pools, false, false, BlockedPush::Stay, 0};
}

// Folds one more field into a digest; splitmix64 spreads every bit of the field.
void mix(std::uint64_t& digest, std::uint64_t field) {
    std::uint64_t state = digest ^ field;
    digest = zobrist::splitmix64(state);
}

template <typename T, std::size_t N>
std::optional<T> lookup(const std::array<std::string_view, N>& names, std::string_view value) {
    for (std::size_t i = 0; i < N; ++i)
        if (names[i] == value) return static_cast<T>(i);
    return std::nullopt;
}

// The rule options' table. An option that can leave its setting to the ruleset takes the
// value "ruleset" besides its own, which unsets it.
constexpr std::string_view kRulesetValue = "ruleset";

template <std::size_t N>
constexpr std::array<std::string_view, N + 1> withRuleset(
    const std::array<std::string_view, N>& names) {
    std::array<std::string_view, N + 1> values{kRulesetValue};
    for (std::size_t i = 0; i < N; ++i)
        values[i + 1] = names[i];
    return values;
}

constexpr auto kDiceValues = withRuleset(kDiceModelNames);
constexpr auto kSwitchValues = withRuleset(std::array<std::string_view, 2>{"true", "false"});
constexpr auto kBlockedPushValues = withRuleset(kBlockedPushNames);

constexpr RuleOptions kDefaults{};

// A value of kSwitchValues (checked, so spelled as listed).
std::optional<bool> switchValue(const OptionValue& v) {
    if (v.text == kRulesetValue) return std::nullopt;
    return v.text == "true";
}

void setRuleset(RuleOptions& o, const OptionValue& v);

constexpr std::array<RuleOptionSpec, 8> kRuleOptions = {{
    {OptionSpec::combo("Ruleset", kRulesetNames[static_cast<int>(kDefaults.ruleset)],
                       kRulesetNames),
     false, setRuleset},
    {OptionSpec::combo("Dice", kRulesetValue, kDiceValues), true,
     [](RuleOptions& o, const OptionValue& v) {
         o.dice = lookup<DiceModel>(kDiceModelNames, v.text);
     }},
    {OptionSpec::combo("SafeOuterOrbit", kRulesetValue, kSwitchValues), true,
     [](RuleOptions& o, const OptionValue& v) { o.safeOuterOrbit = switchValue(v); }},
    {OptionSpec::combo("KingOfTheCentre", kRulesetValue, kSwitchValues), true,
     [](RuleOptions& o, const OptionValue& v) { o.kingOfTheCentre = switchValue(v); }},
    {OptionSpec::combo("CentreStraight", kRulesetValue, kSwitchValues), true,
     [](RuleOptions& o, const OptionValue& v) { o.centreStraight = switchValue(v); }},
    {OptionSpec::combo("BlockedPush", kRulesetValue, kBlockedPushValues), true,
     [](RuleOptions& o, const OptionValue& v) {
         o.blockedPush = lookup<BlockedPush>(kBlockedPushNames, v.text);
     }},
    // -1: the ruleset's, 0: off.
    {OptionSpec::spin("CentreWin", kDefaults.centreWin, -1, 20), true,
     [](RuleOptions& o, const OptionValue& v) { o.centreWin = static_cast<int>(v.number); }},
    // 0: no quiet draw.
    {OptionSpec::spin("DrawTurns", kDefaults.drawTurns, 0, 1000), false,
     [](RuleOptions& o, const OptionValue& v) { o.drawTurns = static_cast<int>(v.number); }},
}};

void setRuleset(RuleOptions& o, const OptionValue& v) {
    o.ruleset = *lookup<Ruleset>(kRulesetNames, v.text);
    for (const RuleOptionSpec& r : kRuleOptions)
        if (r.resetByRuleset) r.apply(o, *checkOptionValue(r.spec, r.spec.defaultValue(), nullptr));
}

}  // namespace

char Piece::letter() const {
    if (isNone()) return '.';
    const char upper = kCreatureLetters[static_cast<int>(creature())];
    return owner() == Player::One ? upper : static_cast<char>(std::tolower(upper));
}

std::optional<Piece> Piece::fromLetter(char letter) {
    const auto upper = static_cast<char>(std::toupper(static_cast<unsigned char>(letter)));
    const auto pos = kCreatureLetters.find(upper);
    if (pos == std::string_view::npos) return std::nullopt;
    return Piece(letter == upper ? Player::One : Player::Two, static_cast<Creature>(pos));
}

char Rules::letter(Piece p) const {
    if (!courtier() || p.isNone()) return p.letter();
    const char upper = p.creature() == courtier::kGuard ? 'U' : 'W';
    return p.owner() == Player::One ? upper : static_cast<char>(std::tolower(upper));
}

std::string_view rulesetName(Ruleset r) {
    return kRulesetNames[static_cast<int>(r)];
}

std::optional<Ruleset> parseRuleset(std::string_view name) {
    return lookup<Ruleset>(kRulesetNames, text::lowerCase(name));
}

std::string_view blockedPushName(BlockedPush b) {
    return kBlockedPushNames[static_cast<int>(b)];
}

std::span<const RuleOptionSpec> ruleOptionSpecs() {
    return kRuleOptions;
}

const RuleOptionSpec* findRuleOption(std::string_view name) {
    for (const RuleOptionSpec& r : kRuleOptions)
        if (text::equalIgnoringCase(r.spec.name, name)) return &r;
    return nullptr;
}

bool RuleOptions::isRuleOption(std::string_view name) {
    return findRuleOption(name) != nullptr;
}

std::optional<std::string> RuleOptions::set(std::string_view name, std::string_view value) {
    const RuleOptionSpec* option = findRuleOption(name);
    if (!option) return "unknown rule option '" + std::string(name) + "'";
    std::string error;
    const auto checked = checkOptionValue(option->spec, value, &error);
    if (!checked) return error;
    if (ruleset == Ruleset::Courtier && option->resetByRuleset) {
        // Courtier has no dice, attacks or paths: only the values that leave the choice to
        // the ruleset, or CentreWin off, are accepted, so a GUI may reset every option.
        RuleOptions neutral = *this;
        option->apply(neutral, *checked);
        const bool isNeutral = !neutral.dice && !neutral.safeOuterOrbit &&
                               !neutral.kingOfTheCentre && !neutral.centreStraight &&
                               !neutral.blockedPush && neutral.centreWin <= 0;
        if (!isNeutral)
            return "option " + std::string(option->spec.name) +
                   " does not apply to Ruleset courtier";
        return std::nullopt;
    }
    option->apply(*this, *checked);
    return std::nullopt;
}

bool RuleOptions::inactive(const RuleOptionSpec& option) const {
    // The options that Ruleset resets are exactly Dejarik's own.
    return ruleset == Ruleset::Courtier && option.resetByRuleset;
}

std::optional<std::string> RuleOptions::refusal(const RuleOptionSpec& option,
                                                const OptionValue& value) const {
    if (!inactive(option)) return std::nullopt;
    // Courtier has no dice, attacks or paths: only the values that leave the choice to the
    // ruleset, or CentreWin off, are accepted, so that a GUI may reset every option.
    RuleOptions neutral;
    option.apply(neutral, value);
    const bool isNeutral = !neutral.dice && !neutral.safeOuterOrbit && !neutral.kingOfTheCentre &&
                           !neutral.centreStraight && !neutral.blockedPush &&
                           neutral.centreWin <= 0;
    if (isNeutral) return std::nullopt;
    return "option " + std::string(option.spec.name) + " does not apply to Ruleset courtier";
}

std::optional<std::string> RuleOptions::setAssignment(std::string_view assignment) {
    const auto eq = assignment.find('=');
    if (eq == std::string_view::npos || eq == 0)
        return "option '" + std::string(assignment) + "' is not of the form Name=Value";
    return set(assignment.substr(0, eq), assignment.substr(eq + 1));
}

Rules::Rules(const RuleOptions& options) : options_(options) {
    const Preset p = presetOf(options.ruleset);
    dice_ = options.dice.value_or(p.dice);
    safeOuterOrbit_ = options.safeOuterOrbit.value_or(p.safeOuterOrbit);
    kingOfTheCentre_ = options.kingOfTheCentre.value_or(false);
    centreStraight_ = options.centreStraight.value_or(p.centreStraight);
    blockedPush_ = options.blockedPush.value_or(p.blockedPush);
    centreWin_ = options.centreWin >= 0 ? options.centreWin : p.centreWin;
    ratings_ = options.ruleset == Ruleset::Holochess ? kHolochessRatings : kKellyRatings;
    if (courtier()) {
        // Set only through RuleOptions::set, which refuses them; a caller that fills the
        // struct by hand gets the game all the same.
        dice_ = p.dice;
        safeOuterOrbit_ = kingOfTheCentre_ = centreStraight_ = false;
        blockedPush_ = p.blockedPush;
        centreWin_ = 0;
    }

    std::uint64_t digest = courtier() ? 0xC0E27ull : 0x7AB1E5ull;
    for (const std::uint64_t field :
         {static_cast<std::uint64_t>(dice_), std::uint64_t{safeOuterOrbit_},
          std::uint64_t{kingOfTheCentre_}, std::uint64_t{centreStraight_},
          static_cast<std::uint64_t>(blockedPush_), static_cast<std::uint64_t>(centreWin_)})
        mix(digest, field);
    for (const Ratings& r : ratings_)
        mix(digest, static_cast<std::uint64_t>(r.attack) |
                        static_cast<std::uint64_t>(r.defence) << 8 |
                        static_cast<std::uint64_t>(r.movement) << 16);
    gameFingerprint_ = digest;
    mix(digest, static_cast<std::uint64_t>(options.drawTurns));
    fingerprint_ = digest;

    for (int a = 0; a < kCreatureCount; ++a) {
        for (int d = 0; d < kCreatureCount; ++d) {
            Combat& c = combat_[a][d];
            c.exact = attackOdds(dice_, ratings_[a].attack, ratings_[d].defence);
            for (const Outcome o : kOutcomes) {
                const int i = static_cast<int>(o);
                c.probability[i] = c.exact.probability(o);
                if (c.exact.counts[i] != 0) {
                    c.mask |= static_cast<std::uint8_t>(1u << i);
                    ++c.outcomeCount;
                }
            }
            // Player 1's piece a against player 2's piece d, each with its best rating.
            Showdown& s = showdown_[a][d];
            s.exact = showdownOdds(dice_, std::max(ratings_[a].attack, ratings_[a].defence),
                                   std::max(ratings_[d].attack, ratings_[d].defence));
            if (!s.exact.drawn()) {
                s.p1Wins = s.exact.p1Wins().value();
                s.p2Wins = s.exact.p2Wins().value();
            }
        }
    }
}

std::string Rules::describe() const {
    if (courtier()) return "courtier DrawTurns=" + std::to_string(drawTurns());
    auto flag = [](bool b) { return b ? "true" : "false"; };
    return std::string(rulesetName(ruleset())) + " Dice=" + std::string(diceModelName(dice_)) +
           " SafeOuterOrbit=" + flag(safeOuterOrbit_) +
           " KingOfTheCentre=" + flag(kingOfTheCentre_) +
           " CentreStraight=" + flag(centreStraight_) +
           " BlockedPush=" + std::string(blockedPushName(blockedPush_)) +
           " CentreWin=" + std::to_string(centreWin_) + " DrawTurns=" + std::to_string(drawTurns());
}

}  // namespace dejarik
