// Events (RULES §10): the decisions and chance outcomes a game is made of.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "board.h"
#include "dice.h"

namespace dejarik {

enum class EventKind : std::uint8_t {
    None,
    Move,    // from-to, a decision of the player on turn
    Attack,  // fromxto
    Pass,
    Outcome,  // a chance outcome of the pending attack
    Place,    // from-to, the placement of a pushed piece
    Setup,    // a player's arrangement of its reserve on its home cells (RULES §15.3)
};

// A 16-bit value: kind, two cells, and the outcome for chance events.
class Event {
  public:
    constexpr Event() = default;

    [[nodiscard]] static constexpr Event move(Cell from, Cell to) {
        return {EventKind::Move, from, to, 0};
    }
    [[nodiscard]] static constexpr Event attack(Cell from, Cell to) {
        return {EventKind::Attack, from, to, 0};
    }
    [[nodiscard]] static constexpr Event pass() { return {EventKind::Pass, Cell(), Cell(), 0}; }
    [[nodiscard]] static constexpr Event outcome(Outcome o) {
        return {EventKind::Outcome, Cell(), Cell(), static_cast<std::uint8_t>(o)};
    }
    [[nodiscard]] static constexpr Event place(Cell from, Cell to) {
        return {EventKind::Place, from, to, 0};
    }
    // A set-up: bits 2i..2i+1 of `slots` name the reserve slot (Position::reserve) that goes
    // to the player's i-th home cell. Its letters, and so its token, belong to the position
    // (Position::token). Kept in two 4-bit halves so that from() and to() stay cells of the
    // board for tables indexed by them (the search's history).
    [[nodiscard]] static constexpr Event setup(std::uint8_t slots) {
        return {EventKind::Setup, Cell(slots & 15), Cell(slots >> 4), 0};
    }
    [[nodiscard]] constexpr std::uint8_t slots() const {
        return static_cast<std::uint8_t>(from_ | to_ << 4);
    }

    [[nodiscard]] constexpr EventKind kind() const { return kind_; }
    [[nodiscard]] constexpr bool isNone() const { return kind_ == EventKind::None; }
    [[nodiscard]] constexpr Cell from() const { return Cell(from_); }
    [[nodiscard]] constexpr Cell to() const { return Cell(to_); }
    [[nodiscard]] constexpr Outcome outcome() const { return static_cast<Outcome>(outcome_); }
    constexpr bool operator==(const Event&) const = default;

    // A compact code, unique per event, for tables (0 is None).
    [[nodiscard]] constexpr std::uint16_t code() const {
        return static_cast<std::uint16_t>(static_cast<int>(kind_) | (from_ << 3) | (to_ << 8) |
                                          (outcome_ << 13));
    }
    [[nodiscard]] static constexpr Event fromCode(std::uint16_t code) {
        return {static_cast<EventKind>(code & 7), Cell((code >> 3) & 31), Cell((code >> 8) & 31),
                static_cast<std::uint8_t>((code >> 13) & 3)};
    }

    // The RULES §10 token: "c3-b3", "b4xa", "pass", "push"; "none" for None. A set-up's
    // token needs its position's reserve: Position::token.
    [[nodiscard]] std::string token() const;

    // Parses a token without a position: "x-y" comes back as a Move, which the position
    // reinterprets as a Place when a placement is due. Case-insensitive.
    [[nodiscard]] static std::optional<Event> parse(std::string_view token);

  private:
    constexpr Event(EventKind kind, Cell from, Cell to, std::uint8_t outcome)
        : kind_(kind),
          from_(static_cast<std::uint8_t>(from.index())),
          to_(static_cast<std::uint8_t>(to.index())),
          outcome_(outcome) {}

    EventKind kind_ = EventKind::None;
    std::uint8_t from_ = 0;
    std::uint8_t to_ = 0;
    std::uint8_t outcome_ = 0;
};

// A fixed-capacity event list, so generation never allocates. 256 exceeds the most events
// any position can have: p pieces have at most p * (25 - p) <= 156 moves plus 96 attacks.
// Events are kept as their 16-bit codes in storage left uninitialised: lists are made at
// every node of a search, and clearing 256 slots each time would cost more than filling them.
class EventList {
  public:
    static constexpr int kCapacity = 256;

    class Iterator {
      public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Event;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = Event;

        Iterator() = default;
        explicit Iterator(const std::uint16_t* p) : p_(p) {}
        Event operator*() const { return Event::fromCode(*p_); }
        Iterator& operator++() { return ++p_, *this; }
        Iterator operator++(int) {
            Iterator old = *this;
            ++p_;
            return old;
        }
        bool operator==(const Iterator&) const = default;

      private:
        const std::uint16_t* p_ = nullptr;
    };

    EventList() {}  // NOLINT: codes_ stays uninitialised on purpose
    void push(Event e) { codes_[size_++] = e.code(); }
    void set(int i, Event e) { codes_[i] = e.code(); }
    // The raw codes, for loops that only reorder events (search's move ordering).
    [[nodiscard]] std::uint16_t code(int i) const { return codes_[i]; }
    void setCode(int i, std::uint16_t code) { codes_[i] = code; }
    void clear() { size_ = 0; }
    [[nodiscard]] int size() const { return size_; }
    [[nodiscard]] bool empty() const { return size_ == 0; }
    [[nodiscard]] Event operator[](int i) const { return Event::fromCode(codes_[i]); }
    [[nodiscard]] Iterator begin() const { return Iterator(codes_); }
    [[nodiscard]] Iterator end() const { return Iterator(codes_ + size_); }
    [[nodiscard]] bool contains(Event e) const;

  private:
    std::uint16_t codes_[kCapacity];
    int size_ = 0;
};

}  // namespace dejarik
