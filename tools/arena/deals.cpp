#include "deals.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <sstream>

#include "luck.h"
#include "position.h"
#include "text_file.h"

namespace dejarik::arena {

namespace {

constexpr std::uint64_t kDealTag = 0xDEA1ull;

// Fisher-Yates with an unbiased draw for each slot from the keyed generator.
template <std::size_t N>
void shuffle(std::array<char, N>& items, std::uint64_t key) {
    for (std::size_t i = N - 1; i > 0; --i) {
        const Uniform u{mixKey(key, 2 * i), mixKey(key, 2 * i + 1)};
        std::swap(items[i], items[u.below(i + 1)]);
    }
}

std::string lowered(std::string_view s) {
    std::string r(s);
    for (char& c : r)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return r;
}

}  // namespace

std::string randomDeal(Ruleset ruleset, std::uint64_t seed, std::uint64_t round) {
    const std::uint64_t key = mixKey(mixKey(seed, kDealTag), round);
    if (ruleset == Ruleset::Courtier) {
        // Uniform moves from the start; no opening of kCourtierOpening moves ends the game.
        const Rules rules = Rules::preset(Ruleset::Courtier);
        Position pos = Position::startpos(rules);
        for (int i = 0; i < kCourtierOpening && !pos.isOver(); ++i) {
            EventList events;
            pos.generate(events);
            const Uniform u{mixKey(key, 2 * i), mixKey(key, 2 * i + 1)};
            pos.apply(events[static_cast<int>(u.below(static_cast<std::uint64_t>(events.size())))]);
        }
        return pos.dfen();
    }
    std::string p1, p2;
    if (dealKeepsStartGroups(ruleset)) {
        std::array<char, 4> group1{'S', 'G', 'N', 'L'}, group2{'M', 'H', 'T', 'K'};
        shuffle(group1, mixKey(key, 1));
        shuffle(group2, mixKey(key, 2));
        p1.assign(group1.begin(), group1.end());
        p2.assign(group2.begin(), group2.end());
    } else {
        std::array<char, 8> all{'S', 'M', 'G', 'H', 'T', 'N', 'K', 'L'};
        shuffle(all, key);
        p1.assign(all.begin(), all.begin() + 4);
        p2.assign(all.begin() + 4, all.end());
    }
    // c1, c2..c5, c6 c7, c8..c11, c12
    return "./............/." + p1 + ".." + lowered(p2) + ". 1 2 0 1";
}

namespace {

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

std::string dealtDeal(const Rules& rules, std::uint64_t seed, std::uint64_t round) {
    if (!rules.fromCreatureFile()) return randomDeal(rules.ruleset(), seed, round);
    const std::uint64_t key = mixKey(mixKey(seed, kDealTag), round);
    std::array<std::string, 2> groups;
    for (int p = 0; p < 2; ++p) {
        std::array<char, 4> group{};
        for (int k = 0; k < 4; ++k)
            group[static_cast<std::size_t>(k)] =
                rules.letter(Piece(p == 0 ? Player::One : Player::Two,
                                   static_cast<Creature>(rules.creatures().start(p)[k])));
        shuffle(group, mixKey(key, 1 + static_cast<std::uint64_t>(p)));
        groups[static_cast<std::size_t>(p)].assign(group.begin(), group.end());
    }
    return "./............/." + groups[0] + ".." + groups[1] + ". 1 2 0 1";
}

}  // namespace

std::string randomDeal(const Rules& rules, std::uint64_t seed, std::uint64_t round) {
    const std::string dealt = dealtDeal(rules, seed, round);
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
