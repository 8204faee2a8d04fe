// Table files: every corruption and every mismatch is refused with a reason and never
// used; nothing crashes. Rules travel in the header and come back whole.
#include <doctest/doctest.h>

#include <bit>
#include <fstream>
#include <iterator>
#include <random>

#include "file.h"
#include "random_positions.h"
#include "test_tables_support.h"

namespace dejarik::testing {

using tables::Material;
using tables::Tablebase;
using tables::TableFile;

namespace {

std::vector<char> readBytes(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const std::filesystem::path& p, const std::vector<char>& bytes) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    REQUIRE(out);
}

// Opening a file with these bytes fails, and the reason contains `why`.
void refused(const std::filesystem::path& p, const std::vector<char>& bytes,
             const std::string& why) {
    writeBytes(p, bytes);
    std::string error;
    const auto file = TableFile::open(p, &error);
    CHECK_FALSE(file);
    CHECK_MESSAGE(error.find(why) != std::string::npos, error);
    CHECK(error.find(p.filename().string()) != std::string::npos);
}

std::uint32_t get32(const std::vector<char>& b, std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 4; i-- > 0;)
        v = v << 8 | static_cast<std::uint8_t>(b[at + i]);
    return v;
}
void put32(std::vector<char>& b, std::size_t at, std::uint32_t v) {
    for (std::size_t i = 0; i < 4; ++i)
        b.at(at + i) = static_cast<char>(v >> (8 * i));
}
void put64(std::vector<char>& b, std::size_t at, std::uint64_t v) {
    for (std::size_t i = 0; i < 8; ++i)
        b.at(at + i) = static_cast<char>(v >> (8 * i));
}
std::uint64_t sum(const std::vector<char>& b, std::size_t from, std::size_t to) {
    return tables::checksum64({reinterpret_cast<const std::uint8_t*>(b.data()) + from, to - from});
}
// One set solved under `root`, its tablebase closed again so that the test may rewrite the
// file: the file's path.
std::filesystem::path generatedFile(const std::filesystem::path& root, const Rules& rules,
                                    const Material& m) {
    Tablebase tb(root, rules);
    tables::generate(tb, {m}, {}, nullptr);
    return tb.fileOf(m);
}

// The file with both checksums made right again (tables/file.h: the payload's at 344,
// the header's of bytes 0..503 at 504): a change the checksums cannot see.
std::vector<char> resealed(std::vector<char> b) {
    put64(b, 344, sum(b, tables::kHeaderBytes, b.size()));
    put64(b, 504, sum(b, 0, 504));
    return b;
}

}  // namespace

TEST_SUITE("tables-files") {
    TEST_CASE("truncated, extended and bit-flipped files are refused, each header byte of them") {
        TempDir root;
        const Rules rules;
        const Material m = material("SG v h");
        const std::filesystem::path path = generatedFile(root.path(), rules, m);
        const std::vector<char> good = readBytes(path);
        {
            std::string error;
            const auto file = TableFile::open(path, &error);
            REQUIRE(file);
            REQUIRE(file->header().states == 2360);
            REQUIRE(good.size() ==
                    tables::kHeaderBytes + tables::payloadBytes(2360, file->header().entries));
        }
        const auto scratch = root.path() / "scratch.dtb";

        for (const std::size_t size : {std::size_t{0}, std::size_t{7}, std::size_t{100},
                                       std::size_t{tables::kHeaderBytes - 1}})
            refused(scratch, {good.begin(), good.begin() + static_cast<std::ptrdiff_t>(size)},
                    "truncated");
        refused(scratch, {good.begin(), good.begin() + tables::kHeaderBytes}, "truncated");
        refused(scratch, {good.begin(), good.end() - 1}, "truncated");
        auto longer = good;
        longer.push_back(0);
        refused(scratch, longer, "too long");

        // Every byte of the header with one of its bits flipped, and a sample of the values.
        std::mt19937_64 rng(9);
        for (std::size_t byte = 0; byte < tables::kHeaderBytes; ++byte) {
            auto bad = good;
            bad[byte] = static_cast<char>(bad[byte] ^ (1 << (rng() % 8)));
            writeBytes(scratch, bad);
            std::string error;
            REQUIRE_FALSE(TableFile::open(scratch, &error));
        }
        for (int trial = 0; trial < 300; ++trial) {
            auto bad = good;
            const std::size_t byte =
                tables::kHeaderBytes + rng() % (good.size() - tables::kHeaderBytes);
            bad[byte] = static_cast<char>(bad[byte] ^ (1 << (rng() % 8)));
            refused(scratch, bad, "value checksum mismatch");
        }
        auto magic = good;
        magic[0] = 'X';
        refused(scratch, magic, "not a table file");
        std::vector<char> noise(good.size());
        for (char& c : noise)
            c = static_cast<char>(rng());
        refused(scratch, noise, "not a table file");
        std::filesystem::remove(scratch);

        // In the directory: a corrupt file is named in problems(), its set is missing, probes
        // of it answer nothing, and the other files still load.
        {
            Tablebase tb(root.path(), rules);
            tables::generate(tb, {material("KL v s")}, {}, nullptr);
        }
        auto flipped = good;
        flipped[good.size() / 2] = static_cast<char>(flipped[good.size() / 2] ^ 4);
        writeBytes(path, flipped);
        const Tablebase tb(root.path(), rules);
        REQUIRE(tb.problems().size() == 1);
        CHECK(tb.problems()[0].find("SGvh.dtb") != std::string::npos);
        CHECK_FALSE(tb.has(m));
        CHECK(tb.has(material("KL v s")));
        CHECK_FALSE(tb.probe(fromDfen("./SGh........./............ 1 2 0 1", rules)));
        CHECK(tb.probe(fromDfen("./KLs........./............ 1 2 0 1", rules)));
    }

    TEST_CASE("codes and codebook: every state's pair comes back, in the fewest bits") {
        std::mt19937_64 rng(3);
        for (const std::uint32_t distinct : {1u, 2u, 3u, 255u, 256u, 257u, 4097u, 13000u}) {
            const std::uint32_t states = distinct + 1000 + static_cast<std::uint32_t>(rng() % 64);
            std::vector<std::int16_t> values(states);
            std::vector<std::uint8_t> distances(states);
            for (std::uint32_t i = 0; i < states; ++i) {
                const std::uint32_t k =
                    i < distinct ? i : static_cast<std::uint32_t>(rng() % distinct);
                values[i] = static_cast<std::int16_t>(static_cast<int>(k % 997) * 65 - 32000);
                distances[i] = static_cast<std::uint8_t>(k / 997 * 7 + k % 3);
            }
            std::uint32_t entries = 0;
            const auto payload = tables::encodeEntries(values, distances, entries);
            CHECK(entries == distinct);
            CHECK(payload.size() == tables::payloadBytes(states, entries));
            const auto e = tables::Entries::at(payload.data(), entries);
            CHECK(e.bits ==
                  (distinct == 1 ? 0u : static_cast<std::uint32_t>(std::bit_width(distinct - 1))));
            for (std::uint32_t i = 0; i < states; ++i) {
                REQUIRE(e.code(i) < entries);
                REQUIRE(e.value(i) == values[i]);
                REQUIRE(e.distance(i) == distances[i]);
            }
        }
    }

    TEST_CASE("format 4: older formats and codes or codebooks the checksums miss are refused") {
        TempDir root;
        const Rules rules;
        const Material m = material("SG v h");
        const std::filesystem::path path = generatedFile(root.path(), rules, m);
        const std::vector<char> good = readBytes(path);
        const auto scratch = root.path() / "scratch.dtb";
        auto old = good;
        put32(old, 8, 3);  // format 3 stored distances the loser could stretch or cut
        refused(scratch, old, "format version 3, this build reads 4");

        const std::uint32_t entries = get32(good, 360);
        const std::uint32_t bits = get32(good, 84);
        REQUIRE(entries >= 3);
        REQUIRE(bits == static_cast<std::uint32_t>(std::bit_width(entries - 1)));
        const std::size_t codes = tables::kHeaderBytes + 4 * std::size_t{entries};
        writeBytes(scratch, resealed(good));
        REQUIRE(TableFile::open(scratch, nullptr));  // resealing alone changes nothing

        // A state naming the last code there is: out of the codebook, or an entry now used
        // out of order.
        auto allOnes = good;
        for (std::uint32_t b = 0; b < bits; ++b)
            allOnes[codes + b / 8] = static_cast<char>(allOnes[codes + b / 8] | 1 << (b % 8));
        refused(scratch, resealed(allOnes), "codebook entry");
        // A codebook word with its padding byte set.
        auto padded = good;
        padded[tables::kHeaderBytes + 3] = 1;
        refused(scratch, resealed(padded), "bad codebook entry 0");
        // A value below -1.
        auto low = good;
        put32(low, tables::kHeaderBytes, 0x8000);
        refused(scratch, resealed(low), "bad codebook entry 0");
        // The slack after the codes, and the header's codebook size.
        auto slack = good;
        slack.back() = 1;
        refused(scratch, resealed(slack), "not zero");
        auto size = good;
        put32(size, 360, entries - 1);
        refused(scratch, resealed(size), "too long");
        auto width = good;
        put32(width, 84, bits + 1);
        refused(scratch, resealed(width), "bad codebook size");

        // Two codebook words exchanged: still canonical only if used equally often; either
        // way the values changed, and a file that loads fails verify.
        auto swapped = good;
        for (std::size_t i = 0; i < 4; ++i)
            std::swap(swapped[tables::kHeaderBytes + i], swapped[tables::kHeaderBytes + 4 + i]);
        writeBytes(path, resealed(swapped));
        Tablebase tb(root.path(), rules);
        if (tb.has(m)) {
            const auto r = tables::verify(tb, m);
            CHECK_FALSE(r.ok);
        } else {
            REQUIRE(tb.problems().size() == 1);
            CHECK(tb.problems()[0].find("out of order") != std::string::npos);
        }
    }

    TEST_CASE("a file under another name or another rule mix is refused") {
        TempDir root;
        const Rules kelly;
        const Rules dalsian = Rules::preset(Ruleset::Dalsian);
        const Material sg = material("SG v h");
        std::filesystem::path kellyFile, dalsianDir;
        {
            Tablebase tb(root.path(), kelly);
            tables::generate(tb, {sg}, {}, nullptr);
            kellyFile = tb.fileOf(sg);
            dalsianDir = Tablebase(root.path(), dalsian).directory();
        }
        // Renamed to another set.
        std::filesystem::copy_file(kellyFile, kellyFile.parent_path() / "KLvs.dtb");
        // Copied into another mix's directory.
        std::filesystem::create_directories(dalsianDir);
        std::filesystem::copy_file(kellyFile, dalsianDir / "SGvh.dtb");

        const Tablebase k(root.path(), kelly);
        REQUIRE(k.problems().size() == 1);
        CHECK(k.problems()[0].find("not what its name says") != std::string::npos);
        CHECK(k.has(sg));
        CHECK_FALSE(k.has(material("KL v s")));

        const Tablebase d(root.path(), dalsian);
        REQUIRE(d.problems().size() == 1);
        CHECK(d.problems()[0].find("another rule mix") != std::string::npos);
        CHECK_FALSE(d.has(sg));

        // Probes under another mix's rules answer nothing; DrawTurns is not part of the mix.
        const std::string dfen = "./SGh........./............ 1 2 0 1";
        CHECK_FALSE(k.probe(fromDfen(dfen, dalsian)));
        const Rules kellyDraw10 = rulesOf(Ruleset::Kelly, {"DrawTurns=10"});
        CHECK(kellyDraw10.gameFingerprint() == kelly.gameFingerprint());
        CHECK(k.probe(fromDfen(dfen, kellyDraw10)) == k.probe(fromDfen(dfen, kelly)));
        const Tablebase draw10(root.path(), kellyDraw10);
        CHECK(draw10.directory() == k.directory());
        CHECK(draw10.rules().drawTurns() == 0);
    }

    TEST_CASE("a changed value with valid checksums loads, and verify catches it") {
        TempDir root;
        const Rules rules = Rules::preset(Ruleset::DalsianClassic);
        const Material m = material("KL v s");
        Tablebase tb(root.path(), rules);
        tables::generate(tb, {m}, {}, nullptr);
        CHECK(tables::verify(tb, m).ok);
        const tables::Table* t = tb.table(m);
        std::vector<std::int16_t> values;
        std::vector<std::uint8_t> distances;
        for (std::uint32_t i = 0; i < t->layout.storedSize(); ++i) {
            values.push_back(t->file->raw(i));
            distances.push_back(t->file->distance(i));
        }
        const auto changed = values;
        values[values.size() / 3] = static_cast<std::int16_t>(values[values.size() / 3] / 2 + 3000);
        tables::writeTable(tb.fileOf(m), t->file->header(), values, distances);
        REQUIRE(tb.load(m));
        const auto r = tables::verify(tb, m);
        CHECK_FALSE(r.ok);
        CHECK(r.problem.find("not a fixed point") != std::string::npos);

        // The values right, one distance one action off (a state with a way to go): the
        // values pass, the distance does not.
        const auto far = std::find_if(distances.begin(), distances.end(),
                                      [](std::uint8_t d) { return d >= 2 && d < 200; });
        REQUIRE(far != distances.end());
        auto wrongDistances = distances;
        --wrongDistances[static_cast<std::size_t>(far - distances.begin())];
        tables::writeTable(tb.fileOf(m), t->file->header(), changed, wrongDistances);
        REQUIRE(tb.load(m));
        const auto d = tables::verify(tb, m);
        CHECK_FALSE(d.ok);
        CHECK(d.deviation <= d.tolerance);
        CHECK(d.distanceErrors == 1);
        CHECK(d.problem.find("wrong distances") != std::string::npos);
        tables::writeTable(tb.fileOf(m), t->file->header(), changed, distances);
        REQUIRE(tb.load(m));
        CHECK(tables::verify(tb, m).ok);
    }

    TEST_CASE("an iteration cap that stops short is reported in the result and the header") {
        TempDir root;
        Tablebase tb(root.path(), Rules());
        tables::GenerateOptions options;
        options.maxIterations = 2;
        const auto r = tables::generateSet(tb, material("KL v s"), options);
        CHECK_FALSE(r.solve.converged);
        CHECK(r.solve.residual > 1e-6);
        CHECK(r.solve.iterations == 3);  // two steps and the certificate
        const auto& h = tb.table(material("KL v s"))->file->header();
        CHECK_FALSE(h.converged);
        CHECK(h.residual == r.solve.residual);
        CHECK_FALSE(tables::verify(tb, material("KL v s")).ok);
    }

    TEST_CASE("a missing capture set stops generateSet with its name") {
        TempDir root;
        Tablebase tb(root.path(), Rules());
        try {
            (void)tables::generateSet(tb, material("SL v hk"), {});
            FAIL("generated a set without its captures");
        } catch (const std::runtime_error& e) {
            CHECK(std::string(e.what()).find("is missing") != std::string::npos);
        }
    }

    TEST_CASE(
        "tables copied into huge pages answer as the mapped files, prefetch changes nothing") {
        TempDir root;
        const Rules rules = Rules::preset(Ruleset::DalsianClassic);  // derived hold states too
        {
            Tablebase tb(root.path(), rules);
            tables::generate(tb, {material("KL v s"), material("SG v h"), material("TN v m")}, {},
                             nullptr);
        }
        const Tablebase mapped(root.path(), rules);
        const Tablebase huge(root.path(), rules, tables::TableMemory::HugePages);
        REQUIRE(mapped.sets().size() == 3);
        REQUIRE(huge.sets() == mapped.sets());
        int compared = 0;
        for (const Material& m : mapped.sets()) {
            const tables::Table* a = mapped.table(m);
            const tables::Table* b = huge.table(m);
            REQUIRE(b);
            CHECK(a->entries.codes != b->entries.codes);  // a copy, not the file
            for (std::uint32_t i = 0; i < a->layout.size(); ++i) {
                if (a->layout.isStored(i)) {
                    REQUIRE(a->value(i) == b->value(i));
                    REQUIRE(a->distance(i) == b->distance(i));
                }
                const auto pos = Position::fromDfen(tables::stateDfen(m, a->layout, i), rules);
                REQUIRE(pos);
                huge.prefetch(*pos);
                const auto x = mapped.probeWithDistance(*pos);
                const auto y = huge.probeWithDistance(*pos);
                REQUIRE(x);
                REQUIRE(y);
                REQUIRE(x->value == y->value);
                REQUIRE(x->distance == y->distance);
                ++compared;
            }
        }
        CHECK(compared > 7000);
    }

    TEST_CASE("the rule options in a header rebuild the same rules") {
        std::vector<Rules> all;
        for (const Ruleset r : kRulesets)
            all.push_back(Rules::preset(r));
        all.push_back(rulesOf(Ruleset::Kelly, {"Dice=split-d6", "BlockedPush=kill-on-push",
                                               "KingOfTheCentre=true", "CentreWin=20"}));
        all.push_back(rulesOf(Ruleset::Holochess, {"CentreStraight=false", "SafeOuterOrbit=true"}));
        for (const Rules& r : all) {
            const std::string line = tables::ruleAssignments(r);
            std::string error;
            const auto back = tables::rulesFromAssignments(line, &error);
            REQUIRE_MESSAGE(back, error);
            CHECK(back->gameFingerprint() == r.gameFingerprint());
            CHECK(back->drawTurns() == 0);
            CHECK(line.size() < 256);
        }
        std::string error;
        CHECK_FALSE(tables::rulesFromAssignments("Ruleset=kelly Dice=d7", &error));
        CHECK(error.find("d7") != std::string::npos);
        // Only the options a table's rules are made of: a creature file named there is not
        // opened (its first line would be echoed, a FIFO would block), nor any other option
        // taken.
        for (const char* line :
             {"Ruleset=kelly CreatureFile=/etc/passwd", "Ruleset=kelly RaysOfDeath=true",
              "Ruleset=kelly DrawTurns=5", "Ruleset=kelly Setup=arrange"}) {
            CAPTURE(line);
            error.clear();
            CHECK_FALSE(tables::rulesFromAssignments(line, &error));
            CHECK(error.find("is no rule option of a table") != std::string::npos);
            CHECK(error.find("root") == std::string::npos);
        }
    }

}  // TEST_SUITE

}  // namespace dejarik::testing
