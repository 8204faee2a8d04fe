// libFuzzer target: DFEN parsing and event tokens (the text a `position` command carries).
// The first byte picks the ruleset and options; the rest is "<dfen>|<events>". A DFEN that
// parses must print back to one that parses to the same position, and the events must be
// accepted or refused without harm.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "position.h"
#include "rules.h"

using namespace dejarik;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    static const Rules kRules[] = {
        Rules::preset(Ruleset::Kelly), Rules::preset(Ruleset::DalsianClassic),
        Rules::preset(Ruleset::Dalsian), Rules::preset(Ruleset::Holochess), [] {
            RuleOptions o;
            (void)o.set("KingOfTheCentre", "true");
            (void)o.set("BlockedPush", "kill-on-push");
            (void)o.set("CentreWin", "2");
            (void)o.set("DrawTurns", "1");
            return Rules(o);
        }()};
    const Rules& rules = kRules[data[0] % std::size(kRules)];
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    const auto bar = text.find('|');
    const std::string_view dfen = text.substr(0, bar);
    const std::string_view events = bar == std::string_view::npos ? "" : text.substr(bar + 1);

    std::string error;
    const auto pos = Position::fromDfen(dfen, rules, &error);
    if (!pos) {
        if (error.empty()) std::abort();
        return 0;
    }
    const auto again = Position::fromDfen(pos->dfen(), rules);
    if (!again || !(*again == *pos) || again->key() != pos->key()) std::abort();
    if (pos->key() != pos->computeKey()) std::abort();

    const auto played = playTokens(*pos, events, &error);
    if (played) {
        if (played->key() != played->computeKey()) std::abort();
        EventList list;
        played->generate(list);
        if (played->isOver() != list.empty()) std::abort();
    } else if (error.empty()) {
        std::abort();
    }
    return 0;
}
