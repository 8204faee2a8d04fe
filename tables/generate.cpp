#include "generate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <stdexcept>

#include "parallel.h"

namespace dejarik::tables {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

SmallerSets smallerFrom(const Tablebase& tb) {
    return [&tb](const Position& pos) { return tb.probe(pos); };
}

// max |T(V) - V| for the values a file stores, the derived states filled in from them;
// solver.distances() then holds the distances of T(V), the ones a file stores with V.
double storedDeviation(SetSolver& solver, const std::function<double(std::uint32_t)>& stored) {
    std::vector<double> v(solver.states()), out(solver.states());
    for (std::uint32_t i = 0; i < solver.layout().storedSize(); ++i)
        v[i] = stored(i);
    solver.completeDerived(v);
    return solver.apply(v, out);
}

}  // namespace

SetResult generateSet(Tablebase& tb, const Material& material, const GenerateOptions& options) {
    const auto start = Clock::now();
    const Material m = material.canonical();
    if (!m.isTableSet()) throw std::runtime_error(m.name() + " is not a table set");
    SetSolver solver(m, tb.rules(), smallerFrom(tb));
    SetResult result;
    result.material = m;
    result.states = solver.states();
    result.edges = solver.edges();
    result.attacks = solver.attacks();

    std::vector<double> values;
    result.solve = solver.solve(values, options.tolerance, options.maxIterations);
    std::vector<std::int16_t> stored(solver.layout().storedSize());
    for (std::size_t i = 0; i < stored.size(); ++i)
        stored[i] = encodeValue(values[i]);
    result.storedResidual =
        storedDeviation(solver, [&](std::uint32_t i) { return decodeValue(stored[i]); });
    // The distances of the attack-free game whose exits the stored values give, so that
    // verify, which starts from the same stored values, finds the very same ones.
    std::vector<std::uint8_t> distances(stored.size());
    for (std::size_t i = 0; i < distances.size(); ++i)
        distances[i] = encodeDistance(solver.distances()[i]);
    result.seconds = secondsSince(start);

    TableHeader header;
    header.fingerprint = tb.fingerprint();
    header.material = m;
    header.centreWin = static_cast<std::uint32_t>(std::max(tb.rules().centreWin(), 0));
    header.orbits = solver.layout().orbits().count();
    header.states = solver.layout().storedSize();
    header.rules = ruleAssignments(tb.rules());
    header.iterations = static_cast<std::uint32_t>(result.solve.iterations);
    header.residual = result.solve.residual;
    header.storedResidual = result.storedResidual;
    header.seconds = result.seconds;
    header.converged = result.solve.converged;
    header.contraction = result.solve.contraction;
    const auto path = tb.fileOf(m);
    writeTable(path, header, stored, distances);
    std::string error;
    if (!tb.load(m, &error))
        throw std::runtime_error("cannot load the table just written: " + error);
    result.bytes = tb.table(m)->file->bytes();
    return result;
}

std::vector<Material> missingSets(const Tablebase& tb, const std::vector<Material>& wanted) {
    std::vector<Material> out;
    for (const Material& w : wanted)
        for (const Material& m : withCaptures(w))
            if (!tb.has(m) && std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
    std::stable_sort(out.begin(), out.end(),
                     [](const Material& x, const Material& y) { return x.pieces() < y.pieces(); });
    return out;
}

std::vector<SetResult> generate(Tablebase& tb, const std::vector<Material>& wanted,
                                const GenerateOptions& options, const ProgressFn& progress) {
    const std::vector<Material> todo = missingSets(tb, wanted);
    const auto start = Clock::now();
    Progress p;
    p.total = static_cast<int>(todo.size());
    for (const Material& m : todo)
        p.statesTotal += Layout(m.a.size(), m.b.size(), tb.rules().centreWin()).size();

    std::vector<SetResult> results(todo.size());
    std::mutex mutex;  // the results and the progress
    // A level of sets with the same piece count depends only on smaller levels.
    for (std::size_t first = 0; first < todo.size();) {
        std::size_t last = first;
        while (last < todo.size() && todo[last].pieces() == todo[first].pieces())
            ++last;
        forEachIndex(first, last, options.threads, [&](std::size_t i) {
            SetResult r = generateSet(tb, todo[i], options);
            const std::lock_guard lock(mutex);
            results[i] = r;
            ++p.done;
            p.statesDone += r.states;
            p.elapsed = secondsSince(start);
            if (progress) progress(r, p);
        });
        first = last;
    }
    return results;
}

VerifyResult verify(const Tablebase& tb, const Material& material) {
    VerifyResult result;
    result.material = material.canonical();
    result.tolerance = kVerifyTolerance;
    const Table* table = tb.table(result.material);
    if (!table) {
        result.problem = "not loaded";
        return result;
    }
    std::vector<std::uint32_t> distances;
    try {
        SetSolver solver(result.material, tb.rules(), smallerFrom(tb));
        result.deviation =
            storedDeviation(solver, [&](std::uint32_t i) { return table->value(i); });
        distances.assign(solver.distances().begin(), solver.distances().end());
    } catch (const std::exception& e) {
        result.problem = e.what();
        return result;
    }
    // A relative slack for the doubles' own rounding on top of the bound.
    result.ok = result.deviation <= result.tolerance * (1 + 1e-9);
    if (!result.ok) {
        result.problem = "the stored values are not a fixed point: max |T(V) - V| = " +
                         std::to_string(result.deviation) + " > " +
                         std::to_string(result.tolerance);
        return result;
    }
    const std::uint32_t stored = table->layout.storedSize();
    for (std::uint32_t i = 0; i < stored; ++i) {
        const std::uint8_t expected = encodeDistance(distances[i]);
        if (table->distance(i) == expected) continue;
        ++result.distanceErrors;
        if (result.distanceErrors == 1)
            result.problem = "state " + std::to_string(i) + " stores the distance " +
                             std::to_string(table->distance(i)) + ", its successors give " +
                             std::to_string(expected);
    }
    if (result.distanceErrors > 0) {
        result.ok = false;
        result.problem =
            std::to_string(result.distanceErrors) + " wrong distances; " + result.problem;
    }
    return result;
}

}  // namespace dejarik::tables
