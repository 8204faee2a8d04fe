#include "ends.h"

#include <algorithm>
#include <cstdio>

#include "analysis.h"

namespace dejarik::arena {

namespace {

std::vector<Creature> army(const Position& pos, Player p) {
    std::vector<Creature> out = pos.army(p);
    std::ranges::sort(out);
    return out;
}

}  // namespace

std::optional<Ends> analyseEnds(const std::vector<GameRecord>& records, const EndsOptions& options,
                                std::string& error) {
    Ends ends;
    RulesCache rulesCache;
    race::WithoutMoveCache withoutMove;
    std::int64_t read = 0;
    const auto visit = [&](const GameRecord& record, Player me, const Rules& rules) {
        const Player them = opponent(me);
        if (!race::materialDecides(rules)) {
            error = "the race bound does not answer under " + record.rules +
                    " (CentreWin, Rays of Death or Courtier)";
            return false;
        }
        const race::Opponent model =
            options.against ? search::raceModel(*options.against, rules) : race::Opponent{};
        const auto bound = [&](const Position& pos) {
            const auto own = army(pos, me), other = army(pos, them);
            if (other.empty()) return 1.0;
            if (own.empty()) return 0.0;
            const auto b = race::bound(rules, own, other, model, options.boxing, &withoutMove);
            return b ? b->score : 0.5;  // an army beyond kMaxArmy: no claim either way
        };
        const auto deal = recordStart(record, rules, error);
        if (!deal) return false;
        const double start = bound(*deal);
        double last = start;
        std::optional<Fall> fall;
        std::string fallText;
        Player attacker = me;
        const bool replayed = forEachEvent(
            record, rules,
            [&](const RecordedEvent&, Event event, const Position& before, const Position& after) {
                if (event.kind() == EventKind::Attack) attacker = before.sideToMove();
                const bool lostMine = after.pieces(me).count() < before.pieces(me).count();
                if (!lostMine && after.pieces(them).count() == before.pieces(them).count()) return;
                const double now = bound(after);
                if (!fall && last >= options.below && now < options.below) {
                    const bool ownAttack = attacker == me;
                    fall = ownAttack ? (lostMine ? Fall::OwnAttackLost : Fall::OwnAttackWon)
                                     : (lostMine ? Fall::TheirAttackWon : Fall::TheirAttackLost);
                    const auto side = [&](const Position& p) {
                        const auto a = army(p, me), b = army(p, them);
                        return std::to_string(a.size()) + "v" + std::to_string(b.size()) + " " +
                               race::armyText(rules, a, Player::One) + "/" +
                               race::armyText(rules, b, Player::Two);
                    };
                    fallText = side(before) + " -> " + side(after) + ", " +
                               (ownAttack ? "own attack" : "their attack");
                }
                last = now;
            },
            error);
        if (!replayed) return false;
        if (!fall) fall = start < options.below ? Fall::NeverAbove : Fall::Never;
        const double points = pointsFor(record.outcome, me);
        EndsRow& row = ends.byResult[points == 1 ? 0 : points == 0 ? 2 : 1];
        ++row.games;
        row.startBound += start;
        row.finalBound += last;
        if (last < options.below) ++row.finalLow;
        ++row.falls[static_cast<int>(*fall)];
        if (!fallText.empty() && points < 1) ++ends.fallArmies[fallText];
        ++read;
        return true;
    };
    if (!forEachGameOf(records, options.player, rulesCache, visit, error)) return std::nullopt;
    if (read == 0) {
        error = "no finished game of '" + options.player + "' in the records";
        return std::nullopt;
    }
    for (EndsRow& row : ends.byResult)
        if (row.games > 0) {
            row.startBound /= static_cast<double>(row.games);
            row.finalBound /= static_cast<double>(row.games);
        }
    return ends;
}

std::string formatEnds(const Ends& ends, const EndsOptions& options) {
    std::string out;
    char buf[256];
    const std::string against =
        options.against
            ? std::string(search::kBaselineNames[static_cast<std::size_t>(*options.against)]) +
                  (options.boxing == race::Boxing::Never ? ", never boxed in" : "")
            : "any opponent";
    std::snprintf(buf, sizeof buf,
                  "%s's games: the race bound of its army against the other's (%s), and the kill "
                  "after which it first fell below %.2f\n\n",
                  options.player.c_str(), against.c_str(), options.below);
    out += buf;
    out +=
        "result  games  bound at start  at end  end below   fell by: own attack lost  "
        "their attack won  own attack won  their attack lost  never  never above\n";
    static constexpr std::array<const char*, 3> kResults = {"won", "drawn", "lost"};
    for (int r = 0; r < 3; ++r) {
        const EndsRow& row = ends.byResult[static_cast<std::size_t>(r)];
        std::snprintf(buf, sizeof buf,
                      "%-6s  %5lld  %14.4f  %6.4f  %9lld  %26lld  %16lld  %14lld  %17lld  %5lld  "
                      "%11lld\n",
                      kResults[static_cast<std::size_t>(r)], static_cast<long long>(row.games),
                      row.startBound, row.finalBound, static_cast<long long>(row.finalLow),
                      static_cast<long long>(row.falls[0]), static_cast<long long>(row.falls[1]),
                      static_cast<long long>(row.falls[2]), static_cast<long long>(row.falls[3]),
                      static_cast<long long>(row.falls[4]), static_cast<long long>(row.falls[5]));
        out += buf;
    }
    std::vector<std::pair<std::int64_t, std::string>> common;
    for (const auto& [text, n] : ends.fallArmies)
        common.emplace_back(n, text);
    std::ranges::sort(common, [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    if (!common.empty() && options.most > 0)
        out += "\nthe falls in games not won, most common first (player's army upper case):\n";
    for (std::size_t i = 0; i < common.size() && i < static_cast<std::size_t>(options.most); ++i) {
        std::snprintf(buf, sizeof buf, "%5lld  %s\n", static_cast<long long>(common[i].first),
                      common[i].second.c_str());
        out += buf;
    }
    return out;
}

}  // namespace dejarik::arena
