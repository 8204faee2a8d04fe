// The arena's files as the fuzzing pass gave them: folders, missing files, endless lines and
// garbage must fail with one line naming the file, never pass for empty input or hang.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "analysis.h"
#include "game.h"
#include "temp_dir.h"
#include "text_file.h"

using namespace dejarik::arena;
using dejarik::testing::TempDir;

namespace {

std::string readError(const std::string& path) {
    std::string error;
    const auto text = readTextFile(path, error);
    CHECK_FALSE(text);
    return error;
}

}  // namespace

TEST_SUITE("arena-unit") {
    TEST_CASE("input files: a folder or a missing file is an error naming it, not empty input") {
        const TempDir dir;
        CHECK(readError(dir.str()) == "cannot read " + dir.str() + ": is a directory");
        const std::string missing = dir.str() + "/missing.dgn";
        CHECK(readError(missing) == "cannot read " + missing + ": No such file or directory");
    }

    TEST_CASE("input files: a line over 1 MiB fails with its number; the file size is free") {
        const TempDir dir;
        const std::string path = dir.str() + "/long.dgn";
        // Many lines, more than the limit in all, each well below it: read whole.
        const std::string line(1000, 'x');
        {
            std::ofstream out(path);
            for (int i = 0; i < 3000; ++i)
                out << line << '\n';
        }
        std::string error;
        const auto text = readTextFile(path, error);
        REQUIRE(text);
        CHECK(text->size() == 3000 * 1001);
        // A line of exactly the limit passes, one byte more does not.
        {
            std::ofstream out(path);
            out << "a\nb\n" << std::string(kMaxLineBytes, 'y') << '\n';
        }
        CHECK(readTextFile(path, error));
        {
            std::ofstream out(path);
            out << "a\nb\n" << std::string(kMaxLineBytes + 1, 'y') << "\nc\n";
        }
        CHECK(readError(path) == path + ": line 3 longer than 1 MiB");
        // An endless stream (one line without a newline) stops rather than filling the memory.
        CHECK(readError("/dev/zero") == "/dev/zero: line 1 longer than 1 MiB");
    }

    TEST_CASE("output files: a folder is refused; --resume's file must be a regular one") {
        const TempDir dir;
        CHECK(outputFileProblem(dir.str()) == "is a directory");
        CHECK_FALSE(outputFileProblem(dir.str() + "/new.results"));
        CHECK_FALSE(outputFileProblem("/dev/null"));
        CHECK(outputFileProblem("/dev/zero", true) == "not a regular file");
        CHECK_FALSE(outputFileProblem(dir.str() + "/new.results", true));
    }

    TEST_CASE("records: a malformed tag is echoed cut and printable") {
        std::string error;
        CHECK_FALSE(parseRecords("[" + std::string(5000, 'T') + "\xff\x01\n", error));
        CHECK(error.starts_with("line 1: malformed tag '[TTTT"));
        CHECK(error.ends_with("...'"));
        CHECK(error.size() < 100);
        CHECK_FALSE(parseRecords("[Key \"v\"\xff\x01]\n", error));
        CHECK(error == "line 1: malformed tag '[Key \"v\"??]'");
    }

    TEST_CASE("records: an event that does not replay is echoed printable, on one line") {
        const dejarik::Rules rules(dejarik::RuleOptions{});
        GameRecord record;
        record.deal = dejarik::Position::startpos(rules).dfen();
        RecordedEvent event;
        event.token = "c7\x1e\nb7";
        record.events.push_back(event);
        std::string error;
        CHECK_FALSE(forEachEvent(
            record, rules, [](const auto&, auto, const auto&, const auto&) {}, error));
        CHECK(error.ends_with("event 1 'c7??b7' is not legal"));
    }
}
