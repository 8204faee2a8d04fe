#include "endings.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "analysis.h"
#include "parallel.h"
#include "policy.h"
#include "symmetry.h"

namespace dejarik::arena {

namespace {

// The first position of a game's small ending, the player as player 1.
struct Entry {
    const Rules* rules = nullptr;
    Position position;
    double points = 0;
    std::string key;  // the rules and the material: which solution values it
};

std::string countOf(const Position& pos) {
    return std::to_string(pos.pieces(Player::One).count()) + "v" +
           std::to_string(pos.pieces(Player::Two).count());
}

void add(EndingsRow& row, double exact, double points) {
    ++row.games;
    row.exact += exact;
    row.scored += points;
    row.squares += (points - exact) * (points - exact);
}

void finish(EndingsRow& row) {
    if (row.games == 0) return;
    const double n = static_cast<double>(row.games);
    row.exact /= n;
    row.scored /= n;
    const double gap = row.scored - row.exact;
    row.squares =
        row.games > 1 ? std::sqrt(std::max(0.0, (row.squares - n * gap * gap) / (n - 1))) : 0.0;
}

}  // namespace

std::optional<Endings> analyseEndings(const std::vector<GameRecord>& records,
                                      const EndingsOptions& options, std::string& error) {
    RulesCache rulesCache;
    std::vector<Entry> entries;
    Endings endings;
    const auto visit = [&](const GameRecord& record, Player me, const Rules& rules) {
        if (rules.drawTurns() <= 0 || rules.centreWin() > 0 || rules.courtier()) {
            error =
                "endings are solved with the quiet draw and without CentreWin or "
                "Courtier, not under " +
                record.rules;
            return false;
        }
        ++endings.games;
        std::optional<Position> first;
        const bool replayed = forEachEvent(
            record, rules,
            [&](const RecordedEvent&, Event, const Position&, const Position& after) {
                // Values are solved at quiet 0: after a kill, or later after an attack.
                if (first || after.isOver() || after.phase() != Phase::Decision ||
                    after.occupied().count() > tables::kDefaultMaxPieces || after.quiet() != 0)
                    return;
                first = me == Player::One ? after : transform(after, Transform{{}, true});
            },
            error);
        if (!replayed) return false;
        if (!first) return true;
        const tables::Material m{tables::Army::of(first->army(Player::One)),
                                 tables::Army::of(first->army(Player::Two))};
        entries.push_back(
            {&rules, *first, pointsFor(record.outcome, me), record.rules + " " + m.name()});
        return true;
    };
    if (!forEachGameOf(records, options.player, rulesCache, visit, error)) return std::nullopt;
    if (endings.games == 0) {
        error = "no finished game of '" + options.player + "' in the records";
        return std::nullopt;
    }

    // Each material once, solved with its captures, the materials spread over the threads.
    std::map<std::string, std::unique_ptr<tables::PolicySets>> solved;
    std::vector<const Entry*> todo;
    for (const Entry& e : entries)
        if (solved.try_emplace(e.key).second) todo.push_back(&e);
    const tables::PolicyChoices policy = search::choicesModel(options.against);
    tables::forEachIndex(0, todo.size(), options.threads, [&](std::size_t k) {
        const Entry& e = *todo[k];
        // The slot exists: assigning it changes no node of the map.
        solved.at(e.key) = std::make_unique<tables::PolicySets>(
            *e.rules, e.position.army(Player::One), e.position.army(Player::Two), policy,
            tables::Objective::Result, 1e-9, 1);
    });

    for (const Entry& e : entries) {
        const auto v = solved.at(e.key)->value(e.position);
        if (!v) throw std::logic_error("endings: no value for " + e.position.dfen());
        const double exact = (*v + 1) / 2;
        add(endings.byCount[countOf(e.position)], exact, e.points);
        add(endings.all, exact, e.points);
    }
    for (auto& [count, row] : endings.byCount)
        finish(row);
    finish(endings.all);
    return endings;
}

std::string formatEndings(const Endings& endings, const EndingsOptions& options) {
    const char* against = search::kBaselineNames[static_cast<std::size_t>(options.against)].data();
    std::string out;
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "%s's games against %s that reach four creatures or fewer: the first position "
                  "there valued\nexactly against %s (the best play's score from it, with the "
                  "quiet draw), and the points %s scored\n\n",
                  options.player.c_str(), against, against, options.player.c_str());
    out += buf;
    out += "ending  games   exact  scored  scored - exact [95%]\n";
    const auto line = [&](const std::string& name, const EndingsRow& row) {
        std::snprintf(buf, sizeof buf, "%-6s  %5lld  %6.4f  %6.4f  %+.4f", name.c_str(),
                      static_cast<long long>(row.games), row.exact, row.scored,
                      row.scored - row.exact);
        out += buf;
        if (row.games > 1) {  // one game has no spread to show
            std::snprintf(buf, sizeof buf, " ± %.4f",
                          1.96 * row.squares / std::sqrt(static_cast<double>(row.games)));
            out += buf;
        }
        out += '\n';
    };
    for (const auto& [count, row] : endings.byCount)
        line(count, row);
    line("all", endings.all);
    std::snprintf(buf, sizeof buf, "\n%lld of %lld games reached no such ending\n",
                  static_cast<long long>(endings.games - endings.all.games),
                  static_cast<long long>(endings.games));
    out += buf;
    return out;
}

}  // namespace dejarik::arena
