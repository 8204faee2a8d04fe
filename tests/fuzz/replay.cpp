// Runs a libFuzzer target's entry point outside libFuzzer, over the files and folders named
// on the command line, each input whole and cut at every length: the seed corpus
// (tests/fuzz/corpus) as a test of every build, so that the targets compile and their checks
// hold on every compiler, not only where clang's libFuzzer builds them (tests/fuzz/run.sh).
// A check that fails aborts, as under libFuzzer.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        const fs::path path(argv[i]);
        std::error_code error;
        if (!fs::is_directory(path, error)) {
            files.push_back(path);
            continue;
        }
        for (const fs::directory_entry& entry : fs::directory_iterator(path, error))
            if (entry.is_regular_file()) files.push_back(entry.path());
        if (error) {
            std::cerr << "fuzz replay: cannot list " << path << ": " << error.message() << '\n';
            return 2;
        }
    }
    if (files.empty()) {
        std::cerr << "fuzz replay: no inputs (usage: fuzz-replay-T FILE|FOLDER...)\n";
        return 2;
    }
    std::ranges::sort(files);
    std::size_t runs = 0;
    for (const fs::path& file : files) {
        std::ifstream in(file, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in.good() && !in.eof()) {
            std::cerr << "fuzz replay: cannot read " << file << '\n';
            return 2;
        }
        // Every prefix, the empty one too: the cuts reach the parsers' error paths.
        for (std::size_t n = 0; n <= bytes.size(); ++n, ++runs)
            (void)LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), n);
    }
    std::cout << "fuzz replay: " << files.size() << " inputs, " << runs << " runs\n";
    return 0;
}
