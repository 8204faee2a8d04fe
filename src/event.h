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
    // from-toxcell: a Courtier step with two or more capture candidates and the one taken
    // (RULES §14.8).
    CaptureMove,
    // ray:cell, the roll of the combat cell under RaysOfDeath (a chance event). Coded as an
    // Outcome with bit 15 set: the three kind bits of a code are all taken.
    Roll,
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
    [[nodiscard]] static constexpr Event roll(Cell cell) {
        return {EventKind::Roll, Cell(), cell, 0};
    }
    [[nodiscard]] constexpr std::uint8_t slots() const {
        return static_cast<std::uint8_t>(from_ | to_ << 4);
    }
    // `captured` is adjacent to `to`: the middle of a line that `to` ends (RULES §14.4).
    [[nodiscard]] static constexpr Event captureMove(Cell from, Cell to, Cell captured) {
        return {EventKind::CaptureMove, from, to, static_cast<std::uint8_t>(captured.index())};
    }

    [[nodiscard]] constexpr EventKind kind() const { return kind_; }
    [[nodiscard]] constexpr bool isNone() const { return kind_ == EventKind::None; }
    [[nodiscard]] constexpr Cell from() const { return Cell(from_); }
    [[nodiscard]] constexpr Cell to() const { return Cell(to_); }
    [[nodiscard]] constexpr Outcome outcome() const { return static_cast<Outcome>(outcome_); }
    // The enemy a CaptureMove takes.
    [[nodiscard]] constexpr Cell captured() const { return Cell(outcome_); }
    constexpr bool operator==(const Event&) const = default;

    // A compact code, unique per event, for tables (0 is None). A CaptureMove's captured
    // cell, a neighbour of `to`, takes the outcome's two bits as a slot (captureSlot): 0..2
    // for a step onto a ring cell; 3 for a step onto the centre, whose cell is then implied
    // and the `to` field holds the captured cell. So events stay 16 bits.
    [[nodiscard]] constexpr std::uint16_t code() const {
        if (kind_ == EventKind::CaptureMove) {
            const int kind = static_cast<int>(EventKind::CaptureMove);
            if (to().isCentre())
                return static_cast<std::uint16_t>(kind | (from_ << 3) | (outcome_ << 8) |
                                                  (kCentreSlot << 13));
            return static_cast<std::uint16_t>(kind | (from_ << 3) | (to_ << 8) |
                                              (captureSlot(to(), captured()) << 13));
        }
        if (kind_ == EventKind::Roll)
            return static_cast<std::uint16_t>(static_cast<int>(EventKind::Outcome) | (to_ << 8) |
                                              kRollBit);
        return static_cast<std::uint16_t>(static_cast<int>(kind_) | (from_ << 3) | (to_ << 8) |
                                          (outcome_ << 13));
    }
    [[nodiscard]] static constexpr Event fromCode(std::uint16_t code) {
        const auto kind = static_cast<EventKind>(code & 7);
        const Cell from((code >> 3) & 31), to((code >> 8) & 31);
        const int low = (code >> 13) & 3;
        if (kind == EventKind::Outcome && (code & kRollBit)) return roll(to);
        if (kind == EventKind::CaptureMove) {
            if (low == kCentreSlot) return captureMove(from, Cell::centre(), to);
            return captureMove(from, to, capturedOfSlot(to, low));
        }
        return {kind, from, to, static_cast<std::uint8_t>(low)};
    }

    // The RULES §10 token: "c3-b3", "b4xa", "pass", "push", "b9-axb1", "ray:b7"; "none" for
    // None. A
    // set-up's token needs its position's reserve: Position::token.
    [[nodiscard]] std::string token() const;

    // Parses a token without a position: "x-y" comes back as a Move, which the position
    // reinterprets as a Place when a placement is due. Case-insensitive.
    [[nodiscard]] static std::optional<Event> parse(std::string_view token);

  private:
    // The captured cell relative to a ring cell `to`: 0 its ring's previous cell, 1 its
    // next, 2 its neighbour towards the centre (a from b_i, b_i from c_i).
    static constexpr int kCentreSlot = 3;
    static constexpr int kRollBit = 1 << 15;
    [[nodiscard]] static constexpr int captureSlot(Cell to, Cell captured) {
        if (captured.orbit() != to.orbit()) return 2;
        return captured.ray() % 12 + 1 == to.ray() ? 0 : 1;
    }
    [[nodiscard]] static constexpr Cell capturedOfSlot(Cell to, int slot) {
        const int ray = to.ray();
        const int base = to.isOuter() ? 12 : 0;
        if (slot == 0) return Cell(base + (ray + 10) % 12 + 1);
        if (slot == 1) return Cell(base + ray % 12 + 1);
        return to.isOuter() ? Cell::inner(ray) : Cell::centre();
    }

    constexpr Event(EventKind kind, Cell from, Cell to, std::uint8_t outcome)
        : kind_(kind),
          from_(static_cast<std::uint8_t>(from.index())),
          to_(static_cast<std::uint8_t>(to.index())),
          outcome_(outcome) {}

    EventKind kind_ = EventKind::None;
    std::uint8_t from_ = 0;
    std::uint8_t to_ = 0;
    std::uint8_t outcome_ = 0;  // the outcome; a CaptureMove's captured cell
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
    // Keeps the events for which `keep` holds, in their order (filters without a copy).
    template <class Keep>
    void keepIf(Keep keep) {
        int kept = 0;
        for (int i = 0; i < size_; ++i)
            if (keep(Event::fromCode(codes_[i]))) codes_[kept++] = codes_[i];
        size_ = kept;
    }

  private:
    std::uint16_t codes_[kCapacity];
    int size_ = 0;
};

}  // namespace dejarik
