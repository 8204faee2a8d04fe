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
constexpr std::array<std::string_view, kCreatureCount> kCreatureNames = {
    "Mantellian Savrip", "Monnok", "Ghhhk",      "Houjix",
    "Kintan Strider",    "Ng'ok",  "K'lor'slug", "Molator"};

// The built-in creature sets: §2's letters and names with a ruleset's ratings, and its
// startpos (§3) as creature indices.
std::shared_ptr<const CreatureSet> builtinSet(std::string name, const RatingTable& ratings,
                                              std::array<std::uint8_t, 4> start1,
                                              std::array<std::uint8_t, 4> start2) {
    std::vector<CreatureDef> creatures;
    for (int c = 0; c < kCreatureCount; ++c)
        creatures.push_back({kCreatureLetters[c], ratings[c], std::string(kCreatureNames[c])});
    return std::make_shared<const CreatureSet>(std::move(name), std::move(creatures), start1,
                                               start2);
}

// Immutable once built; shared by every Rules of the ruleset.
const std::shared_ptr<const CreatureSet>& builtinSet(Ruleset r) {
    // G H S N against M L T K; holochess S G N L against M H T K.
    static const auto kelly = builtinSet("Kelly", kKellyRatings, {2, 3, 0, 5}, {1, 7, 4, 6});
    static const auto holochess =
        builtinSet("Holochess", kHolochessRatings, {0, 2, 5, 7}, {1, 3, 4, 6});
    // Courtier's Guard and King (RULES §14.2) in the creature slots courtier::kGuard and
    // courtier::kKing, so that letters go through the set as for any game; they have no
    // ratings to speak of (no attacks) and start from Courtier's own startpos.
    static const auto courtierSet = std::make_shared<const CreatureSet>(
        "Courtier",
        std::vector<CreatureDef>{{'U', Ratings{1, 1, 1}, "Guard"}, {'W', Ratings{1, 1, 1}, "King"}},
        std::array<std::uint8_t, 4>{0, 0, 0, 1}, std::array<std::uint8_t, 4>{0, 0, 0, 1});
    if (r == Ruleset::Courtier) return courtierSet;
    return r == Ruleset::Holochess ? holochess : kelly;
}

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
constexpr std::array<std::string_view, 2> kSetupValues = {"dealt", "arrange"};

// The defaults of RuleOptions' fields (a RuleOptions, holding a shared_ptr, is no literal).
constexpr Ruleset kDefaultRuleset = Ruleset::Kelly;
constexpr int kDefaultCentreWin = -1;
constexpr int kDefaultDrawTurns = 40;

// A value of kSwitchValues (checked, so spelled as listed).
std::optional<bool> switchValue(const OptionValue& v) {
    if (v.text == kRulesetValue) return std::nullopt;
    return v.text == "true";
}

using Applied = std::optional<std::string>;

Applied setRuleset(RuleOptions& o, const OptionValue& v);

// Reads the file once (RULES §16.3); an empty value goes back to the ruleset's creatures.
Applied setCreatureFile(RuleOptions& o, const OptionValue& v) {
    if (v.text.empty()) {
        o.creatureFile = nullptr;
        return std::nullopt;
    }
    std::string error;
    auto set = CreatureSet::load(v.text, &error);
    if (!set) return error;
    o.creatureFile = std::make_shared<const CreatureSet>(std::move(*set));
    return std::nullopt;
}

constexpr std::array<RuleOptionSpec, 11> kRuleOptions = {{
    {OptionSpec::combo("Ruleset", kRulesetNames[static_cast<int>(kDefaultRuleset)], kRulesetNames),
     false, setRuleset},
    {OptionSpec::combo("Dice", kRulesetValue, kDiceValues), true,
     [](RuleOptions& o, const OptionValue& v) -> Applied {
         o.dice = lookup<DiceModel>(kDiceModelNames, v.text);
         return std::nullopt;
     }},
    {OptionSpec::combo("SafeOuterOrbit", kRulesetValue, kSwitchValues), true,
     [](RuleOptions& o, const OptionValue& v) -> Applied {
         o.safeOuterOrbit = switchValue(v);
         return std::nullopt;
     }},
    {OptionSpec::combo("KingOfTheCentre", kRulesetValue, kSwitchValues), true,
     [](RuleOptions& o, const OptionValue& v) -> Applied {
         o.kingOfTheCentre = switchValue(v);
         return std::nullopt;
     }},
    {OptionSpec::combo("CentreStraight", kRulesetValue, kSwitchValues), true,
     [](RuleOptions& o, const OptionValue& v) -> Applied {
         o.centreStraight = switchValue(v);
         return std::nullopt;
     }},
    {OptionSpec::combo("BlockedPush", kRulesetValue, kBlockedPushValues), true,
     [](RuleOptions& o, const OptionValue& v) -> Applied {
         o.blockedPush = lookup<BlockedPush>(kBlockedPushNames, v.text);
         return std::nullopt;
     }},
    // -1: the ruleset's, 0: off.
    {OptionSpec::spin("CentreWin", kDefaultCentreWin, -1, 20), true,
     [](RuleOptions& o, const OptionValue& v) -> Applied {
         o.centreWin = static_cast<int>(v.number);
         return std::nullopt;
     }},
    // 0: no quiet draw.
    {OptionSpec::spin("DrawTurns", kDefaultDrawTurns, 0, 1000), false,
     [](RuleOptions& o, const OptionValue& v) -> Applied {
         o.drawTurns = static_cast<int>(v.number);
         return std::nullopt;
     }},
    {OptionSpec::combo("Setup", kSetupValues[0], kSetupValues), false,
     [](RuleOptions& o, const OptionValue& v) -> Applied {
         o.arrange = v.text == kSetupValues[1];
         return std::nullopt;
     }},
    {OptionSpec::string("CreatureFile", ""), false, setCreatureFile},
    // Kept across Ruleset like Setup: a way to play, not a ruleset's parameter.
    {OptionSpec::check("RaysOfDeath", false), false,
     [](RuleOptions& o, const OptionValue& v) -> Applied {
         o.raysOfDeath = v.number != 0;
         return std::nullopt;
     }},
}};

Applied setRuleset(RuleOptions& o, const OptionValue& v) {
    o.ruleset = *lookup<Ruleset>(kRulesetNames, v.text);
    for (const RuleOptionSpec& r : kRuleOptions)
        if (r.resetByRuleset)
            (void)r.apply(o, *checkOptionValue(r.spec, r.spec.defaultValue(), nullptr));
    return std::nullopt;
}

}  // namespace

char Piece::letter() const {
    if (isNone()) return '.';
    const int c = static_cast<int>(creature());
    // Creatures past the built-in table have no letter of their own here.
    const char upper = c < kCreatureCount ? kCreatureLetters[c] : '?';
    return owner() == Player::One ? upper : static_cast<char>(std::tolower(upper));
}

std::optional<Piece> Piece::fromLetter(char letter) {
    const auto upper = static_cast<char>(std::toupper(static_cast<unsigned char>(letter)));
    const auto pos = kCreatureLetters.find(upper);
    if (pos == std::string_view::npos) return std::nullopt;
    return Piece(letter == upper ? Player::One : Player::Two, static_cast<Creature>(pos));
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

std::optional<std::string> RuleOptions::set(std::string_view name, std::string_view value,
                                            const Refusal& refuse) {
    const RuleOptionSpec* option = findRuleOption(name);
    if (!option) return "unknown rule option " + text::quoted(name);
    if (auto refused = refuse ? refuse(*option) : std::nullopt) return refused;
    std::string error;
    const auto checked = checkOptionValue(option->spec, value, &error);
    if (!checked) return error;
    if (auto refused = refusal(*option, *checked)) return refused;
    if (inactive(*option)) return std::nullopt;  // kept, without effect (RULES §14.13)
    return option->apply(*this, *checked);
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
    (void)option.apply(neutral, value);
    const bool isNeutral = !neutral.dice && !neutral.safeOuterOrbit && !neutral.kingOfTheCentre &&
                           !neutral.centreStraight && !neutral.blockedPush &&
                           neutral.centreWin <= 0;
    if (isNeutral) return std::nullopt;
    return "option " + std::string(option.spec.name) + " does not apply to Ruleset courtier";
}

std::optional<std::string> RuleOptions::setAssignment(std::string_view assignment,
                                                      const Refusal& refuse) {
    const auto eq = assignment.find('=');
    if (eq == std::string_view::npos || eq == 0)
        return "option " + text::quoted(assignment) + " is not of the form Name=Value";
    return set(assignment.substr(0, eq), assignment.substr(eq + 1), refuse);
}

namespace {

// Setup, CreatureFile and RaysOfDeath are kept under Courtier but have no effect there
// (RULES §14.13, §17): its pieces are Guards and Kings, its start is fixed, it has no combat.
RuleOptions inForce(RuleOptions options) {
    if (options.ruleset == Ruleset::Courtier) {
        options.creatureFile = nullptr;
        options.arrange = false;
        options.raysOfDeath = false;
    }
    return options;
}

}  // namespace

Rules::Rules(const RuleOptions& given) : options_(inForce(given)) {
    const RuleOptions& options = options_;
    const Preset p = presetOf(options.ruleset);
    dice_ = options.dice.value_or(p.dice);
    safeOuterOrbit_ = options.safeOuterOrbit.value_or(p.safeOuterOrbit);
    kingOfTheCentre_ = options.kingOfTheCentre.value_or(false);
    centreStraight_ = options.centreStraight.value_or(p.centreStraight);
    blockedPush_ = options.blockedPush.value_or(p.blockedPush);
    centreWin_ = options.centreWin >= 0 ? options.centreWin : p.centreWin;
    creatures_ = options.creatureFile ? options.creatureFile : builtinSet(options.ruleset);
    // An explicit Dice wins, then the file's dice line, then the ruleset's (RULES §16.3).
    if (!options.dice && options.creatureFile && options.creatureFile->dice())
        dice_ = *options.creatureFile->dice();
    const int n = creatures_->size();
    for (int c = 0; c < n; ++c)
        ratings_[c] = creatures_->creature(c).ratings;
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
    const auto ratingsField = [](const Ratings& r) {
        return static_cast<std::uint64_t>(r.attack) | static_cast<std::uint64_t>(r.defence) << 8 |
               static_cast<std::uint64_t>(r.movement) << 16;
    };
    // A creature file's set also mixes in its size and letters, so that no table of a
    // ruleset's own creatures is ever read for it (nor one set's for another's).
    if (options.creatureFile) {
        mix(digest, 0xC4EA7u << 8 | static_cast<std::uint64_t>(n));
        for (int c = 0; c < n; ++c)
            mix(digest, ratingsField(ratings_[c]) |
                            static_cast<std::uint64_t>(creatures_->creature(c).letter) << 24);
    } else {
        for (int c = 0; c < n; ++c)
            mix(digest, ratingsField(ratings_[c]));
    }
    // Mixed in only when on, so that every other game keeps its fingerprint (and its tables).
    if (options.raysOfDeath) mix(digest, 0x5A75DEADull);
    gameFingerprint_ = digest;
    mix(digest, static_cast<std::uint64_t>(options.drawTurns));
    fingerprint_ = digest;

    // The built-in sets keep small keys (the evaluator's memo used them before files); a
    // file's key is a digest of dice and ratings with the top bit set.
    if (options.creatureFile) {
        std::uint64_t key = static_cast<std::uint64_t>(dice_);
        for (int c = 0; c < n; ++c)
            mix(key, ratingsField(ratings_[c]));
        materialKey_ = key | std::uint64_t{1} << 63;
    } else {
        materialKey_ =
            (options.ruleset == Ruleset::Holochess ? 4u : 0u) + static_cast<std::uint64_t>(dice_);
    }

    for (int a = 0; a < n; ++a) {
        for (int d = 0; d < n; ++d) {
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

char Rules::letter(Piece p) const {
    if (p.isNone()) return '.';
    const char upper = creatures_->creature(static_cast<int>(p.creature())).letter;
    return p.owner() == Player::One ? upper : static_cast<char>(upper - 'A' + 'a');
}

std::optional<Piece> Rules::pieceOf(char letter) const {
    const bool lower = letter >= 'a' && letter <= 'z';
    const char upper = lower ? static_cast<char>(letter - 'a' + 'A') : letter;
    const auto c = creatures_->find(upper);
    if (!c) return std::nullopt;
    return Piece(lower ? Player::Two : Player::One, static_cast<Creature>(*c));
}

std::string Rules::letters() const {
    std::string s;
    for (int c = 0; c < creatureCount(); ++c)
        s += creatures_->creature(c).letter;
    return s;
}

std::string Rules::startDfen() const {
    if (courtier()) return std::string(courtier::kStartDfen);  // RULES §14.3
    if (arrange()) {
        // The start creatures in reserve, each player's in creature-table order (§15.4).
        std::string s = "./............/............/";
        for (int p = 0; p < 2; ++p) {
            std::array<std::uint8_t, 4> group = creatures_->start(p);
            std::sort(group.begin(), group.end());
            for (const std::uint8_t c : group)
                s += letter(Piece(p == 0 ? Player::One : Player::Two, static_cast<Creature>(c)));
        }
        return s + " 1 2 0 1";
    }
    std::string s = "./............/.";
    for (int p = 0; p < 2; ++p) {
        for (const std::uint8_t c : creatures_->start(p))
            s += letter(Piece(p == 0 ? Player::One : Player::Two, static_cast<Creature>(c)));
        s += p == 0 ? ".." : ".";
    }
    return s + " 1 2 0 1";
}

std::string Rules::describe() const {
    if (courtier()) return "courtier DrawTurns=" + std::to_string(drawTurns());
    auto flag = [](bool b) { return b ? "true" : "false"; };
    return std::string(rulesetName(ruleset())) + " Dice=" + std::string(diceModelName(dice_)) +
           " SafeOuterOrbit=" + flag(safeOuterOrbit_) +
           " KingOfTheCentre=" + flag(kingOfTheCentre_) +
           " CentreStraight=" + flag(centreStraight_) +
           " BlockedPush=" + std::string(blockedPushName(blockedPush_)) +
           " CentreWin=" + std::to_string(centreWin_) +
           " DrawTurns=" + std::to_string(drawTurns()) + (arrange() ? " Setup=arrange" : "") +
           (raysOfDeath() ? " RaysOfDeath=true" : "") +
           (fromCreatureFile() ? " CreatureFile=" + creatures_->path() : std::string());
}

}  // namespace dejarik
