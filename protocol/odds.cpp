#include "odds.h"

#include <cstdio>

namespace dejarik::protocol {

namespace {

// Label left-aligned, exact fraction right-aligned at column 41, as in PERFT.md.
std::string row(std::string_view name, const std::string& fraction) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%-11.*s%30s", static_cast<int>(name.size()), name.data(),
                  fraction.c_str());
    return buf;
}

}  // namespace

std::string decimal(Fraction f, int places) {
    using u128 = unsigned __int128;
    u128 scale = 1;
    for (int i = 0; i < places; ++i)
        scale *= 10;
    // round(num * scale / den), half up.
    const u128 scaled =
        (static_cast<u128>(f.num) * scale * 2 + f.den) / (static_cast<u128>(f.den) * 2);
    const auto whole = static_cast<std::uint64_t>(scaled / scale);
    auto frac = static_cast<std::uint64_t>(scaled % scale);
    std::string digits(static_cast<std::size_t>(places), '0');
    for (int i = places - 1; i >= 0; --i, frac /= 10)
        digits[static_cast<std::size_t>(i)] = static_cast<char>('0' + frac % 10);
    return std::to_string(whole) + (places > 0 ? "." + digits : "");
}

std::string oddsLine(const Position& pos, Event attack) {
    const auto& combat =
        pos.rules().combat(pos.at(attack.from()).creature(), pos.at(attack.to()).creature());
    std::string s = "odds " + attack.token();
    for (const Outcome o : kOutcomes) {
        s += ' ';
        s += outcomeName(o);
        s += ' ';
        s += decimal(combat.exact.fraction(o), 6);
    }
    return s;
}

std::string rollOddsLine(const Position& pos) {
    EventList rolls;
    pos.generate(rolls);
    std::string s = "odds roll";
    for (const Event e : rolls)
        s += ' ' + e.to().name() + ' ' +
             decimal(Fraction::reduced(static_cast<std::uint64_t>(rays::rollCount(e.to())),
                                       rays::kRollPairs),
                     6);
    return s;
}

std::vector<std::string> oddsTable(DiceModel model, int attack, int defence) {
    const AttackOdds odds = attackOdds(model, attack, defence);
    std::vector<std::string> out;
    out.push_back("dice=" + std::string(diceModelName(model)) +
                  " attack=" + std::to_string(attack) + " defence=" + std::to_string(defence));
    std::uint64_t sum = 0;
    for (const Outcome o : kOutcomes) {
        const Fraction f = odds.fraction(o);
        out.push_back(row(outcomeName(o), f.str()) + "  " + decimal(f, 6));
        sum += odds.count(o);
    }
    // Printed from the counts, not assumed: a table whose outcomes miss a roll shows it.
    out.push_back(row("sum", Fraction::reduced(sum, odds.total).str()));
    return out;
}

std::vector<std::string> showdownTable(DiceModel model, int p1Rating, int p2Rating) {
    const ShowdownOdds odds = showdownOdds(model, p1Rating, p2Rating);
    const Fraction r1 = Fraction::reduced(odds.p1Round, odds.total);
    const Fraction r2 = Fraction::reduced(odds.p2Round, odds.total);
    std::vector<std::string> out;
    out.push_back("dice=" + std::string(diceModelName(model)) + " p1 rating=" +
                  std::to_string(p1Rating) + " p2 rating=" + std::to_string(p2Rating));
    out.push_back("round: p1 wins " + r1.str() + " (" + decimal(r1, 6) + "), p2 wins " + r2.str() +
                  " (" + decimal(r2, 6) + ")");
    if (odds.drawn()) {
        out.push_back("no round can decide: the game is drawn");
        return out;
    }
    const Fraction w1 = odds.p1Wins(), w2 = odds.p2Wins();
    out.push_back("P(player 1 wins) = " + w1.str() + " = " + decimal(w1, 6));
    out.push_back("P(player 2 wins) = " + w2.str() + " = " + decimal(w2, 6));
    return out;
}

}  // namespace dejarik::protocol
