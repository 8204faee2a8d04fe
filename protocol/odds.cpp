#include "odds.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "policy.h"

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

namespace {

std::string boundText(const race::Bound& b) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "score %.4f  win %.4f", b.score, b.win);
    return buf;
}

// The splits a deal makes (RULES §3), each equally likely.
std::vector<Armies> dealSplits(const Rules& rules) {
    Armies groups;
    for (const int i : rules.creatures().start(0))
        groups.one.push_back(static_cast<Creature>(i));
    for (const int i : rules.creatures().start(1))
        groups.two.push_back(static_cast<Creature>(i));
    if (rules.dealKeepsStartGroups()) return {groups};
    std::vector<Creature> all = groups.one;
    all.insert(all.end(), groups.two.begin(), groups.two.end());
    std::sort(all.begin(), all.end());
    std::vector<Armies> splits;
    const unsigned n = static_cast<unsigned>(all.size());
    for (unsigned mask = 0; mask < (1u << n); ++mask) {
        if (std::popcount(mask) != static_cast<int>(n / 2)) continue;
        Armies a;
        for (unsigned i = 0; i < n; ++i)
            (mask >> i & 1 ? a.one : a.two).push_back(all[i]);
        splits.push_back(std::move(a));
    }
    return splits;
}

// Whether `sub` takes each of its creatures from a different one of `army`.
bool within(const tables::Army& sub, const std::vector<Creature>& army) {
    std::vector<Creature> left = army;
    for (int i = 0; i < sub.size(); ++i) {
        const auto it = std::ranges::find(left, sub[i]);
        if (it == left.end()) return false;
        left.erase(it);
    }
    return true;
}

// The exact small endings of two armies against a baseline, each army as the player: what
// race::KnownArmies answers from. Creatures the two armies share make the same game
// whichever army they came from, so one lookup serves both orientations.
class SmallEndings {
  public:
    SmallEndings(const Rules& rules, const Armies& armies, const ExactEndings& exact) {
        const tables::PolicyChoices policy = search::choicesModel(exact.player);
        constexpr double kTolerance = 1e-9;
        const std::array orientations{std::pair(armies.one, armies.two),
                                      std::pair(armies.two, armies.one)};
        std::array<tables::PolicyScope, 2> scopes;
        for (std::size_t k = 0; k < 2; ++k)
            scopes[k].maxPieces = exact.maxPieces;
        for (const tables::Material& m : exact.largest) {
            bool placed = false;
            for (std::size_t k = 0; k < 2; ++k)
                if (within(m.a, orientations[k].first) && within(m.b, orientations[k].second)) {
                    scopes[k].largest.push_back(m);
                    placed = true;
                }
            if (!placed)
                throw std::runtime_error(m.name() + " is not a set of these armies (the player's " +
                                         "creatures first)");
        }
        // Named sets of the largest size for one orientation only: the other solves none of
        // that size (an empty list would mean all of them).
        if (!exact.largest.empty())
            for (tables::PolicyScope& scope : scopes)
                if (scope.largest.empty()) scope.maxPieces = exact.maxPieces - 1;
        for (std::size_t k = 0; k < 2; ++k)
            for (const auto objective : {tables::Objective::Result, tables::Objective::Win}) {
                tables::PolicyScope scope = scopes[k];
                if (scope.maxPieces < 3) continue;
                if (exact.progress) {
                    const std::string what =
                        std::string("exact endings, player ") + (k == 0 ? "1" : "2") + "'s army, " +
                        (objective == tables::Objective::Result ? "score" : "wins") + ": sets";
                    scope.progress = [&exact, what](std::size_t done, std::size_t total) {
                        exact.progress(what, done, total);
                    };
                }
                sets_.push_back(std::make_unique<tables::PolicySets>(
                    rules, orientations[k].first, orientations[k].second, policy, objective,
                    kTolerance, exact.threads, false, nullptr, scope));
            }
    }

    [[nodiscard]] std::optional<race::Bound> operator()(std::span<const Creature> own,
                                                        std::span<const Creature> other) const {
        for (std::size_t k = 0; k + 1 < sets_.size(); k += 2)
            if (const auto b = tables::knownBound(*sets_[k], *sets_[k + 1], own, other)) return b;
        return std::nullopt;
    }

  private:
    std::vector<std::unique_ptr<tables::PolicySets>> sets_;
};

}  // namespace

std::vector<std::string> raceLines(const Rules& rules, const std::optional<Armies>& armies,
                                   const race::Opponent& opponent, race::Boxing boxing,
                                   const std::optional<ExactEndings>& exact) {
    if (!race::materialDecides(rules)) return {};
    race::WithoutMoveCache withoutMove;
    std::vector<std::string> out;
    const std::vector<Armies> splits = armies ? std::vector<Armies>{*armies} : dealSplits(rules);
    std::optional<SmallEndings> endings;
    race::KnownArmies known;
    if (exact) {
        if (splits.size() != 1)
            throw std::runtime_error(
                "exact endings are solved for two armies: name them, or take rules with one "
                "split");
        endings.emplace(rules, splits.front(), *exact);
        known = [&endings](std::span<const Creature> own, std::span<const Creature> other) {
            return (*endings)(own, other);
        };
    }
    if (armies) {
        const auto one =
            race::bound(rules, armies->one, armies->two, opponent, boxing, &withoutMove, known);
        const auto two =
            race::bound(rules, armies->two, armies->one, opponent, boxing, &withoutMove, known);
        if (!one || !two) return {};
        const std::string a = race::armyText(rules, armies->one, Player::One),
                          b = race::armyText(rules, armies->two, Player::Two);
        out.push_back("player 1 " + a + " against " + b + ": at most " + boundText(*one));
        out.push_back("player 2 " + b + " against " + a + ": at most " + boundText(*two));
        return out;
    }
    race::Bound sum, low{1, 1}, high{0, 0};
    for (const Armies& s : splits) {
        const auto b = race::bound(rules, s.one, s.two, opponent, boxing, &withoutMove, known);
        if (!b) return {};
        out.push_back(race::armyText(rules, s.one, Player::One) + " vs " +
                      race::armyText(rules, s.two, Player::Two) + "  " + boundText(*b));
        sum.score += b->score;
        sum.win += b->win;
        low = {std::min(low.score, b->score), std::min(low.win, b->win)};
        high = {std::max(high.score, b->score), std::max(high.win, b->win)};
    }
    if (splits.size() == 1) return out;
    const double n = static_cast<double>(splits.size());
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "mean of %zu equally likely splits: score %.4f (%.4f to %.4f)  win %.4f "
                  "(%.4f to %.4f)",
                  splits.size(), sum.score / n, low.score, high.score, sum.win / n, low.win,
                  high.win);
    out.push_back(buf);
    return out;
}

}  // namespace dejarik::protocol
