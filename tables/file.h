// Table files: one material set each, memory-mapped, checked whole before use.
//
// Layout (all numbers little-endian), docs/tables.md "Files":
//   0  magic "DJKTABLE"            8  u32 format version        12  u32 header bytes (512)
//  16  u64 game fingerprint       24  u8 |A|, u8 |B|, u8[3] A's creatures, u8[3] B's
//  32  u32 CentreWin N            36  u32 pieces               40  u32 orbits
//  44  u32 stored states          48  u32 value scale (32767)  52  u32 iterations
//  56  f64 residual of the solve  64  f64 residual of the stored values
//  72  f64 seconds                80  u32 flags (1: converged) 84  u32 bytes per state (3)
//  88  char[256] the rule options as Name=Value assignments, NUL-padded
// 344  u64 checksum of the values 352  f64 T's contraction factor  360..503 zero
// 504  u64 checksum of bytes 0..503
// 512  per stored state, 3 bytes: i16 round(v * 32767), v from side A's view, then u8 the
//      distance in actions to the attack that realises v (255: 255 or more)
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>

#include "material.h"
#include "rules.h"

namespace dejarik::tables {

inline constexpr std::uint32_t kFormatVersion = 2;
inline constexpr std::uint32_t kHeaderBytes = 512;
// A value and its distance side by side: one probe reads one place of the file.
inline constexpr std::uint32_t kEntryBytes = 3;
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

// The entry of a state in a file's payload: its value and its distance.
[[nodiscard]] inline std::int16_t entryValue(const std::uint8_t* payload, std::uint32_t state) {
    const std::uint8_t* p = payload + kEntryBytes * static_cast<std::size_t>(state);
    return static_cast<std::int16_t>(static_cast<std::uint16_t>(p[0] | p[1] << 8));
}
[[nodiscard]] inline std::uint8_t entryDistance(const std::uint8_t* payload, std::uint32_t state) {
    return payload[kEntryBytes * static_cast<std::size_t>(state) + 2];
}

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
    std::uint32_t states = 0;  // stored: Layout::storedSize()
    std::string rules;         // ruleAssignments() of the rules it was built for
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
    [[nodiscard]] std::int16_t raw(std::uint32_t state) const {
        return entryValue(values(), state);
    }
    [[nodiscard]] double value(std::uint32_t state) const { return decodeValue(raw(state)); }
    [[nodiscard]] std::uint8_t distance(std::uint32_t state) const {
        return entryDistance(values(), state);
    }
    // The first entry's bytes.
    [[nodiscard]] const std::uint8_t* values() const { return data_ + kHeaderBytes; }

  private:
    TableFile() = default;

    std::filesystem::path path_;
    const std::uint8_t* data_ = nullptr;
    std::uint64_t size_ = 0;
    TableHeader header_;
};

// Writes a table file atomically (a temporary file renamed into place); throws
// std::runtime_error with the reason on any I/O failure.
void writeTable(const std::filesystem::path& path, const TableHeader& header,
                std::span<const std::int16_t> values, std::span<const std::uint8_t> distances);

}  // namespace dejarik::tables
