// `dejarik-tune spsa`: the evaluation weights tuned by SPSA through arena games
// (docs/tuning.md, "SPSA").
#pragma once

#include <string>
#include <vector>

namespace dejarik::tune {

// The subcommand's arguments after "spsa"; the process's exit code.
int spsaMain(const std::vector<std::string>& args);

}  // namespace dejarik::tune
