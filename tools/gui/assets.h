// The page and its assets, embedded in the binary at build time (embed.cmake writes the
// table from tools/gui/web/): requests are answered from here only, never from the file
// system.
#pragma once

#include <span>
#include <string_view>

namespace dejarik::gui {

struct Asset {
    std::string_view path;  // "/index.html"
    std::string_view body;
};

// Every embedded file (generated).
[[nodiscard]] std::span<const Asset> embeddedAssets();
// The asset a request's target names ("/" is the page), the query ignored; nullptr if none.
[[nodiscard]] const Asset* findAsset(std::string_view target);
[[nodiscard]] std::string_view contentType(std::string_view path);

}  // namespace dejarik::gui
