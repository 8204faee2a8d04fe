#include "file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "index.h"
#include "text.h"

namespace dejarik::tables {

namespace {

constexpr std::array<char, 8> kMagic = {'D', 'J', 'K', 'T', 'A', 'B', 'L', 'E'};
constexpr std::size_t kRulesOffset = 88;
constexpr std::size_t kRulesBytes = 256;
constexpr std::size_t kPayloadSumOffset = 344;
constexpr std::size_t kContractionOffset = 352;
constexpr std::size_t kEntriesOffset = 360;
// Side A's first creatures are at 26..28 (all of them in a set of four or fewer), its fourth,
// in a set of five (4 v 1), at 364.
constexpr int kSideAAt26 = 3;
constexpr std::size_t kFourthCreatureOffset = 364;
// The most creatures of side B in a canonical set: side A has at least as many.
constexpr int kMaxSideB = kMaxPieces / 2;
constexpr std::size_t kHeaderSumOffset = 504;

void put32(std::uint8_t* p, std::uint32_t v) {
    for (int i = 0; i < 4; ++i)
        p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
void put64(std::uint8_t* p, std::uint64_t v) {
    for (int i = 0; i < 8; ++i)
        p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
std::uint32_t get32(const std::uint8_t* p) {
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i)
        v = v << 8 | p[i];
    return v;
}
std::uint64_t get64(const std::uint8_t* p) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = v << 8 | p[i];
    return v;
}
void putDouble(std::uint8_t* p, double v) {
    put64(p, std::bit_cast<std::uint64_t>(v));
}
double getDouble(const std::uint8_t* p) {
    return std::bit_cast<double>(get64(p));
}

std::array<std::uint8_t, kHeaderBytes> encodeHeader(const TableHeader& h,
                                                    std::uint64_t payloadSum) {
    std::array<std::uint8_t, kHeaderBytes> b{};
    std::memcpy(b.data(), kMagic.data(), kMagic.size());
    put32(&b[8], kFormatVersion);
    put32(&b[12], kHeaderBytes);
    put64(&b[16], h.fingerprint);
    b[24] = static_cast<std::uint8_t>(h.material.a.size());
    b[25] = static_cast<std::uint8_t>(h.material.b.size());
    for (int i = 0; i < h.material.a.size() && i < kSideAAt26; ++i)
        b[26 + i] = static_cast<std::uint8_t>(h.material.a[i]);
    if (h.material.a.size() > kSideAAt26)
        b[kFourthCreatureOffset] = static_cast<std::uint8_t>(h.material.a[kSideAAt26]);
    for (int i = 0; i < h.material.b.size() && i < kMaxSideB; ++i)
        b[29 + i] = static_cast<std::uint8_t>(h.material.b[i]);
    put32(&b[32], h.centreWin);
    put32(&b[36], static_cast<std::uint32_t>(h.material.pieces()));
    put32(&b[40], h.orbits);
    put32(&b[44], h.states);
    put32(&b[48], static_cast<std::uint32_t>(kValueScale));
    put32(&b[52], h.iterations);
    putDouble(&b[56], h.residual);
    putDouble(&b[64], h.storedResidual);
    putDouble(&b[72], h.seconds);
    put32(&b[80], h.converged ? 1u : 0u);
    put32(&b[84], codeBits(h.entries));
    put32(&b[kEntriesOffset], h.entries);
    std::memcpy(&b[kRulesOffset], h.rules.data(), std::min(h.rules.size(), kRulesBytes - 1));
    put64(&b[kPayloadSumOffset], payloadSum);
    putDouble(&b[kContractionOffset], h.contraction);
    put64(&b[kHeaderSumOffset], checksum64({b.data(), kHeaderSumOffset}));
    return b;
}

// Reads and checks a header; the message names the first problem.
std::optional<TableHeader> decodeHeader(const std::uint8_t* b, std::string& problem) {
    const auto fail = [&](std::string message) -> std::optional<TableHeader> {
        problem = std::move(message);
        return std::nullopt;
    };
    if (std::memcmp(b, kMagic.data(), kMagic.size()) != 0) return fail("not a table file");
    if (get32(&b[8]) != kFormatVersion)
        return fail("format version " + std::to_string(get32(&b[8])) + ", this build reads " +
                    std::to_string(kFormatVersion));
    if (get64(&b[kHeaderSumOffset]) != checksum64({b, kHeaderSumOffset}))
        return fail("header checksum mismatch (the file is corrupt)");
    if (get32(&b[12]) != kHeaderBytes) return fail("unexpected header size");
    TableHeader h;
    h.fingerprint = get64(&b[16]);
    const int sizeA = b[24], sizeB = b[25];
    if (sizeA > kMaxSide || sizeB > kMaxSideB) return fail("bad material in the header");
    for (int i = 26; i < 32; ++i)
        if (b[i] >= kCreatureCount) return fail("bad material in the header");
    if (b[kFourthCreatureOffset] >= kCreatureCount ||
        (sizeA <= kSideAAt26 && b[kFourthCreatureOffset] != 0))
        return fail("bad material in the header");
    std::vector<Creature> a, bSide;
    for (int i = 0; i < sizeA; ++i)
        a.push_back(static_cast<Creature>(i < kSideAAt26 ? b[26 + i] : b[kFourthCreatureOffset]));
    for (int i = 0; i < sizeB; ++i)
        bSide.push_back(static_cast<Creature>(b[29 + i]));
    h.material = {Army::of(a), Army::of(bSide)};
    if (!h.material.isTableSet() || !h.material.isCanonical())
        return fail("bad material in the header");
    h.centreWin = get32(&b[32]);
    if (get32(&b[36]) != static_cast<std::uint32_t>(h.material.pieces()) || h.centreWin > 1000)
        return fail("bad layout in the header");
    h.orbits = get32(&b[40]);
    h.states = get32(&b[44]);
    if (get32(&b[48]) != static_cast<std::uint32_t>(kValueScale))
        return fail("unknown value scale");
    h.entries = get32(&b[kEntriesOffset]);
    if (h.entries > h.states || (h.states > 0 && h.entries == 0) ||
        get32(&b[84]) != codeBits(h.entries))
        return fail("bad codebook size in the header");
    h.iterations = get32(&b[52]);
    h.residual = getDouble(&b[56]);
    h.storedResidual = getDouble(&b[64]);
    h.seconds = getDouble(&b[72]);
    h.converged = (get32(&b[80]) & 1u) != 0;
    h.contraction = getDouble(&b[kContractionOffset]);
    const char* rules = reinterpret_cast<const char*>(&b[kRulesOffset]);
    h.rules.assign(rules, strnlen(rules, kRulesBytes));
    const Layout layout(h.material.a.size(), h.material.b.size(), static_cast<int>(h.centreWin));
    if (h.orbits != layout.orbits().count() || h.states != layout.storedSize())
        return fail("the header's layout does not fit its material");
    return h;
}

// What the checksums cannot promise: that every code names an entry (a probe never reads
// outside the codebook), every entry is a value in range with a distance and zero padding,
// and the codebook is the canonical one encodeEntries makes (each entry used, the most
// used first, ties by value then distance), with zero bits after the last code.
std::optional<std::string> checkEntries(const std::uint8_t* payload, const TableHeader& h) {
    const Entries e = Entries::at(payload, h.entries);
    std::vector<std::uint32_t> uses(h.entries, 0);
    for (std::uint32_t i = 0; i < h.states; ++i) {
        const std::uint32_t code = e.code(i);
        if (code >= h.entries)
            return "state " + std::to_string(i) + " names codebook entry " + std::to_string(code) +
                   " of " + std::to_string(h.entries);
        ++uses[code];
    }
    const std::uint64_t usedBits = std::uint64_t{h.states} * e.bits;
    const std::uint8_t* end = payload + payloadBytes(h.states, h.entries);
    if (usedBits % 8 != 0 && (e.codes[usedBits / 8] >> (usedBits % 8)) != 0)
        return std::string("bits after the last code are not zero");
    for (const std::uint8_t* p = e.codes + (usedBits + 7) / 8; p < end; ++p)
        if (*p != 0) return std::string("bytes after the codes are not zero");
    for (std::uint32_t k = 0; k < h.entries; ++k) {
        const std::uint32_t w = get32(payload + std::size_t{kCodebookEntryBytes} * k);
        if ((w >> 24) != 0 || wordValue(w) < -static_cast<int>(kValueScale))
            return "bad codebook entry " + std::to_string(k);
        if (uses[k] == 0) return "codebook entry " + std::to_string(k) + " is never used";
        if (k > 0) {
            const std::uint32_t prev = get32(payload + std::size_t{kCodebookEntryBytes} * (k - 1));
            const auto key = [](std::uint32_t word) {
                return std::pair{wordValue(word), wordDistance(word)};
            };
            if (uses[k] > uses[k - 1] || (uses[k] == uses[k - 1] && !(key(prev) < key(w))))
                return "codebook entry " + std::to_string(k) + " out of order";
        }
    }
    return std::nullopt;
}

}  // namespace

std::int16_t encodeValue(double v) {
    const double clamped = std::clamp(v, -1.0, 1.0);
    return static_cast<std::int16_t>(std::lround(clamped * kValueScale));
}

std::uint64_t checksum64(std::span<const std::uint8_t> bytes) {
    constexpr std::uint64_t k1 = 0x9E3779B97F4A7C15ull, k2 = 0xC2B2AE3D27D4EB4Full;
    std::uint64_t h = 0x7AB1E5ull ^ (bytes.size() * k2);
    std::size_t i = 0;
    for (; i + 8 <= bytes.size(); i += 8) {
        std::uint64_t w = 0;
        for (int k = 7; k >= 0; --k)
            w = w << 8 | bytes[i + static_cast<std::size_t>(k)];
        h = std::rotl(h ^ (w * k1), 29) * k2;
    }
    for (; i < bytes.size(); ++i)
        h = std::rotl(h ^ (bytes[i] * k1), 29) * k2;
    h ^= h >> 31;
    h *= k1;
    return h ^ (h >> 29);
}

namespace {

// The rule options a table's header names: those that shape the game tree of a set. Any other
// in a header is refused unread (a CreatureFile there would be opened).
constexpr std::array<std::string_view, 7> kHeaderOptions = {
    "Ruleset",        "Dice",        "SafeOuterOrbit", "KingOfTheCentre",
    "CentreStraight", "BlockedPush", "CentreWin"};

}  // namespace

std::string ruleAssignments(const Rules& rules) {
    auto flag = [](bool b) { return std::string(b ? "true" : "false"); };
    const std::array<std::string, kHeaderOptions.size()> values = {
        std::string(rulesetName(rules.ruleset())),
        std::string(diceModelName(rules.dice())),
        flag(rules.safeOuterOrbit()),
        flag(rules.kingOfTheCentre()),
        flag(rules.centreStraight()),
        std::string(blockedPushName(rules.blockedPush())),
        std::to_string(rules.centreWin())};
    std::string line;
    for (std::size_t i = 0; i < kHeaderOptions.size(); ++i)
        line += (i == 0 ? "" : " ") + std::string(kHeaderOptions[i]) + "=" + values[i];
    return line;
}

std::optional<Rules> rulesFromAssignments(const std::string& line, std::string* error) {
    // Only the options ruleAssignments writes: a creature file named here is never opened.
    const auto refuse = [](const RuleOptionSpec& option) -> std::optional<std::string> {
        if (std::find(kHeaderOptions.begin(), kHeaderOptions.end(), option.spec.name) !=
            kHeaderOptions.end())
            return std::nullopt;
        return text::quoted(option.spec.name) + " is no rule option of a table";
    };
    RuleOptions options;
    for (const auto field : text::fields(line)) {
        if (const auto problem = options.setAssignment(field, refuse)) {
            if (error) *error = *problem;
            return std::nullopt;
        }
    }
    options.drawTurns = 0;
    return Rules(options);
}

TableFile::~TableFile() {
    if (data_) munmap(const_cast<std::uint8_t*>(data_), size_);
}

std::unique_ptr<TableFile> TableFile::open(const std::filesystem::path& path, std::string* error) {
    const auto fail = [&](const std::string& message) -> std::unique_ptr<TableFile> {
        if (error) *error = path.string() + ": " + message;
        return nullptr;
    };
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return fail(std::strerror(errno));
    struct stat st {};
    if (fstat(fd, &st) != 0) {
        const int e = errno;
        ::close(fd);
        return fail(std::strerror(e));
    }
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size < kHeaderBytes) {
        ::close(fd);
        return fail("truncated (" + std::to_string(size) + " bytes, shorter than the header)");
    }
    void* map = mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
    const int mapErrno = errno;
    ::close(fd);
    if (map == MAP_FAILED) return fail(std::string("cannot map: ") + std::strerror(mapErrno));
    std::unique_ptr<TableFile> file(new TableFile());
    file->path_ = path;
    file->data_ = static_cast<const std::uint8_t*>(map);
    file->size_ = size;

    std::string problem;
    const auto header = decodeHeader(file->data_, problem);
    if (!header) return fail(problem);
    const std::uint64_t expected = kHeaderBytes + payloadBytes(header->states, header->entries);
    if (size != expected)
        return fail((size < expected ? "truncated (" : "too long (") + std::to_string(size) +
                    " bytes, expected " + std::to_string(expected) + ")");
    const std::uint64_t sum = checksum64({file->data_ + kHeaderBytes, size - kHeaderBytes});
    if (sum != get64(&file->data_[kPayloadSumOffset]))
        return fail("value checksum mismatch (the file is corrupt)");
    file->header_ = *header;
    if (const auto bad = checkEntries(file->payload(), *header)) return fail(*bad);
    return file;
}

std::vector<std::uint8_t> encodeEntries(std::span<const std::int16_t> values,
                                        std::span<const std::uint8_t> distances,
                                        std::uint32_t& entries) {
    if (values.size() != distances.size())
        throw std::logic_error("encodeEntries: one value and one distance per state");
    if (values.size() > std::numeric_limits<std::uint32_t>::max())
        throw std::logic_error("encodeEntries: too many states");
    const auto states = static_cast<std::uint32_t>(values.size());
    std::vector<std::uint32_t> words(states);
    for (std::uint32_t i = 0; i < states; ++i)
        words[i] = entryWord(values[i], distances[i]);
    // The distinct words with their uses, then the canonical order (checkEntries).
    std::vector<std::uint32_t> distinct = words;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    std::vector<std::uint32_t> uses(distinct.size(), 0);
    const auto rank = [&](std::uint32_t w) {
        return static_cast<std::size_t>(std::lower_bound(distinct.begin(), distinct.end(), w) -
                                        distinct.begin());
    };
    for (const std::uint32_t w : words)
        ++uses[rank(w)];
    std::vector<std::uint32_t> order(distinct.size());
    for (std::uint32_t k = 0; k < order.size(); ++k)
        order[k] = k;
    const auto key = [&](std::uint32_t k) {
        return std::pair{wordValue(distinct[k]), wordDistance(distinct[k])};
    };
    std::sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
        return uses[x] != uses[y] ? uses[x] > uses[y] : key(x) < key(y);
    });
    std::vector<std::uint32_t> codeOf(distinct.size());
    for (std::uint32_t k = 0; k < order.size(); ++k)
        codeOf[order[k]] = k;

    entries = static_cast<std::uint32_t>(distinct.size());
    std::vector<std::uint8_t> payload(payloadBytes(states, entries), 0);
    for (std::uint32_t k = 0; k < entries; ++k)
        put32(&payload[std::size_t{kCodebookEntryBytes} * k], distinct[order[k]]);
    const std::uint32_t bits = codeBits(entries);
    std::uint8_t* codes = payload.data() + std::size_t{kCodebookEntryBytes} * entries;
    for (std::uint32_t i = 0; i < states; ++i) {
        const std::uint64_t bit = std::uint64_t{i} * bits;
        const std::uint32_t code = codeOf[rank(words[i])];
        for (std::uint32_t b = 0; b < bits; ++b)
            if (code >> b & 1u)
                codes[(bit + b) / 8] |= static_cast<std::uint8_t>(1u << ((bit + b) % 8));
    }
    return payload;
}

void writeTable(const std::filesystem::path& path, const TableHeader& header,
                std::span<const std::int16_t> values, std::span<const std::uint8_t> distances) {
    if (values.size() != header.states || distances.size() != header.states)
        throw std::logic_error("writeTable: one value and one distance per state");
    TableHeader h = header;
    const auto payload = encodeEntries(values, distances, h.entries);
    const auto head = encodeHeader(h, checksum64(payload));
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec)
        throw std::runtime_error("cannot create " + path.parent_path().string() + ": " +
                                 ec.message());
    // Unique per process and thread, so concurrent writers never share a temporary file.
    const auto tmp = path.string() + ".tmp." + std::to_string(getpid()) + "." +
                     std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(head.data()), head.size());
        out.write(reinterpret_cast<const char*>(payload.data()),
                  static_cast<std::streamsize>(payload.size()));
        out.close();
        if (!out) {
            std::filesystem::remove(tmp, ec);
            throw std::runtime_error("cannot write " + tmp);
        }
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        throw std::runtime_error("cannot rename into " + path.string() + ": " + ec.message());
    }
}

}  // namespace dejarik::tables
