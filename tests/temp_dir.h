// A folder under the system's temporary folder for one test, removed with everything in it.
// Free of doctest, so that the end-to-end tests with a main of their own use it too: a
// folder that cannot be made throws, which fails a doctest case like any exception.
#pragma once

#include <stdlib.h>

#include <cerrno>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace dejarik::testing {

class TempDir {
  public:
    explicit TempDir(std::string_view prefix = "dejarik-test-") {
        std::string pattern =
            std::filesystem::temp_directory_path() / (std::string(prefix) + "XXXXXX");
        if (mkdtemp(pattern.data()) == nullptr)
            throw std::filesystem::filesystem_error(
                "cannot make a temporary folder", pattern,
                std::error_code(errno, std::generic_category()));
        path_ = pattern;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }
    [[nodiscard]] std::string str() const { return path_.string(); }
    // Files anywhere under the folder whose name holds `part`.
    [[nodiscard]] int count(std::string_view part) const {
        int n = 0;
        for (const auto& f : std::filesystem::recursive_directory_iterator(path_))
            if (f.path().filename().string().find(part) != std::string::npos) ++n;
        return n;
    }

  private:
    std::filesystem::path path_;
};

}  // namespace dejarik::testing
