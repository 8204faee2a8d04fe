#include "text_file.h"

#include <fstream>
#include <sstream>

namespace dejarik::arena {

std::optional<std::string> readTextFile(const std::string& path, std::string& error) {
    std::ifstream in(path);
    if (!in) {
        error = "cannot open '" + path + "'";
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace dejarik::arena
