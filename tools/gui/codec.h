// The JSON messages between the page and the server (docs/gui.md lists them): the page's
// requests read into checked values, the server's messages written from the game. A
// request that is not valid JSON, has an unknown type or a field of the wrong kind is
// refused whole, with a message saying why.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "engine_link.h"
#include "luck.h"
#include "referee.h"

namespace dejarik::gui {

struct NewGameRequest {
    GameSetup setup;
    bool seedGiven = false;  // else the session draws one
};
struct PlayRequest {
    std::string token;
};
struct UndoRequest {};
struct SaveRequest {};
struct LoadRequest {
    std::string text;
};
struct GotoRequest {
    std::size_t ply = 0;
};
struct AnalyseRequest {
    int multipv = 3;
    int movetimeMs = 2000;
};
struct StopRequest {};
struct RetryRequest {};

using Request = std::variant<NewGameRequest, PlayRequest, UndoRequest, SaveRequest, LoadRequest,
                             GotoRequest, AnalyseRequest, StopRequest, RetryRequest>;

// None, with `error` set, for anything but a well-formed request.
[[nodiscard]] std::optional<Request> parseRequest(std::string_view text, std::string& error);
// Whether the request ends a search under way (the page waits for nothing else).
[[nodiscard]] bool interruptsSearch(const Request& request);

// What the session adds to the game when it shows it.
struct View {
    std::size_t ply = 0;        // the position shown: after this many events
    bool engineFailed = false;  // the engine failed twice in a row: the page offers a retry
    bool thinking = false;      // the engine is about to search
    std::string engineName;
    std::size_t eventsFrom = 0;  // the page holds the events before this one: sent are the rest
};

[[nodiscard]] std::string encodeState(const Referee& game, const View& view);
// What the dice rolled in `before`: an attack's faces and outcome, or a combat cell's D4
// and D12; either with its probability (Position::probability).
[[nodiscard]] std::string encodeDice(const Position& before, const Roll& roll);
[[nodiscard]] std::string encodeInfo(const InfoLine& info, bool analysis, Player searched);
[[nodiscard]] std::string encodeError(std::string_view message);
[[nodiscard]] std::string encodeRecord(std::string_view text);
[[nodiscard]] std::string encodeNotice(std::string_view kind, std::string_view message);
// The first message: the rule options (their names, kinds and values, from the rules'
// own table) for the new-game form.
[[nodiscard]] std::string encodeHello(std::string_view engineName, int maxGames);

}  // namespace dejarik::gui
