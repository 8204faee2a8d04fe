#include "endgame.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#endif

#include "generate.h"
#include "index.h"

namespace dejarik::protocol {

namespace {

std::string signedValue(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.3f", v);
    return buf;
}

// The position's armies as "KL v s", player 1 first.
std::string armies(const Position& pos) {
    return tables::Material{tables::Army::of(pos.army(Player::One)),
                            tables::Army::of(pos.army(Player::Two))}
        .name();
}

// Background work must not take the CPU from the search or a GUI: a low priority (19 by
// default) for this thread only (Linux gives threads their own nice value). A value below the
// process's own needs privilege; refused, the thread keeps the process's.
void setThreadNice(int nice) {
#ifdef __linux__
    (void)setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), nice);
#else
    (void)nice;
#endif
}

}  // namespace

std::filesystem::path tableRoot(const Settings& settings) {
    return settings.tablePath.empty() ? tables::defaultTablePath()
                                      : std::filesystem::path(settings.tablePath);
}

std::shared_ptr<tables::Tablebase> openTables(const Settings& settings, const Rules& rules,
                                              std::string* error) {
    // The tables solve Dejarik with the rulesets' own creatures; Courtier has none.
    if (!settings.tables || rules.courtier()) return nullptr;
    if (rules.fromCreatureFile()) {
        spdlog::info("no endgame tables under a CreatureFile: they cover the rulesets' own sets");
        return nullptr;
    }
    const std::filesystem::path root = tableRoot(settings);
    std::error_code ec;
    const auto status = std::filesystem::status(root, ec);
    if (std::filesystem::exists(status)) {
        if (!std::filesystem::is_directory(status)) {
            *error = "TablePath " + root.string() + " is not a folder: no endgame tables";
            return nullptr;
        }
        if (::access(root.c_str(), R_OK | X_OK) != 0) {
            *error = "TablePath " + root.string() + " cannot be read: no endgame tables";
            return nullptr;
        }
    }
    try {
        auto tb = std::make_shared<tables::Tablebase>(root, rules);
        for (const auto& problem : tb->problems())
            spdlog::warn("endgame table refused: {}", problem);
        spdlog::info("endgame tables: {} sets in {}", tb->sets().size(), tb->directory().string());
        return tb;
    } catch (const std::bad_alloc&) {
        *error = "TablePath " + root.string() + ": out of memory: no endgame tables";
        return nullptr;
    } catch (const std::exception& e) {
        *error = "TablePath " + root.string() + ": " + e.what() + ": no endgame tables";
        return nullptr;
    }
}

std::string tableLine(const tables::Tablebase* tb, const Position& pos) {
    if (pos.rules().courtier()) return "table: none (Courtier)";
    if (!tb) return "table: off";
    if (pos.phase() == Phase::Setup) return "table: none (a set-up is pending)";
    const int creatures = pos.occupied().count();
    if (creatures > tb->maxPieces())
        return "table: none (" + std::to_string(creatures) + " creatures)";
    const std::string name = "table " + armies(pos);
    const auto v = tb->probeWithDistance(pos);
    if (!v) return name + ": missing";
    const std::string value = name + ": " + signedValue(v->value) + " for player 1 ";
    const int drawTurns = pos.rules().drawTurns();
    if (drawTurns == 0) return value + "exact";
    // The search counts the value only when its attack comes before the quiet draw.
    const int left = 2 * drawTurns - static_cast<int>(pos.quiet());
    return value + "without the quiet draw, its attack in " + std::to_string(v->distance) +
           " actions, " + std::to_string(std::max(left, 0)) + " left before the draw" +
           (v->distance < left ? "" : ": not used");
}

bool TableGenerator::startFor(const std::shared_ptr<tables::Tablebase>& tb, const Position& pos,
                              int nice) {
    if (!tb || running_.load()) return false;
    const std::vector<tables::Material> missing = tables::missingSets(*tb, tables::setsFor(pos));
    if (missing.empty()) return false;
    if (thread_.joinable()) thread_.join();  // the last generation, finished
    running_.store(true);
    report_("info string tablegen: " + std::to_string(missing.size()) + " sets to make in " +
            tb->directory().string());
    try {
        thread_ = std::jthread([this, tb, missing, nice](std::stop_token stop) {
            setThreadNice(nice);
            const auto start = std::chrono::steady_clock::now();
            int done = 0;
            try {
                for (const tables::Material& m : missing) {
                    if (stop.stop_requested()) break;
                    if (tb->has(m)) continue;
                    const tables::SetResult r = tables::generateSet(*tb, m, {});
                    ++done;
                    char line[160];
                    std::snprintf(line, sizeof line,
                                  "info string tablegen [%d/%zu] %s: %u states in %.2f s", done,
                                  missing.size(), m.name().c_str(), r.states, r.seconds);
                    report_(line);
                }
                const double seconds =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                char line[160];
                std::snprintf(line, sizeof line, "info string tablegen %s: %d sets in %.1f s",
                              stop.stop_requested() ? "stopped" : "done", done, seconds);
                report_(line);
            } catch (const std::exception& e) {
                report_("info string error: tablegen: " + std::string(e.what()));
            }
            running_.store(false);
        });
    } catch (...) {
        running_.store(false);
        throw;
    }
    return true;
}

void TableGenerator::stop() {
    thread_.request_stop();
    if (!running_.load() && thread_.joinable()) thread_.join();  // finished: at once
}

}  // namespace dejarik::protocol
