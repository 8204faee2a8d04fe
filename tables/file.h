// Table files: one material set each, memory-mapped, checked whole before use.
//
// Layout (all numbers little-endian), docs/tables.md "Files":
//   0  magic "DJKTABLE"            8  u32 format version        12  u32 header bytes (512)
//  16  u64 game fingerprint       24  u8 |A|, u8 |B|, u8[3] A's creatures, u8[3] B's
//                                  (a canonical set of five has |B| <= 2; A's fourth at 364)
//  32  u32 CentreWin N            36  u32 pieces               40  u32 orbits
//  44  u32 stored states          48  u32 value scale (32767)  52  u32 iterations
//  56  f64 residual of the solve  64  f64 residual of the stored values
//  72  f64 seconds                80  u32 flags (1: converged) 84  u32 bits per code
//  88  char[256] the rule options as Name=Value assignments, NUL-padded
// 344  u64 checksum of the payload 352  f64 T's contraction factor
// 360  u32 codebook entries K      364 u8 A's fourth creature (4 v 1), else 0
// 365..503 zero
// 504  u64 checksum of bytes 0..503
// 512  the payload. The codebook: the K distinct (value, distance) pairs of the set, a u32
//      each: bits 0-15 the value as i16 round(v * 32767), v from side A's view, bits 16-23
//      the distance in actions to the attack that realises v (255: 255 or more), bits
//      24-31 zero; the most used first (ties: by value, then distance). Then per stored
//      state its pair's index in the codebook, bit_width(K - 1) bits each, packed from the
//      low bit of each byte up, and 8 zero bytes so that a code is read by one 8-byte load.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "material.h"
#include "rules.h"

namespace dejarik::tables {

inline constexpr std::uint32_t kFormatVersion = 4;
inline constexpr std::uint32_t kHeaderBytes = 512;
// A codebook entry: a value and its distance in one word, so a probe reads the code and
// then one word (docs/tables.md "Files": a set has at most ~13,000 distinct pairs, so
// codes of <= 14 bits instead of 24 bits of value and distance).
inline constexpr std::uint32_t kCodebookEntryBytes = 4;
// Zero bytes after the codes: the last code is read by an 8-byte load like every other.
inline constexpr std::uint32_t kCodeSlackBytes = 8;
// Distances are stored saturated: kDistanceCap means that many actions or more.
inline constexpr std::uint32_t kDistanceCap = 255;
inline constexpr double kValueScale = 32767.0;
// One step of the stored values: a stored value is within half of it of the computed one.
inline constexpr double kQuantum = 1.0 / kValueScale;

[[nodiscard]] std::int16_t encodeValue(double v);
[[nodiscard]] constexpr double decodeValue(std::int16_t raw) {
    return static_cast<double>(raw) / kValueScale;
}
[[nodiscard]] constexpr std::uint8_t encodeDistance(std::uint32_t d) {
    return static_cast<std::uint8_t>(d < kDistanceCap ? d : kDistanceCap);
}

// The bits of a code that names one of `entries` codebook entries.
[[nodiscard]] constexpr std::uint32_t codeBits(std::uint32_t entries) {
    return entries <= 1 ? 0 : static_cast<std::uint32_t>(std::bit_width(entries - 1));
}
// The payload's size: codebook, codes and their slack.
[[nodiscard]] constexpr std::uint64_t payloadBytes(std::uint32_t states, std::uint32_t entries) {
    return std::uint64_t{kCodebookEntryBytes} * entries +
           (std::uint64_t{states} * codeBits(entries) + 7) / 8 + kCodeSlackBytes;
}
// A codebook word of a value and a distance, and back.
[[nodiscard]] constexpr std::uint32_t entryWord(std::int16_t value, std::uint8_t distance) {
    return static_cast<std::uint32_t>(static_cast<std::uint16_t>(value)) |
           static_cast<std::uint32_t>(distance) << 16;
}
[[nodiscard]] constexpr std::int16_t wordValue(std::uint32_t word) {
    return static_cast<std::int16_t>(static_cast<std::uint16_t>(word & 0xFFFFu));
}
[[nodiscard]] constexpr std::uint8_t wordDistance(std::uint32_t word) {
    return static_cast<std::uint8_t>(word >> 16);
}

// The entries of a set where they are read (a mapped file or a copy of its payload): a
// state's code, then its codebook word. No allocation, no branch but the caller's.
struct Entries {
    const std::uint8_t* codebook = nullptr;
    const std::uint8_t* codes = nullptr;
    std::uint32_t bits = 0;

    [[nodiscard]] static Entries at(const std::uint8_t* payload, std::uint32_t entries) {
        return {payload, payload + std::size_t{kCodebookEntryBytes} * entries, codeBits(entries)};
    }
    [[nodiscard]] std::uint32_t code(std::uint32_t state) const {
        const std::uint64_t bit = std::uint64_t{state} * bits;
        std::uint64_t w;
        std::memcpy(&w, codes + bit / 8, sizeof w);
        if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
        return static_cast<std::uint32_t>(w >> (bit % 8)) & ((1u << bits) - 1);
    }
    [[nodiscard]] std::uint32_t word(std::uint32_t state) const {
        std::uint32_t w;
        std::memcpy(&w, codebook + std::size_t{kCodebookEntryBytes} * code(state), sizeof w);
        if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap32(w);
        return w;
    }
    [[nodiscard]] std::int16_t value(std::uint32_t state) const { return wordValue(word(state)); }
    [[nodiscard]] std::uint8_t distance(std::uint32_t state) const {
        return wordDistance(word(state));
    }
    // The first byte of a state's code (what a prefetch loads).
    [[nodiscard]] const std::uint8_t* codeAddress(std::uint32_t state) const {
        return codes + std::uint64_t{state} * bits / 8;
    }
};

// A 64-bit checksum of a byte range (word-wise multiply-rotate; not cryptographic).
[[nodiscard]] std::uint64_t checksum64(std::span<const std::uint8_t> bytes);

// The rule options that shape the game tree, as "Ruleset=kelly Dice=pools ..." in
// PROTOCOL.md names: they rebuild the Rules of a file with RuleOptions::setAssignment.
[[nodiscard]] std::string ruleAssignments(const Rules& rules);
// The Rules of such a line (DrawTurns 0); nothing and a message when a part is refused.
[[nodiscard]] std::optional<Rules> rulesFromAssignments(const std::string& line,
                                                        std::string* error);

struct TableHeader {
    std::uint64_t fingerprint = 0;
    Material material;
    std::uint32_t centreWin = 0;
    std::uint32_t orbits = 0;
    std::uint32_t states = 0;   // stored: Layout::storedSize()
    std::uint32_t entries = 0;  // codebook entries: distinct (value, distance) pairs
    std::string rules;          // ruleAssignments() of the rules it was built for
    std::uint32_t iterations = 0;
    double residual = 0;        // max |T(V) - V| of the values before rounding
    double storedResidual = 0;  // max |T(V) - V| of the stored values (verify's measure)
    double seconds = 0;
    bool converged = false;
    double contraction = 0;  // the most probability of an attack's staying in the set
};

// A table file mapped read-only. Opening checks what the file says about itself: size,
// magic, version, both checksums, and a material and layout that fit together.
class TableFile {
  public:
    // Nothing, with a one-line reason, for a file that cannot be used.
    [[nodiscard]] static std::unique_ptr<TableFile> open(const std::filesystem::path& path,
                                                         std::string* error);
    ~TableFile();
    TableFile(const TableFile&) = delete;
    TableFile& operator=(const TableFile&) = delete;

    [[nodiscard]] const TableHeader& header() const { return header_; }
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }
    [[nodiscard]] std::uint64_t bytes() const { return size_; }
    [[nodiscard]] std::int16_t raw(std::uint32_t state) const { return entries().value(state); }
    [[nodiscard]] double value(std::uint32_t state) const { return decodeValue(raw(state)); }
    [[nodiscard]] std::uint8_t distance(std::uint32_t state) const {
        return entries().distance(state);
    }
    // The payload's bytes (codebook, codes, slack): payloadBytes() of the header.
    [[nodiscard]] const std::uint8_t* payload() const { return data_ + kHeaderBytes; }
    [[nodiscard]] Entries entries() const { return Entries::at(payload(), header_.entries); }

  private:
    TableFile() = default;

    std::filesystem::path path_;
    const std::uint8_t* data_ = nullptr;
    std::uint64_t size_ = 0;
    TableHeader header_;
};

// The payload of a set's values and distances (the codebook and the codes) and how many
// codebook entries it has.
[[nodiscard]] std::vector<std::uint8_t> encodeEntries(std::span<const std::int16_t> values,
                                                      std::span<const std::uint8_t> distances,
                                                      std::uint32_t& entries);

// Writes a table file atomically (a temporary file renamed into place); throws
// std::runtime_error with the reason on any I/O failure. The header's `entries` is set
// from the values.
void writeTable(const std::filesystem::path& path, const TableHeader& header,
                std::span<const std::int16_t> values, std::span<const std::uint8_t> distances);

}  // namespace dejarik::tables
