#include "assets.h"

namespace dejarik::gui {

const Asset* findAsset(std::string_view target) {
    target = target.substr(0, target.find_first_of("?#"));
    if (target == "/") target = "/index.html";
    for (const Asset& a : embeddedAssets())
        if (a.path == target) return &a;
    return nullptr;
}

std::string_view contentType(std::string_view path) {
    if (path.ends_with(".html")) return "text/html; charset=utf-8";
    if (path.ends_with(".css")) return "text/css; charset=utf-8";
    if (path.ends_with(".js")) return "text/javascript; charset=utf-8";
    if (path.ends_with(".svg")) return "image/svg+xml";
    if (path.ends_with(".png")) return "image/png";
    return "application/octet-stream";
}

}  // namespace dejarik::gui
