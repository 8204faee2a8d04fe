#include "deals.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <sstream>

#include "luck.h"
#include "position.h"
#include "text_file.h"

namespace dejarik::arena {

namespace {

constexpr std::uint64_t kDealTag = 0xDEA1ull;

// Fisher-Yates with an unbiased draw for each slot from the keyed generator.
template <std::size_t N>
void shuffle(std::array<std::uint8_t, N>& items, std::uint64_t key) {
    for (std::size_t i = N - 1; i > 0; --i) {
        const Uniform u{mixKey(key, 2 * i), mixKey(key, 2 * i + 1)};
        std::swap(items[i], items[u.below(i + 1)]);
    }
}

// A ruleset's rules, made once: a Rules works out every attack's and showdown's odds
// (0.35 ms), a thousand times a deal.
const Rules& preset(Ruleset ruleset) {
    static const std::array<Rules, 5> kPresets = {
        Rules::preset(Ruleset::Kelly), Rules::preset(Ruleset::DalsianClassic),
        Rules::preset(Ruleset::Dalsian), Rules::preset(Ruleset::Holochess),
        Rules::preset(Ruleset::Courtier)};
    return kPresets[static_cast<std::size_t>(ruleset)];
}

// The players' creatures on c2..c5 and c8..c11: each player's start group shuffled where the
// deal keeps them, else the whole table (eight creatures) shuffled and split four and four.
std::string dealtDeal(const Rules& rules, std::uint64_t key) {
    const CreatureSet& set = rules.creatures();
    std::array<std::array<std::uint8_t, 4>, 2> groups{set.start(0), set.start(1)};
    if (rules.dealKeepsStartGroups()) {
        shuffle(groups[0], mixKey(key, 1));
        shuffle(groups[1], mixKey(key, 2));
    } else {
        std::array<std::uint8_t, 8> all{};
        std::iota(all.begin(), all.end(), std::uint8_t{0});
        shuffle(all, key);
        std::copy_n(all.begin(), 4, groups[0].begin());
        std::copy_n(all.begin() + 4, 4, groups[1].begin());
    }
    std::array<std::string, 2> letters;
    for (const Player p : {Player::One, Player::Two})
        for (const std::uint8_t c : groups[static_cast<std::size_t>(p)])
            letters[static_cast<std::size_t>(p)] +=
                rules.letter(Piece(p, static_cast<Creature>(c)));
    // c1, c2..c5, c6 c7, c8..c11, c12
    return "./............/." + letters[0] + ".." + letters[1] + ". 1 2 0 1";
}

// Courtier has one start and no dice: uniform moves from it; no opening of
// kCourtierOpening moves ends the game.
std::string courtierOpening(std::uint64_t key) {
    Position pos = Position::startpos(preset(Ruleset::Courtier));
    for (int i = 0; i < kCourtierOpening && !pos.isOver(); ++i) {
        EventList events;
        pos.generate(events);
        const Uniform u{mixKey(key, 2 * i), mixKey(key, 2 * i + 1)};
        pos.apply(events[static_cast<int>(u.below(static_cast<std::uint64_t>(events.size())))]);
    }
    return pos.dfen();
}

// A dealt start as the same creatures in reserve, each player's in creature-table order.
std::string asReserves(const std::string& dealt, const Rules& rules) {
    const Position pos = *Position::fromDfen(dealt, rules);
    std::string letters;
    for (const Player p : {Player::One, Player::Two}) {
        std::array<int, 4> group{};
        for (int i = 0; i < 4; ++i)
            group[static_cast<std::size_t>(i)] =
                static_cast<int>(pos.at(Position::homeCell(p, i)).creature());
        std::sort(group.begin(), group.end());
        for (const int c : group)
            letters += rules.letter(Piece(p, static_cast<Creature>(c)));
    }
    return "./............/............/" + letters + " 1 2 0 1";
}

}  // namespace

std::string randomDeal(Ruleset ruleset, std::uint64_t seed, std::uint64_t round) {
    return randomDeal(preset(ruleset), seed, round);
}

std::string randomDeal(const Rules& rules, std::uint64_t seed, std::uint64_t round) {
    const std::uint64_t key = mixKey(mixKey(seed, kDealTag), round);
    if (rules.ruleset() == Ruleset::Courtier) return courtierOpening(key);
    const std::string dealt = dealtDeal(rules, key);
    return rules.arrange() ? asReserves(dealt, rules) : dealt;
}

std::optional<std::vector<std::string>> parseDeals(std::string_view text, const Rules& rules,
                                                   std::string& error) {
    std::vector<std::string> deals;
    std::istringstream in{std::string(text)};
    std::string line;
    int lineNumber = 0;
    while (std::getline(in, line)) {
        ++lineNumber;
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#') continue;
        const auto last = line.find_last_not_of(" \t\r");
        const std::string dfen = line.substr(first, last - first + 1);
        std::string why;
        const auto pos = Position::fromDfen(dfen, rules, &why);
        if (!pos) {
            error = "line " + std::to_string(lineNumber) + ": " + why;
            return std::nullopt;
        }
        if (pos->isOver()) {
            error =
                "line " + std::to_string(lineNumber) + ": the game of this DFEN is already over";
            return std::nullopt;
        }
        deals.push_back(dfen);
    }
    if (deals.empty()) {
        error = "no deals (one DFEN a line)";
        return std::nullopt;
    }
    return deals;
}

std::optional<std::vector<std::string>> readDealFile(const std::string& path, const Rules& rules,
                                                     std::string& error) {
    const auto text = readTextFile(path, error);
    if (!text) return std::nullopt;
    auto deals = parseDeals(*text, rules, error);
    if (!deals) error = path + ": " + error;
    return deals;
}

}  // namespace dejarik::arena
