// The transposition table, shared by every search thread without locks.
//
// Each entry is two 64-bit words, the key stored XORed with the data (the lockless scheme
// of chess engines): a torn write by another thread makes the key check fail, so a reader
// sees either a whole entry or none.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>

#include "event.h"
#include "memory.h"

namespace dejarik::search {

enum class Bound : std::uint8_t { None, Upper, Lower, Exact };

struct TTData {
    float value = 0;  // player 1's view
    std::int8_t depth = 0;
    Bound bound = Bound::None;
    bool heuristic = true;  // some evaluation lies below: not a proven value
    Event move;
};

class TranspositionTable {
  public:
    // Allocates nothing until resize(): searchers size their table when they first search.
    TranspositionTable() = default;
    explicit TranspositionTable(int megabytes) { resize(megabytes); }

    // Not while a search runs.
    void resize(int megabytes);
    [[nodiscard]] int megabytes() const { return megabytes_; }
    void clear();
    // Once per search, so entries of older searches are preferred for replacement.
    void newSearch() { generation_ = static_cast<std::uint8_t>((generation_ + 1) & 63); }

    [[nodiscard]] bool probe(std::uint64_t key, TTData& out) const;
    // Starts loading the key's cluster so that a later probe finds it in cache.
    void prefetch(std::uint64_t key) const { __builtin_prefetch(&clusterFor(key)); }
    void store(std::uint64_t key, const TTData& data);
    // Per mille of a sample of entries written by the current search.
    [[nodiscard]] int hashfull() const;

  private:
    struct Entry {
        std::atomic<std::uint64_t> check{0};  // key ^ data
        std::atomic<std::uint64_t> data{0};
    };
    static_assert(sizeof(Entry) == 16, "two words per entry");
    static constexpr int kClusterSize = 4;  // one 64-byte cache line
    struct alignas(64) Cluster {
        std::array<Entry, kClusterSize> entries;
    };
    static_assert(sizeof(Cluster) == 64, "a cluster is a cache line");

    [[nodiscard]] static std::uint64_t pack(const TTData& d, std::uint8_t generation);
    [[nodiscard]] static TTData unpack(std::uint64_t word);
    [[nodiscard]] static std::uint8_t generationOf(std::uint64_t word) { return word >> 58; }
    [[nodiscard]] Cluster& clusterFor(std::uint64_t key) const {
        return clusters_[static_cast<std::size_t>(
            (static_cast<unsigned __int128>(key) * clusterCount_) >> 64)];
    }

    LargeArray<Cluster> clusters_;
    std::size_t clusterCount_ = 0;
    int megabytes_ = 0;
    std::uint8_t generation_ = 0;
};

}  // namespace dejarik::search
