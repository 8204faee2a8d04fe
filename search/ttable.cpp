#include "ttable.h"

#include <algorithm>
#include <bit>

namespace dejarik::search {

// Data word layout: value (float bits) 0-31, move code 32-47, depth 48-54, bound 55-56,
// heuristic 57, generation 58-63.
std::uint64_t TranspositionTable::pack(const TTData& d, std::uint8_t generation) {
    return static_cast<std::uint64_t>(std::bit_cast<std::uint32_t>(d.value)) |
           (static_cast<std::uint64_t>(d.move.code()) << 32) |
           (static_cast<std::uint64_t>(d.depth & 127) << 48) |
           (static_cast<std::uint64_t>(d.bound) << 55) |
           (static_cast<std::uint64_t>(d.heuristic) << 57) |
           (static_cast<std::uint64_t>(generation) << 58);
}

TTData TranspositionTable::unpack(std::uint64_t w) {
    TTData d;
    d.value = std::bit_cast<float>(static_cast<std::uint32_t>(w));
    d.move = Event::fromCode(static_cast<std::uint16_t>(w >> 32));
    d.depth = static_cast<std::int8_t>((w >> 48) & 127);
    d.bound = static_cast<Bound>((w >> 55) & 3);
    d.heuristic = (w >> 57) & 1;
    return d;
}

void TranspositionTable::resize(int megabytes) {
    const std::size_t bytes = static_cast<std::size_t>(megabytes) << 20;
    const std::size_t count = std::max<std::size_t>(1, bytes / sizeof(Cluster));
    // Allocate before touching any member: if this throws, the old table stays whole.
    auto clusters = makeLargeArray<Cluster>(count);
    clusters_ = std::move(clusters);
    clusterCount_ = count;
    megabytes_ = megabytes;
    generation_ = 0;
}

void TranspositionTable::clear() {
    for (std::size_t i = 0; i < clusterCount_; ++i)
        for (Entry& e : clusters_[i].entries) {
            e.check.store(0, std::memory_order_relaxed);
            e.data.store(0, std::memory_order_relaxed);
        }
    generation_ = 0;
}

bool TranspositionTable::probe(std::uint64_t key, TTData& out) const {
    for (const Entry& e : clusterFor(key).entries) {
        const std::uint64_t data = e.data.load(std::memory_order_relaxed);
        if ((e.check.load(std::memory_order_relaxed) ^ data) == key && data != 0) {
            out = unpack(data);
            return out.bound != Bound::None;
        }
    }
    return false;
}

void TranspositionTable::store(std::uint64_t key, const TTData& d) {
    Cluster& c = clusterFor(key);
    // Same key first; else the entry of least worth: old generations, then shallow ones.
    Entry* victim = &c.entries[0];
    int worst = 1 << 30;
    for (Entry& e : c.entries) {
        const std::uint64_t data = e.data.load(std::memory_order_relaxed);
        if ((e.check.load(std::memory_order_relaxed) ^ data) == key || data == 0) {
            victim = &e;
            break;
        }
        const int age = (generation_ - generationOf(data)) & 63;
        const int worth = static_cast<int>((data >> 48) & 127) - 8 * age;
        if (worth < worst) {
            worst = worth;
            victim = &e;
        }
    }
    TTData kept = d;
    const std::uint64_t old = victim->data.load(std::memory_order_relaxed);
    // A bound without a move keeps the move this key had: it is still the best guess.
    if (kept.move.isNone() && (victim->check.load(std::memory_order_relaxed) ^ old) == key)
        kept.move = unpack(old).move;
    const std::uint64_t data = pack(kept, generation_);
    victim->check.store(key ^ data, std::memory_order_relaxed);
    victim->data.store(data, std::memory_order_relaxed);
}

int TranspositionTable::hashfull() const {
    const std::size_t sample = std::min<std::size_t>(clusterCount_, 250);
    if (sample == 0) return 0;
    int used = 0;
    for (std::size_t i = 0; i < sample; ++i)
        for (const Entry& e : clusters_[i].entries) {
            const std::uint64_t data = e.data.load(std::memory_order_relaxed);
            used += data != 0 && generationOf(data) == generation_;
        }
    return static_cast<int>(used * 1000 / (sample * kClusterSize));
}

}  // namespace dejarik::search
