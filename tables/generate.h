// Making and checking table files: the generator (the CLI and, in the engine, the
// background TableGen call it) and `verify`.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "material.h"
#include "solver.h"
#include "tablebase.h"

namespace dejarik::tables {

struct GenerateOptions {
    int threads = 1;            // sets solved at once
    double tolerance = 1e-9;    // the residual max |T(V) - V| to reach
    int maxIterations = 20000;  // applications of T before giving up on convergence
};

struct SetResult {
    Material material;
    std::uint32_t states = 0;
    std::uint64_t edges = 0;    // attack-free successor edges
    std::uint64_t attacks = 0;  // attack exits
    std::uint64_t bytes = 0;    // the file
    double seconds = 0;         // wall time of this set
    SolveReport solve;
    double storedResidual = 0;  // max |T(V) - V| of the stored (rounded) values
};

struct Progress {
    int done = 0;
    int total = 0;
    std::uint64_t statesDone = 0;
    std::uint64_t statesTotal = 0;
    double elapsed = 0;  // seconds since the generation started
};
using ProgressFn = std::function<void(const SetResult&, const Progress&)>;

// Solves one set whose capture sets are loaded in `tb`, writes its file to tb's directory
// and loads it. Throws std::runtime_error (a missing capture set, an I/O failure).
SetResult generateSet(Tablebase& tb, const Material& m, const GenerateOptions& options);

// Generates every set of `wanted` missing from `tb`, with the missing sets their captures
// lead to, fewer pieces first and up to options.threads sets at once. Calls `progress`
// after each set (from the worker threads, one call at a time). Throws on the first failure
// once the running sets are done.
std::vector<SetResult> generate(Tablebase& tb, const std::vector<Material>& wanted,
                                const GenerateOptions& options, const ProgressFn& progress);

// The sets of `wanted` and their capture sets that `tb` lacks, fewer pieces first.
[[nodiscard]] std::vector<Material> missingSets(const Tablebase& tb,
                                                const std::vector<Material>& wanted);

struct VerifyResult {
    Material material;
    bool ok = false;
    double deviation = 0;  // max |T(V) - V| over the stored values
    double tolerance = 0;  // what the stored precision allows: one quantum (+1e-9)
    // Stored distances that differ from those of the attack-free game the stored values
    // give (each state's from its exits and its successors' values and distances).
    std::uint32_t distanceErrors = 0;
    std::string problem;  // why not ok
};

// The tolerance of verify: rounding moves each stored value by at most half a quantum,
// and T moves no value by more than it moves the values it reads (docs/tables.md), so
// |T(V) - V| <= quantum + the solve's residual.
inline constexpr double kVerifyTolerance = kQuantum + 1e-9;

// Recomputes T from a set's stored values (and those of its capture sets) and compares,
// the values within the tolerance and the distances exactly.
[[nodiscard]] VerifyResult verify(const Tablebase& tb, const Material& m);

}  // namespace dejarik::tables
