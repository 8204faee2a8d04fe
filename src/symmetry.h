// The symmetries of the game: the 24 symmetries of the board and the player swap.
//
// The board is a 12-ray wheel: its symmetry group is the dihedral group of the 12-gon,
// acting on the ray numbers of both rings at once and fixing the centre. Each element maps
// ray r (0-based j = r - 1) to (s * j + k) mod 12 with s = +1 (a rotation by k rays) or
// s = -1 (the reflection j -> -j, then the rotation; "i -> 13 - i" is k = 11). None of the
// rules depends on ray numbers except through adjacency and opposite rays, which these maps
// preserve, and the rules treat the two players alike (who moved first affects no rule), so
// every transform below maps legal play to legal play, perft counts to perft counts and
// values to values (negated under the player swap).
//
// A whole Position can be transformed at any phase: positions are rebuilt through the
// public API only, as the DFEN of a decision point plus event tokens, which is also offered
// directly (transformDfen, transformTokens) for callers that hold a game record.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "board.h"
#include "event.h"
#include "position.h"
#include "rules.h"

namespace dejarik {

// One of the 24 board symmetries: the reflection (if any) first, then the rotation.
class Symmetry {
  public:
    static constexpr int kCount = 24;
    static constexpr int kRays = 12;

    // The identity.
    constexpr Symmetry() = default;
    // Rotation by `rotation` rays (taken mod 12) after the reflection j -> -j if `reflected`.
    constexpr Symmetry(int rotation, bool reflected)
        : rotation_(static_cast<std::uint8_t>(((rotation % kRays) + kRays) % kRays)),
          reflected_(reflected) {}

    // 0..11 the rotations, 12..23 the reflections.
    [[nodiscard]] static constexpr Symmetry fromIndex(int i) {
        return Symmetry(i % kRays, i >= kRays);
    }
    [[nodiscard]] static constexpr std::array<Symmetry, kCount> all() {
        std::array<Symmetry, kCount> out{};
        for (int i = 0; i < kCount; ++i)
            out[i] = fromIndex(i);
        return out;
    }
    // The reflection of the brief and of the ray diagram: ray i -> ray 13 - i.
    [[nodiscard]] static constexpr Symmetry mirror() { return Symmetry(kRays - 1, true); }

    [[nodiscard]] constexpr int index() const { return rotation_ + (reflected_ ? kRays : 0); }
    [[nodiscard]] constexpr int rotation() const { return rotation_; }
    [[nodiscard]] constexpr bool reflected() const { return reflected_; }
    [[nodiscard]] constexpr bool isIdentity() const { return rotation_ == 0 && !reflected_; }

    // Ray 1..12 to ray 1..12.
    [[nodiscard]] constexpr int mapRay(int ray) const {
        const int j = ray - 1;
        const int s = reflected_ ? kRays - j : j;
        return (s + rotation_) % kRays + 1;
    }

    // The symmetry that applies `inner` first, then this one.
    [[nodiscard]] constexpr Symmetry after(Symmetry inner) const {
        // this(inner(j)) = s * (s' * j + k') + k = (s * s') * j + (s * k' + k).
        const int k = (reflected_ ? -inner.rotation_ : inner.rotation_) + rotation_;
        return Symmetry(k, reflected_ != inner.reflected_);
    }
    [[nodiscard]] constexpr Symmetry inverse() const {
        // A reflection is its own inverse; a rotation by k is undone by the rotation by -k.
        return reflected_ ? *this : Symmetry(-rotation_, false);
    }

    constexpr bool operator==(const Symmetry&) const = default;

  private:
    std::uint8_t rotation_ = 0;
    bool reflected_ = false;
};

// A board symmetry, optionally combined with the player swap (piece owners, the side to
// move and the hold counters exchanged; the quiet counter and the turn number unchanged).
// The swap commutes with every board symmetry.
struct Transform {
    Symmetry board;
    bool swapPlayers = false;

    // The transform that applies `inner` first, then this one.
    [[nodiscard]] constexpr Transform after(Transform inner) const {
        return {board.after(inner.board), swapPlayers != inner.swapPlayers};
    }
    [[nodiscard]] constexpr Transform inverse() const { return {board.inverse(), swapPlayers}; }
    constexpr bool operator==(const Transform&) const = default;
};

[[nodiscard]] constexpr Cell transform(Cell c, Symmetry s) {
    switch (c.orbit()) {
        case Orbit::Centre:
            return c;
        case Orbit::Inner:
            return Cell::inner(s.mapRay(c.ray()));
        case Orbit::Outer:
            return Cell::outer(s.mapRay(c.ray()));
    }
    return c;
}

[[nodiscard]] constexpr Bitboard transform(Bitboard b, Symmetry s) {
    Bitboard out;
    for (const Cell c : b)
        out |= Bitboard::of(transform(c, s));
    return out;
}

// Events carry no player: the swap leaves them as they are.
[[nodiscard]] constexpr Event transform(Event e, Symmetry s) {
    switch (e.kind()) {
        case EventKind::Move:
            return Event::move(transform(e.from(), s), transform(e.to(), s));
        case EventKind::Attack:
            return Event::attack(transform(e.from(), s), transform(e.to(), s));
        case EventKind::Place:
            return Event::place(transform(e.from(), s), transform(e.to(), s));
        case EventKind::CaptureMove:
            return Event::captureMove(transform(e.from(), s), transform(e.to(), s),
                                      transform(e.captured(), s));
        case EventKind::Roll:
            return Event::roll(transform(e.to(), s));
        case EventKind::None:
        case EventKind::Pass:
        case EventKind::Outcome:
        // Slots of the reserve, not cells (set-up positions have no images, below).
        case EventKind::Setup:
            return e;
    }
    return e;
}

[[nodiscard]] constexpr Player transform(Player p, Transform t) {
    return t.swapPlayers ? opponent(p) : p;
}

[[nodiscard]] constexpr Piece transform(Piece p, Transform t) {
    if (p.isNone() || !t.swapPlayers) return p;
    return Piece(opponent(p.owner()), p.creature());
}

// The DFEN (RULES §11) of the transformed position, checked only as far as the transform
// needs (the 1/12/12 cells, the side, the hold pair); empty when those are malformed. The
// other fields are copied as they are.
[[nodiscard]] std::optional<std::string> transformDfen(std::string_view dfen, Transform t);

// Whitespace-separated event tokens (RULES §10), each transformed; empty when a token is
// not an event. Together with transformDfen this transforms a whole game record.
[[nodiscard]] std::optional<std::string> transformTokens(std::string_view tokens, Transform t);

// The transformed position, at any phase, under the same Rules. The position must be one
// that play can reach (every Position built by fromDfen and apply is): it is rebuilt as
// the transformed DFEN of the decision point it started from and the transformed attack,
// outcome and placement events that led to it. Throws std::invalid_argument for a state no
// play can reach (a placement after a push with no attacker next to the pushed piece), and
// under RaysOfDeath, whose marks and combat cell the DFEN route would not carry over.
[[nodiscard]] Position transform(const Position& pos, Transform t);

}  // namespace dejarik
