// dejarik-tb: generates, probes, verifies and lists the exact endgame tables
// (docs/tables.md).
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <time.h>
#include <algorithm>
#include <array>
#include <boost/program_options.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "command_line.h"
#include "generate.h"
#include "index.h"
#include "position.h"
#include "rules.h"
#include "symmetry.h"
#include "tablebase.h"

namespace po = boost::program_options;
using namespace dejarik;
using namespace dejarik::tables;

namespace {

constexpr int kExitFailure = 1;  // a check failed or a table is missing

using dejarik::tools::UsageError;  // reported once, by main

constexpr const char* kUsage =
    "Usage: dejarik-tb <command> [options]   (dejarik-tb <command> --help for its options)\n"
    "  generate  solve material sets and write their tables\n"
    "  probe     the exact value of a position and of each of its decisions\n"
    "  verify    re-check table files against the exact operator\n"
    "  info      list the tables present, their sizes and rule mixes\n";

struct Common {
    std::string path;
    std::string ruleset = "kelly";
    std::vector<std::string> options;
};

void addCommon(po::options_description& desc, Common& c, bool rules) {
    desc.add_options()("help,h", "show this help")(
        "path", po::value(&c.path),
        "table root (default $XDG_CACHE_HOME/dejarik/tables or ~/.cache/dejarik/tables)");
    if (rules)
        desc.add_options()("ruleset", po::value(&c.ruleset),
                           "kelly (default), dalsian-classic, dalsian or holochess")(
            "option", po::value(&c.options)->composing(),
            "a rule option as Name=Value (PROTOCOL.md names), repeatable");
}

// Parses a subcommand's flags; nothing when --help was shown.
std::optional<po::variables_map> parse(const std::vector<std::string>& args,
                                       const po::options_description& desc) {
    po::variables_map vm = tools::parseOptions(args, desc);
    if (vm.count("help")) {
        std::cout << desc << "\n";
        return std::nullopt;
    }
    return vm;
}

std::filesystem::path rootOf(const Common& c) {
    return c.path.empty() ? defaultTablePath() : std::filesystem::path(c.path);
}

Rules rulesOf(const Common& c) {
    RuleOptions o;
    if (auto err = o.set("Ruleset", c.ruleset)) throw UsageError{"--ruleset: " + *err};
    for (const auto& a : c.options)
        if (auto err = o.setAssignment(a)) throw UsageError{"--option " + *err};
    Rules rules(o);
    if (auto why = uncovered(rules)) throw UsageError{*why};
    return rules;
}

// Parses a subcommand that works under one rule mix: its Rules, or nothing after --help.
std::optional<Rules> parseForRules(const std::vector<std::string>& args,
                                   const po::options_description& desc, const Common& c) {
    if (!parse(args, desc)) return std::nullopt;
    return rulesOf(c);
}

std::string duration(double seconds) {
    char buf[32];
    if (seconds < 60)
        std::snprintf(buf, sizeof buf, "%.1fs", seconds);
    else if (seconds < 3600)
        std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(seconds) / 60,
                      static_cast<int>(seconds) % 60);
    else
        std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(seconds) / 3600,
                      static_cast<int>(seconds) / 60 % 60);
    return buf;
}

std::string bytesText(std::uint64_t bytes) {
    char buf[32];
    if (bytes < 10 * 1024)
        std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
    else if (bytes < 10ull * 1024 * 1024)
        std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(bytes) / 1024);
    else
        std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1024 * 1024));
    return buf;
}

void setUpLogging() {
    auto logger = spdlog::stderr_logger_mt("dejarik-tb");
    logger->set_pattern("%v");
    spdlog::set_default_logger(logger);
}

int runGenerate(const std::vector<std::string>& args) {
    Common c;
    std::vector<std::string> materials;
    int maxPieces = 0, threads = 1;
    po::options_description desc(
        "Usage: dejarik-tb generate [--ruleset R] [--option Name=Value]...\n"
        "                           (--material \"SG v n\"... | --max-pieces K) [--threads N]\n"
        "                           [--path DIR]\n"
        "Solves the material sets asked for, and the smaller sets their captures lead to, and\n"
        "writes one table file per set under DIR/<rules fingerprint>/. Sets already there are\n"
        "kept. One progress line per set on stderr.\nOptions");
    addCommon(desc, c, true);
    desc.add_options()("material", po::value(&materials)->composing(),
                       "a set as \"SG v n\" (player 1's creatures v player 2's), repeatable")(
        "max-pieces", po::value(&maxPieces),
        "every set of 3..K distinct creatures (K = 3, 4 or 5), as standard deals reach")(
        "threads", po::value(&threads), "sets solved at once (default 1)");
    const auto vm = parse(args, desc);
    if (!vm) return 0;
    if (materials.empty() == !vm->count("max-pieces"))
        throw UsageError{"give either --material or --max-pieces"};
    if (vm->count("max-pieces") && (maxPieces < 3 || maxPieces > kMaxPieces))
        throw UsageError{"--max-pieces must be 3, 4 or 5"};
    if (threads < 1 || threads > 256) throw UsageError{"--threads must be 1 to 256"};
    std::vector<Material> wanted;
    for (const auto& text : materials) {
        std::string error;
        const auto m = parseMaterial(text, &error);
        if (!m) throw UsageError{"--material: " + error};
        wanted.push_back(*m);
    }
    if (vm->count("max-pieces")) wanted = distinctSets(maxPieces);

    const Rules rules = rulesOf(c);
    setUpLogging();
    Tablebase tb(rootOf(c), rules);
    for (const auto& p : tb.problems())
        spdlog::warn("ignored (will be made again): {}", p);
    const auto todo = missingSets(tb, wanted);
    // The directory made before the header line, so that a path no table can be written
    // under fails with one line, not after a progress line or the first set's work.
    if (std::error_code ec; !todo.empty() && !std::filesystem::is_directory(tb.directory(), ec) &&
                            !std::filesystem::create_directories(tb.directory(), ec))
        throw UsageError{"--path " + rootOf(c).string() + ": cannot create " +
                         tb.directory().string() + ": " + ec.message()};
    spdlog::info("{} under {}: {} sets wanted, {} to generate, {} threads", ruleAssignments(rules),
                 tb.directory().string(), wanted.size(), todo.size(), threads);
    GenerateOptions options;
    options.threads = threads;
    const auto start = std::chrono::steady_clock::now();
    const auto results = generate(tb, wanted, options, [](const SetResult& r, const Progress& p) {
        const double rate = r.seconds > 0 ? r.states / r.seconds : 0;
        const double eta = p.statesDone > 0
                               ? p.elapsed * static_cast<double>(p.statesTotal - p.statesDone) /
                                     static_cast<double>(p.statesDone)
                               : 0;
        spdlog::info(
            "[{}/{}] {:<10} {:>7} states {:>8} {:>7.2f}s {:>9.0f} states/s  {:>4} it  "
            "residual {:.1e}{}  ETA {}",
            p.done, p.total, r.material.name(), r.states, bytesText(r.bytes), r.seconds, rate,
            r.solve.iterations, r.solve.residual, r.solve.converged ? "" : " (NOT converged)",
            duration(eta));
    });
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::uint64_t bytes = 0, states = 0;
    int unconverged = 0;
    for (const auto& r : results) {
        bytes += r.bytes;
        states += r.states;
        unconverged += r.solve.converged ? 0 : 1;
    }
    spdlog::info("generated {} sets, {} states, {} in {}{}", results.size(), states,
                 bytesText(bytes), duration(seconds),
                 unconverged ? " (" + std::to_string(unconverged) + " not converged)" : "");
    return unconverged ? kExitFailure : 0;
}

std::string signedValue(double v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%+.4f", v);
    return buf;
}

std::string playerName(Player p) {
    return p == Player::One ? "player 1" : "player 2";
}

// Why `pos` (named `what`) has no table value, on stderr; returns the exit code. A table file
// that is there but did not load is named as corrupt: "no table" would send the user to make
// one that generate believes is already made.
int noTable(const Tablebase& tb, const Position& pos, const std::string& what) {
    const auto m = materialOf(pos);
    const std::string make =
        "dejarik-tb generate --material \"" + (m ? m->name() : "?") + "\" and the same rules";
    const std::string file = m ? tb.fileOf(*m).string() + ": " : std::string();
    const auto problems = tb.problems();
    const auto bad = std::find_if(problems.begin(), problems.end(), [&](const std::string& p) {
        return !file.empty() && p.starts_with(file);
    });
    if (bad != problems.end())
        std::cerr << "dejarik-tb: error: corrupt table file for " << what << ": " << *bad
                  << "; make it again with: " << make << "\n";
    else
        std::cerr << "dejarik-tb: error: no table for " << what << " under "
                  << tb.directory().string() << "; make it with: " << make << "\n";
    return kExitFailure;
}

int runProbe(const std::vector<std::string>& args) {
    Common c;
    std::string dfen, moves;
    po::options_description desc(
        "Usage: dejarik-tb probe [--ruleset R] [--option Name=Value]... --dfen D\n"
        "                        [--moves \"e1 e2 ...\"] [--path DIR]\n"
        "Prints the table value of a position with at most 5 creatures and of each of its\n"
        "decisions (or outcomes), ranked, from the view of the player who decides, each with\n"
        "its distance: the actions before the attack that realises the value (the side it\n"
        "serves hurries, the other delays). Values are exact without the quiet draw\n"
        "(DrawTurns 0).\nOptions");
    addCommon(desc, c, true);
    desc.add_options()("dfen", po::value(&dfen), "the position (quote it: it has spaces)")(
        "moves", po::value(&moves), "events to play first, space-separated");
    const auto parsed = parseForRules(args, desc, c);
    if (!parsed) return 0;
    if (dfen.empty()) throw UsageError{"--dfen is required"};
    const Rules& rules = *parsed;
    std::string error;
    const auto start = Position::fromDfen(dfen, rules, &error);
    if (!start) throw UsageError{"--dfen: " + error};
    const auto pos = playTokens(*start, moves, &error);
    if (!pos) throw UsageError{"--moves: " + error};
    const int pieces = pos->occupied().count();
    if (pieces > kMaxPieces)
        throw UsageError{"--dfen: " + std::to_string(pieces) +
                         " creatures; the tables hold at most " + std::to_string(kMaxPieces)};

    const Tablebase tb(rootOf(c), rules);
    const auto entry = tb.probeWithDistance(*pos);
    if (!entry) return noTable(tb, *pos, "this position");
    std::cout << "rules    " << ruleAssignments(tb.rules()) << "\n";
    std::cout << "position " << start->dfen() << (moves.empty() ? "" : " moves " + moves) << "\n";
    const Player who = pos->phase() == Phase::Outcome ? pos->sideToMove() : pos->decider();
    const auto view = [&](double v) { return who == Player::One ? v : -v; };
    if (pos->isOver()) {
        std::cout << "value    " << signedValue(entry->value)
                  << " for player 1 (the game is over)\n";
        return 0;
    }
    std::cout << "value    " << signedValue(view(entry->value)) << " for " << playerName(who)
              << (pos->phase() == Phase::Outcome ? " (on turn; chance decides next)" : "")
              << (rules.drawTurns() > 0 ? "; exact under DrawTurns 0, this position's quiet "
                                          "counter is not counted"
                                        : "; exact")
              << "\n";
    std::cout << "distance " << entry->distance
              << (entry->distance >= static_cast<int>(kDistanceCap) ? " or more" : "")
              << " actions to the attack that realises it\n";
    EventList events;
    pos->generate(events);
    struct Line {
        Event event;
        double value;
        double probability;
        int distance;
    };
    std::vector<Line> lines;
    for (const Event e : events) {
        Position child = *pos;
        child.apply(e);
        const auto v = tb.probeWithDistance(child);
        if (!v) return noTable(tb, child, "the position after " + e.token());
        // A move or a pass is one action more; an attack is the awaited event itself, and
        // the outcomes after it start afresh.
        const bool action =
            pos->phase() == Phase::Decision && e.kind() != EventKind::Attack && !child.isOver();
        lines.push_back({e, view(v->value),
                         pos->phase() == Phase::Outcome ? pos->probability(e) : 0,
                         v->distance + (action ? 1 : 0)});
    }
    if (pos->phase() == Phase::Outcome) {
        std::cout << "outcome       probability    value  distance\n";
        for (const auto& l : lines)
            std::printf("%-12s  %11.6f  %s  %8d\n", l.event.token().c_str(), l.probability,
                        signedValue(l.value).c_str(), l.distance);
        return 0;
    }
    // Best first; of equal values, the way the decider takes: the shortest to a value that
    // serves it, the longest to one that does not.
    std::stable_sort(lines.begin(), lines.end(), [](const Line& x, const Line& y) {
        if (x.value != y.value) return x.value > y.value;
        return x.value > 0 ? x.distance < y.distance : x.distance > y.distance;
    });
    std::cout << "rank  decision     value  distance\n";
    for (std::size_t k = 0; k < lines.size(); ++k)
        std::printf("%4zu  %-10s %s  %8d\n", k + 1, lines[k].event.token().c_str(),
                    signedValue(lines[k].value).c_str(), lines[k].distance);
    return 0;
}

// The rule mixes present under a root: fingerprint directory -> the rule line of its
// first readable file.
std::map<std::filesystem::path, std::string> mixesUnder(const std::filesystem::path& root) {
    std::map<std::filesystem::path, std::string> out;
    std::error_code ec;
    for (const auto& dir : std::filesystem::directory_iterator(root, ec)) {
        if (!dir.is_directory()) continue;
        std::vector<std::filesystem::path> files;
        for (const auto& f : std::filesystem::directory_iterator(dir.path(), ec))
            if (f.path().extension() == ".dtb") files.push_back(f.path());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) {
            if (auto t = TableFile::open(f, nullptr)) {
                out[dir.path()] = t->header().rules;
                break;
            }
        }
        if (!out.count(dir.path())) out[dir.path()] = "";
    }
    return out;
}

int runVerify(const std::vector<std::string>& args) {
    Common c;
    std::vector<std::string> materials;
    po::options_description desc(
        "Usage: dejarik-tb verify [--path DIR] [--ruleset R [--option Name=Value]...]\n"
        "                         [--material \"SG v n\"]...\n"
        "Re-checks table files: each must load (size, checksums, header) and its values must\n"
        "be a fixed point of the exact operator (recomputed from the stored values) within\n"
        "the stored precision. Without --ruleset, every rule mix under DIR. Exit 1 if any\n"
        "check fails.\nOptions");
    addCommon(desc, c, true);
    desc.add_options()("material", po::value(&materials)->composing(), "only this set, repeatable");
    const auto vm = parse(args, desc);
    if (!vm) return 0;
    std::vector<Material> only;
    for (const auto& text : materials) {
        std::string error;
        const auto m = parseMaterial(text, &error);
        if (!m) throw UsageError{"--material: " + error};
        only.push_back(m->canonical());
    }
    const auto root = rootOf(c);
    std::vector<Rules> mixes;
    int failedDirs = 0;
    if (vm->count("ruleset") || vm->count("option")) {
        mixes.push_back(rulesOf(c));
    } else {
        for (const auto& [dir, line] : mixesUnder(root)) {
            std::string error;
            const auto rules = rulesFromAssignments(line, &error);
            if (line.empty() || !rules) {
                // Nothing to take the rules from: every file there is unusable; say why.
                std::error_code ec;
                for (const auto& f : std::filesystem::directory_iterator(dir, ec)) {
                    if (f.path().extension() != ".dtb") continue;
                    std::string why;
                    if (TableFile::open(f.path(), &why))
                        why = f.path().string() + ": its rule options are refused: " + error;
                    std::cout << "FAIL " << why << "\n";
                    ++failedDirs;
                }
                continue;
            }
            mixes.push_back(*rules);
        }
    }
    int checked = 0, failed = failedDirs;
    for (const Rules& rules : mixes) {
        const Tablebase tb(root, rules);
        std::cout << "rules " << ruleAssignments(tb.rules()) << " in " << tb.directory().string()
                  << "\n";
        for (const auto& p : tb.problems()) {
            std::cout << "FAIL " << p << "\n";
            ++failed;
        }
        std::vector<Material> sets = only.empty() ? tb.sets() : only;
        for (const Material& m : sets) {
            const auto r = verify(tb, m);
            ++checked;
            char line[200];
            std::snprintf(line, sizeof line,
                          "%s %-10s max |T(V)-V| %.3e (tolerance %.3e), %u wrong distances",
                          r.ok ? "ok  " : "FAIL", m.name().c_str(), r.deviation, r.tolerance,
                          r.distanceErrors);
            std::cout << line << (r.ok ? "" : ": " + r.problem) << "\n";
            failed += r.ok ? 0 : 1;
        }
    }
    std::cout << checked << " sets checked, " << failed << " failures\n";
    // Nothing to check is no pass: a wrong --path or --ruleset must not read as verified.
    if (checked == 0 && failed == 0) {
        std::cerr << "dejarik-tb: error: no tables to verify under " << root.string() << "\n";
        return kExitFailure;
    }
    return failed ? kExitFailure : 0;
}

int runInfo(const std::vector<std::string>& args) {
    Common c;
    po::options_description desc(
        "Usage: dejarik-tb info [--path DIR]\n"
        "Lists the rule mixes under DIR and each mix's sets: states, file size, the solve's\n"
        "iterations and residual, and its time.\nOptions");
    addCommon(desc, c, false);
    const auto vm = parse(args, desc);
    if (!vm) return 0;
    const auto root = rootOf(c);
    const auto mixes = mixesUnder(root);
    std::cout << "table root " << root.string() << ": " << mixes.size() << " rule mixes\n";
    for (const auto& [dir, line] : mixes) {
        std::cout << "\n" << dir.filename().string() << "  " << line << "\n";
        std::vector<std::filesystem::path> files;
        std::error_code ec;
        for (const auto& f : std::filesystem::directory_iterator(dir, ec))
            if (f.path().extension() == ".dtb") files.push_back(f.path());
        std::sort(files.begin(), files.end());
        std::map<std::string, std::array<double, 4>> byType;  // sets, states, bytes, seconds
        for (const auto& f : files) {
            std::string error;
            const auto t = TableFile::open(f, &error);
            if (!t) {
                std::cout << "  unusable: " << error << "\n";
                continue;
            }
            const auto& h = t->header();
            char text[256];
            std::snprintf(text, sizeof text,
                          "  %-10s %7u states %10s  %5u pairs in %2u bits  %5u it  residual "
                          "%.1e  stored %.1e  contraction %.3f  %.2fs%s",
                          h.material.name().c_str(), h.states, bytesText(t->bytes()).c_str(),
                          h.entries, codeBits(h.entries), h.iterations, h.residual,
                          h.storedResidual, h.contraction, h.seconds,
                          h.converged ? "" : "  NOT converged");
            std::cout << text << "\n";
            auto& s = byType[std::to_string(h.material.a.size()) + "v" +
                             std::to_string(h.material.b.size())];
            s[0] += 1;
            s[1] += h.states;
            s[2] += static_cast<double>(t->bytes());
            s[3] += h.seconds;
        }
        double total = 0;
        for (const auto& [type, s] : byType) {
            char text[160];
            std::snprintf(text, sizeof text,
                          "  %s: %.0f sets, %.0f states, %s, %.1fs (mean %.2fs per set)",
                          type.c_str(), s[0], s[1],
                          bytesText(static_cast<std::uint64_t>(s[2])).c_str(), s[3], s[3] / s[0]);
            std::cout << text << "\n";
            total += s[2];
        }
        char sizes[80];
        std::snprintf(sizes, sizeof sizes, "  total %s (%.1f MB)",
                      bytesText(static_cast<std::uint64_t>(total)).c_str(), total / 1e6);
        std::cout << sizes << "\n";
    }
    return 0;
}

// Hidden: probe timing for tools/bench-tables.
int runBenchProbe(const std::vector<std::string>& args) {
    Common c;
    int probes = 1000000;
    std::string single;
    po::options_description desc(
        "Usage: dejarik-tb bench-probe [--ruleset R] [--option ...]\n"
        "  [--path DIR] [--probes N] [--material \"SG v nk\"]\nOptions");
    addCommon(desc, c, true);
    desc.add_options()("probes", po::value(&probes), "probes to time")(
        "material", po::value(&single), "only positions of this set (else every set present)");
    const auto parsed = parseForRules(args, desc, c);
    if (!parsed) return 0;
    const Rules& rules = *parsed;
    const Tablebase tb(rootOf(c), rules);
    std::vector<Material> sets = tb.sets();
    if (!single.empty()) {
        std::string error;
        const auto m = parseMaterial(single, &error);
        if (!m) throw UsageError{"--material: " + error};
        if (!tb.has(*m)) throw UsageError{"--material: " + m->name() + " is not present"};
        sets = {m->canonical()};
    }
    if (sets.empty()) throw UsageError{"no tables under " + tb.directory().string()};
    // Random decision positions of the sets, made before the timing (DFEN parsing is slow):
    // stored states, and apart from them the derived ones (CentreWin: the mover's counter
    // up with one action left), whose probes read about 30 stored states each.
    std::mt19937_64 rng(42);
    const int distinct = 1 << 16;
    std::array<std::vector<Position>, 2> positions;  // stored, derived
    for (int kind = 0; kind < 2; ++kind) {
        for (int tries = 0;
             static_cast<int>(positions[kind].size()) < distinct && tries < 8 * distinct; ++tries) {
            const Material& m = sets[rng() % sets.size()];
            const Table* t = tb.table(m);
            const std::uint32_t derived = t->layout.size() - t->layout.storedSize();
            if (kind == 1 && derived == 0) continue;
            const std::uint32_t state =
                kind == 0 ? static_cast<std::uint32_t>(rng() % t->layout.storedSize())
                          : t->layout.storedSize() + static_cast<std::uint32_t>(rng() % derived);
            auto pos = Position::fromDfen(stateDfen(m, t->layout, state), tb.rules());
            // A random symmetry and colour swap, so that the probe does the folding.
            Transform tr{Symmetry::fromIndex(static_cast<int>(rng() % 24)), (rng() & 1) != 0};
            positions[kind].push_back(transform(*pos, tr));
        }
    }
    // CPU time as well as wall time: on a shared machine the wall clock counts other work.
    const auto cpuNow = [] {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
    };
    int answered = 0, asked = 0;
    // The same probes of the mapped files and of their copy in huge pages, side by side.
    const Tablebase huge(rootOf(c), rules, TableMemory::HugePages);
    struct Run {
        const char* name;
        const Tablebase* base;
        int ahead;  // 0: each probe on its own
    };
    for (const auto& [memoryName, base, ahead] :
         {Run{"mapped files", &tb, 0}, Run{"huge pages", &huge, 0},
          Run{"huge pages, prefetched 4 probes ahead", &huge, 4}}) {
        for (int kind = 0; kind < 2; ++kind) {
            const auto& list = positions[kind];
            if (list.empty()) continue;
            const int n = kind == 0 ? probes : std::max(1, probes / 30);
            double sum = 0;
            const double cpuStart = cpuNow();
            const auto start = std::chrono::steady_clock::now();
            for (int i = 0; i < n; ++i) {
                // Pipelined: the entry of the probe `ahead` places on is loaded meanwhile.
                if (ahead > 0)
                    base->prefetch(list[static_cast<std::size_t>(i + ahead) % list.size()]);
                const auto v = base->probe(list[static_cast<std::size_t>(i) % list.size()]);
                if (v) {
                    sum += *v;
                    ++answered;
                }
            }
            asked += n;
            const double ns =
                std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start)
                    .count();
            const double cpu = cpuNow() - cpuStart;
            std::printf(
                "%s: %d probes of %zu random %s decision positions over %zu sets: %.1f ns "
                "cpu, %.1f ns wall per probe (checksum %.3f)\n",
                memoryName, n, list.size(), kind == 0 ? "stored" : "derived (hold, 1 action)",
                sets.size(), cpu / n, ns / n, sum);
        }
    }
    if (answered != asked) std::printf("%d probes unanswered\n", asked - answered);
    return answered == asked ? 0 : kExitFailure;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    try {
        if (args.empty()) throw UsageError{"no command (generate, probe, verify, info; --help)"};
        if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
            std::cout << kUsage;
            return 0;
        }
        const std::string command = args[0];
        args.erase(args.begin());
        if (command == "generate") return runGenerate(args);
        if (command == "probe") return runProbe(args);
        if (command == "verify") return runVerify(args);
        if (command == "info") return runInfo(args);
        if (command == "bench-probe") return runBenchProbe(args);
        throw UsageError{"unknown command '" + command + "' (generate, probe, verify, info)"};
    } catch (const UsageError& e) {
        return tools::usageError("dejarik-tb", e.message);
    } catch (const std::exception& e) {
        std::cerr << "dejarik-tb: error: " << e.what() << "\n";
        return kExitFailure;
    }
}
