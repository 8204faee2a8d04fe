#include "tablebase.h"

#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <stdexcept>

#include "retrograde.h"

namespace dejarik::tables {

namespace {

constexpr const char* kExtension = ".dtb";

Rules withoutQuietDraw(const Rules& rules) {
    if (rules.fromCreatureFile()) throw std::invalid_argument(*uncovered(rules));
    RuleOptions options = rules.options();
    options.drawTurns = 0;
    return Rules(options);
}

}  // namespace

std::optional<std::string> uncovered(const Rules& rules) {
    if (rules.courtier()) return "the endgame tables are for Dejarik, not Courtier";
    if (rules.fromCreatureFile())
        return "the endgame tables cover the rulesets' own creatures only, not a CreatureFile";
    if (rules.raysOfDeath()) return "the endgame tables do not cover Rays of Death";
    return std::nullopt;
}

std::filesystem::path defaultTablePath() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::filesystem::path(xdg) / "dejarik" / "tables";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".cache" / "dejarik" / "tables";
    return "dejarik-tables";
}

std::string fingerprintName(std::uint64_t fingerprint) {
    char name[17];
    std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(fingerprint));
    return name;
}

Tablebase::Tablebase(const std::filesystem::path& root, const Rules& rules, TableMemory memory)
    : rules_(std::make_unique<const Rules>(withoutQuietDraw(rules))),
      directory_(root / fingerprintName(rules.gameFingerprint())),
      slots_(new std::atomic<const Table*>[Material::kSlotCount]) {
    for (int i = 0; i < Material::kSlotCount; ++i)
        slots_[i].store(nullptr, std::memory_order_relaxed);
    std::error_code ec;
    if (!std::filesystem::is_directory(directory_, ec)) return;
    std::vector<std::filesystem::path> paths;
    for (const auto& entry : std::filesystem::directory_iterator(directory_, ec))
        if (entry.path().extension() == kExtension) paths.push_back(entry.path());
    std::sort(paths.begin(), paths.end());
    std::vector<std::unique_ptr<TableFile>> files;
    for (const auto& path : paths) {
        std::string error;
        auto file = TableFile::open(path, &error);
        if (!file) {
            problems_.push_back(error);
            continue;
        }
        const Material m = file->header().material;
        if (path.filename() != m.fileStem() + kExtension) {
            problems_.push_back(path.string() + ": holds " + m.name() + ", not what its name says");
            continue;
        }
        files.push_back(std::move(file));
    }
    std::vector<const std::uint8_t*> entries(files.size(), nullptr);
    if (memory == TableMemory::HugePages) entries = copyToHugePages(files);
    for (std::size_t i = 0; i < files.size(); ++i) {
        std::string error;
        const Material m = files[i]->header().material;
        if (!adopt(std::move(files[i]), m, &error, entries[i])) problems_.push_back(error);
    }
}

Tablebase::Region::~Region() {
    if (address) munmap(address, bytes);
}

std::vector<const std::uint8_t*> Tablebase::copyToHugePages(
    const std::vector<std::unique_ptr<TableFile>>& files) {
    constexpr std::size_t kHugePage = std::size_t{2} << 20;
    constexpr std::size_t kLine = 64;
    std::vector<const std::uint8_t*> out(files.size(), nullptr);
    std::size_t total = 0;
    for (const auto& f : files)
        total += (f->bytes() - kHeaderBytes + kLine - 1) / kLine * kLine;
    if (total == 0) return out;
    // Whole huge pages from a huge page boundary: map one page more and trim both ends.
    const std::size_t bytes = (total + kHugePage - 1) / kHugePage * kHugePage;
    void* raw = mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return out;  // the files serve
    const auto start = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t aligned = (start + kHugePage - 1) / kHugePage * kHugePage;
    if (aligned > start) munmap(raw, aligned - start);
    if (const std::uintptr_t end = aligned + bytes; end < start + bytes + kHugePage)
        munmap(reinterpret_cast<void*>(end), start + bytes + kHugePage - end);
    region_.address = reinterpret_cast<void*>(aligned);
    region_.bytes = bytes;
    // Advice only: without huge pages the copy still works, as fast as the files.
    (void)madvise(region_.address, bytes, MADV_HUGEPAGE);
    auto* at = static_cast<std::uint8_t*>(region_.address);
    for (std::size_t i = 0; i < files.size(); ++i) {
        const std::size_t n = files[i]->bytes() - kHeaderBytes;
        std::memcpy(at, files[i]->payload(), n);
        out[i] = at;
        at += (n + kLine - 1) / kLine * kLine;
    }
    // Read-only from here: a stray write faults instead of changing a value.
    (void)mprotect(region_.address, bytes, PROT_READ);
    return out;
}

Tablebase::~Tablebase() = default;

std::filesystem::path Tablebase::fileOf(const Material& m) const {
    return directory_ / (m.canonical().fileStem() + kExtension);
}

std::vector<std::string> Tablebase::problems() const {
    std::lock_guard lock(mutex_);
    return problems_;
}

bool Tablebase::adopt(std::unique_ptr<TableFile> file, const Material& expected, std::string* error,
                      const std::uint8_t* entries) {
    const TableHeader& h = file->header();
    const auto fail = [&](const std::string& message) {
        if (error) *error = file->path().string() + ": " + message;
        return false;
    };
    if (!(h.material == expected)) return fail("holds " + h.material.name());
    if (h.fingerprint != fingerprint())
        return fail("built for another rule mix (" + fingerprintName(h.fingerprint) + ": " +
                    h.rules + ")");
    if (h.centreWin != static_cast<std::uint32_t>(std::max(rules_->centreWin(), 0)))
        return fail("built for CentreWin " + std::to_string(h.centreWin));
    std::string problem;
    const auto rules = rulesFromAssignments(h.rules, &problem);
    if (!rules || rules->gameFingerprint() != h.fingerprint)
        return fail("its rule options '" + h.rules + "' do not give its fingerprint");
    const Entries view = Entries::at(entries ? entries : file->payload(), h.entries);
    auto table = std::make_unique<Table>(
        Table{view, Layout(h.material.a.size(), h.material.b.size(), static_cast<int>(h.centreWin)),
              h.material, std::move(file)});
    std::lock_guard lock(mutex_);
    slots_[h.material.slot()].store(table.get(), std::memory_order_release);
    if (h.material.pieces() > maxPieces_.load(std::memory_order_relaxed))
        maxPieces_.store(h.material.pieces(), std::memory_order_release);
    owned_.push_back(std::move(table));
    return true;
}

bool Tablebase::load(const Material& m, std::string* error) {
    const Material c = m.canonical();
    if (!c.isTableSet()) {
        if (error) *error = m.name() + " is not a table set";
        return false;
    }
    auto file = TableFile::open(fileOf(c), error);
    if (!file) return false;
    return adopt(std::move(file), c, error);
}

const Table* Tablebase::table(const Material& m) const {
    const Material c = m.canonical();
    if (!c.isTableSet()) return nullptr;
    return slots_[c.slot()].load(std::memory_order_acquire);
}

std::vector<Material> Tablebase::sets() const {
    std::vector<Material> out;
    {
        std::lock_guard lock(mutex_);
        for (const auto& t : owned_)
            if (std::find(out.begin(), out.end(), t->material) == out.end())
                out.push_back(t->material);
    }
    std::sort(out.begin(), out.end(), [](const Material& x, const Material& y) {
        return x.pieces() != y.pieces() ? x.pieces() < y.pieces() : x.slot() < y.slot();
    });
    return out;
}

std::optional<TableValue> Tablebase::lookup(const Position& pos) const {
    const auto p = place(pos);
    if (!p) return std::nullopt;
    const Table* t = slots_[p->slot].load(std::memory_order_acquire);
    if (!t) return std::nullopt;
    const auto state = t->layout.index(p->key);
    if (!state) return std::nullopt;
    if (!t->layout.isStored(*state)) return derive(pos);
    const double v = t->value(*state);
    return TableValue{p->swapped ? -v : v, t->distance(*state)};
}

namespace {

// Whether the decider prefers `candidate` to `best`: a better value, or the same value
// sooner when it serves the decider and later when it serves the other side.
bool preferred(bool maximiser, const TableValue& candidate, const TableValue& best) {
    if (candidate.value != best.value)
        return maximiser ? candidate.value > best.value : candidate.value < best.value;
    const bool serves = maximiser ? candidate.value > 0 : candidate.value < 0;
    return serves ? candidate.distance < best.distance : candidate.distance > best.distance;
}

}  // namespace

std::optional<TableValue> Tablebase::derive(const Position& pos) const {
    // The mover's counter is up and one action is left: every decision ends the turn, in a
    // stored state or a finished game (a quiet draw does not count: tables ignore it), or
    // starts an attack whose outcomes do.
    const bool maximiser = pos.decider() == Player::One;
    std::optional<TableValue> best;
    // The options' values and distances, and whether each is the decider's own attack: the
    // distance is the one the winner can force (retrograde.h), so a loser's attacks count
    // only when it has nothing else.
    struct Option {
        TableValue v;
        bool attack;
    };
    std::array<Option, EventList::kCapacity> options;  // no allocation on a probe
    std::size_t count = 0;
    EventList events;
    pos.generate(events);
    for (const Event e : events) {
        Position child = pos;
        child.apply(e);
        std::optional<TableValue> v;
        if (e.kind() == EventKind::Attack) {
            v = probeWithDistance(child);  // a chance node: distance 0
        } else if (child.isOver() && child.result() != Result::Draw) {
            v = TableValue{child.winProbability(Player::One) - child.winProbability(Player::Two),
                           0};
        } else {
            v = lookup(child);
            if (v) ++v->distance;  // this move is one more action
        }
        if (!v) return std::nullopt;
        options[count++] = {*v, e.kind() == EventKind::Attack};
        if (!best || preferred(maximiser, *v, *best)) best = v;
    }
    if (!best || best->value == 0) return best;
    const bool serves = maximiser == (best->value > 0);
    const std::span<const Option> taken(options.data(), count);
    const bool canWait =
        std::any_of(taken.begin(), taken.end(), [](const Option& o) { return !o.attack; });
    std::uint32_t distance = serves ? kUnforced : 0;
    for (const Option& o : taken) {
        if (serves && realises(best->value, o.v.value))
            distance = std::min<std::uint32_t>(distance, o.v.distance);
        else if (!serves && (!o.attack || !canWait))
            distance = std::max<std::uint32_t>(distance, o.v.distance);
    }
    best->distance = static_cast<int>(std::min(distance, kDistanceCap));
    return best;
}

std::optional<double> Tablebase::stateValue(const Material& m, std::uint32_t state) const {
    const Table* t = table(m);
    if (!t || !m.isCanonical() || state >= t->layout.size()) return std::nullopt;
    if (t->layout.isStored(state)) return t->value(state);
    const auto pos = Position::fromDfen(stateDfen(m, t->layout, state), *rules_);
    if (!pos) return std::nullopt;
    const auto v = lookup(*pos);
    if (!v) return std::nullopt;
    return v->value;
}

std::optional<TableValue> Tablebase::probeWithDistance(const Position& pos) const {
    if (pos.occupied().count() > maxPieces()) return std::nullopt;
    if (pos.rules().gameFingerprint() != fingerprint()) return std::nullopt;
    // Never under Rays of Death (its fingerprint differs too): no table knows its rounds.
    if (pos.rules().raysOfDeath()) return std::nullopt;
    if (pos.isOver())
        return TableValue{pos.winProbability(Player::One) - pos.winProbability(Player::Two), 0};
    // A set-up to come (RULES §15): the tables hold no reserves.
    if (pos.phase() == Phase::Setup) return std::nullopt;
    if (pos.phase() == Phase::Decision) return lookup(pos);
    if (pos.phase() == Phase::Outcome) {
        const auto v =
            expectOverOutcomes(pos, [this](const Position& child) { return probe(child); });
        if (!v) return std::nullopt;
        return TableValue{*v, 0};
    }
    // A placement finishes the attack: it is no action of its own.
    EventList events;
    pos.generate(events);
    const bool maximiser = pos.decider() == Player::One;
    std::optional<TableValue> best;
    for (const Event e : events) {
        Position child = pos;
        child.apply(e);
        const auto v = probeWithDistance(child);
        if (!v) return std::nullopt;
        if (!best || preferred(maximiser, *v, *best)) best = v;
    }
    return best;
}

void Tablebase::prefetch(const Position& pos) const {
    if (pos.occupied().count() > maxPieces() || pos.phase() != Phase::Decision) return;
    const auto p = place(pos);
    if (!p) return;
    const Table* t = slots_[p->slot].load(std::memory_order_acquire);
    if (!t) return;
    const auto state = t->layout.index(p->key);
    if (!state || !t->layout.isStored(*state)) return;
    __builtin_prefetch(t->entries.codeAddress(*state));
}

std::optional<double> Tablebase::probe(const Position& pos) const {
    const auto v = probeWithDistance(pos);
    if (!v) return std::nullopt;
    return v->value;
}

std::optional<double> Tablebase::probeForDecider(const Position& pos) const {
    const auto v = probe(pos);
    if (!v) return std::nullopt;
    const Player who = pos.phase() == Phase::Outcome ? pos.sideToMove() : pos.decider();
    return who == Player::One ? *v : -*v;
}

}  // namespace dejarik::tables
