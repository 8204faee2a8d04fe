#include "index.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "symmetry.h"

namespace dejarik::tables {

namespace {

std::uint32_t power25(int n) {
    std::uint32_t p = 1;
    for (int i = 0; i < n; ++i)
        p *= Cell::kCount;
    return p;
}

std::uint32_t pack(const std::array<Cell, kMaxPieces>& cells, int n) {
    std::uint32_t packed = 0;
    for (int i = 0; i < n; ++i)
        packed = packed * Cell::kCount + static_cast<std::uint32_t>(cells[i].index());
    return packed;
}

}  // namespace

Orbits::Orbits(int pieces) : pieces_(pieces) {
    // First every tuple's orbit, by a table over all 25^n tuples; tuples are visited in
    // increasing order, so the first of an orbit is its smallest, its representative.
    const std::uint32_t tuples = power25(pieces);
    constexpr std::uint32_t kUnset = 0xFFFFFFFF;
    std::vector<std::uint32_t> orbitOf(tuples, kUnset);
    for (std::uint32_t packed = 0; packed < tuples; ++packed) {
        if (orbitOf[packed] != kUnset) continue;
        std::array<Cell, kMaxPieces> cells{};
        std::uint32_t rest = packed;
        for (int i = pieces - 1; i >= 0; --i, rest /= Cell::kCount)
            cells[i] = Cell(static_cast<int>(rest % Cell::kCount));
        bool distinct = true;
        for (int i = 0; i < pieces; ++i)
            for (int j = 0; j < i; ++j)
                distinct = distinct && cells[i] != cells[j];
        if (!distinct) continue;
        const auto id = static_cast<std::uint32_t>(reps_.size());
        reps_.push_back(cells);
        for (const auto& image : kImages) {
            std::array<Cell, kMaxPieces> mapped{};
            for (int i = 0; i < pieces; ++i)
                mapped[i] = Cell(image[cells[i].index()]);
            orbitOf[pack(mapped, pieces)] = id;
        }
    }

    // Then the two-level lookup: each pair's class (its smallest image) and a symmetry
    // that takes it there, and per class the orbit of every tail.
    std::vector<std::uint32_t> classRep;  // packed pair of each class
    for (int c0 = 0; c0 < Cell::kCount; ++c0) {
        for (int c1 = 0; c1 < Cell::kCount; ++c1) {
            if (c0 == c1) continue;
            std::uint32_t best = ~0u;
            int bestG = 0;
            for (int g = 0; g < Symmetry::kCount; ++g) {
                const std::uint32_t image = kImages[g][c0] * Cell::kCount + kImages[g][c1];
                if (image < best) best = image, bestG = g;
            }
            auto it = std::find(classRep.begin(), classRep.end(), best);
            if (it == classRep.end()) it = classRep.insert(classRep.end(), best);
            pairs_[c0 * Cell::kCount + c1] = {static_cast<std::uint8_t>(it - classRep.begin()),
                                              static_cast<std::uint8_t>(bestG)};
        }
    }
    const std::uint32_t tailSize = power25(pieces - 2);
    tails_.assign(classRep.size() * tailSize, kUnset);
    for (std::size_t k = 0; k < classRep.size(); ++k)
        for (std::uint32_t tail = 0; tail < tailSize; ++tail)
            tails_[k * tailSize + tail] = orbitOf[classRep[k] * tailSize + tail];

    centrePiece_.assign(reps_.size(), -1);
    centreRank_.assign(reps_.size(), 0);
    std::vector<std::vector<std::uint32_t>> lists(static_cast<std::size_t>(pieces));
    for (std::size_t o = 0; o < reps_.size(); ++o) {
        for (int i = 0; i < pieces; ++i) {
            if (!reps_[o][i].isCentre()) continue;
            centrePiece_[o] = static_cast<std::int8_t>(i);
            centreRank_[o] = static_cast<std::uint32_t>(lists[i].size());
            lists[i].push_back(static_cast<std::uint32_t>(o));
        }
    }
    perCentre_ = static_cast<std::uint32_t>(lists[0].size());
    for (const auto& l : lists) {
        if (l.size() != perCentre_) throw std::logic_error("Orbits: uneven centre orbits");
        byCentre_.insert(byCentre_.end(), l.begin(), l.end());
    }
}

const Orbits& Orbits::of(int pieces) {
    if (pieces < 2 || pieces > kMaxPieces)
        throw std::out_of_range("Orbits::of: 2 to " + std::to_string(kMaxPieces) + " pieces");
    // Immutable once built; each size built on its first use, so that programs without
    // tables, or without sets of five, pay nothing for them.
    static std::array<std::once_flag, kMaxPieces + 1> once;
    static std::array<std::unique_ptr<const Orbits>, kMaxPieces + 1> built;
    const auto n = static_cast<std::size_t>(pieces);
    std::call_once(once[n], [&] { built[n].reset(new Orbits(pieces)); });
    return *built[n];
}

Layout::Layout(int sideA, int sideB, int centreWin)
    : orbits_(&Orbits::of(sideA + sideB)),
      counts_{sideA, sideB},
      centreWin_(centreWin > 0 ? centreWin : 0) {
    const std::uint32_t o = orbits_->count();
    const std::uint32_t r = orbits_->perCentrePiece();
    base_ = 4 * o;
    for (int s = 0; s < 2; ++s) {
        const std::uint32_t own = static_cast<std::uint32_t>(counts_[s]) * r;
        const std::uint32_t other = static_cast<std::uint32_t>(counts_[1 - s]) * r;
        // Mover's counter with two actions (own piece on a); other's with either.
        sideBlock_[s] = own + 2 * other;
    }
    levelBlock_ = sideBlock_[0] + sideBlock_[1];
    const std::uint32_t levels = centreWin_ > 0 ? static_cast<std::uint32_t>(centreWin_ - 1) : 0;
    stored_ = base_ + levels * levelBlock_;
    // Then, derived: the mover's counter with one action left, any orbit, per level and side.
    size_ = stored_ + levels * 2 * o;
}

std::optional<std::uint32_t> Layout::centreRank(int side, std::uint32_t orbit) const {
    const int j = orbits_->centrePiece(orbit);
    if (j < 0 || (j < counts_[0]) != (side == 0)) return std::nullopt;
    const int within = side == 0 ? j : j - counts_[0];
    return static_cast<std::uint32_t>(within) * orbits_->perCentrePiece() +
           orbits_->centreRank(orbit);
}

std::uint32_t Layout::orbitOfCentreRank(int side, std::uint32_t rank) const {
    const std::uint32_t r = orbits_->perCentrePiece();
    const int j = static_cast<int>(rank / r) + (side == 0 ? 0 : counts_[0]);
    return orbits_->withCentrePiece(j, rank % r);
}

std::optional<std::uint32_t> Layout::index(const StateKey& key) const {
    if (key.holdMover == 0 && key.holdOther == 0)
        return (key.orbit * 2 + static_cast<std::uint32_t>(key.side)) * 2 +
               static_cast<std::uint32_t>(key.actions - 1);
    const auto n = static_cast<std::uint32_t>(centreWin_);
    if ((key.holdMover != 0 && key.holdOther != 0) || key.holdMover >= n || key.holdOther >= n)
        return std::nullopt;
    const int s = key.side;
    const std::uint32_t level = (key.holdMover != 0 ? key.holdMover : key.holdOther) - 1;
    if (key.holdMover != 0 && key.actions == 1)
        return stored_ + (level * 2 + static_cast<std::uint32_t>(s)) * orbits_->count() + key.orbit;
    const std::uint32_t block = base_ + level * levelBlock_ + (s == 1 ? sideBlock_[0] : 0);
    if (key.holdMover != 0) {
        const auto rank = centreRank(s, key.orbit);
        if (!rank) return std::nullopt;
        return block + *rank;
    }
    const auto rank = centreRank(1 - s, key.orbit);
    if (!rank) return std::nullopt;
    const std::uint32_t own = static_cast<std::uint32_t>(counts_[s]) * orbits_->perCentrePiece();
    const std::uint32_t other =
        static_cast<std::uint32_t>(counts_[1 - s]) * orbits_->perCentrePiece();
    return block + own + (key.actions == 1 ? other : 0) + *rank;
}

StateKey Layout::decode(std::uint32_t index) const {
    StateKey key;
    if (index < base_) {
        key.orbit = index / 4;
        key.side = static_cast<int>((index / 2) % 2);
        key.actions = static_cast<int>(index % 2) + 1;
        return key;
    }
    if (index >= stored_) {
        const std::uint32_t o = orbits_->count();
        const std::uint32_t rest = index - stored_;
        key.holdMover = rest / (2 * o) + 1;
        key.side = static_cast<int>(rest / o % 2);
        key.actions = 1;
        key.orbit = rest % o;
        return key;
    }
    std::uint32_t rest = index - base_;
    const std::uint32_t level = rest / levelBlock_ + 1;
    rest %= levelBlock_;
    key.side = rest >= sideBlock_[0] ? 1 : 0;
    if (key.side == 1) rest -= sideBlock_[0];
    const int s = key.side;
    const std::uint32_t r = orbits_->perCentrePiece();
    const std::uint32_t own = static_cast<std::uint32_t>(counts_[s]) * r;
    const std::uint32_t other = static_cast<std::uint32_t>(counts_[1 - s]) * r;
    if (rest < own) {
        key.holdMover = level;
        key.actions = 2;
        key.orbit = orbitOfCentreRank(s, rest);
        return key;
    }
    rest -= own;
    key.holdOther = level;
    key.actions = rest < other ? 2 : 1;
    key.orbit = orbitOfCentreRank(1 - s, rest % other);
    return key;
}

std::optional<Placement> place(const Position& pos, Orientation orientation) {
    const Bitboard occupied = pos.occupied();
    const int n = occupied.count();
    // A quiet draw does not end a table's game: the tables ignore the quiet counter.
    const bool over = pos.isOver() && pos.result() != Result::Draw;
    if (n < 3 || n > kMaxPieces || over || pos.phase() != Phase::Decision) return std::nullopt;
    // Each player's pieces in Creature order, ties by cell (the table's piece order), as
    // creature * 32 + cell, sorted by insertion.
    std::uint16_t keys[2][kMaxPieces];
    int count[2] = {0, 0};
    for (const Cell c : occupied) {
        const Piece piece = pos.at(c);
        const int p = index(piece.owner());
        const auto key =
            static_cast<std::uint16_t>(static_cast<int>(piece.creature()) << 5 | c.index());
        int k = count[p]++;
        for (; k > 0 && keys[p][k - 1] > key; --k)
            keys[p][k] = keys[p][k - 1];
        keys[p][k] = key;
    }
    if (count[0] == 0 || count[1] == 0) return std::nullopt;
    int code[2];
    for (int p = 0; p < 2; ++p) {
        int packed = 0;
        for (int i = count[p] - 1; i >= 0; --i)
            packed = packed * 8 + (keys[p][i] >> 5);
        code[p] = detail::kArmyCodeTable.codeOf[count[p]][packed];
    }
    Placement out;
    out.swapped = orientation == Orientation::Canonical &&
                  (count[0] < count[1] || (count[0] == count[1] && code[0] > code[1]));
    const int a = out.swapped ? 1 : 0;
    out.slot = code[a] * kArmyCodes + code[1 - a];
    std::array<Cell, kMaxPieces> tuple;
    for (int i = 0; i < n; ++i)
        tuple[i] = Cell((i < count[a] ? keys[a][i] : keys[1 - a][i - count[a]]) & 31);
    out.key.orbit = Orbits::of(n).orbit(tuple);
    const Player mover = pos.sideToMove();
    out.key.side = index(mover) == a ? 0 : 1;
    out.key.actions = pos.actionsLeft();
    if (pos.rules().centreWin() > 0) {
        out.key.holdMover = pos.hold(mover);
        out.key.holdOther = pos.hold(opponent(mover));
    }
    return out;
}

std::optional<Material> materialOf(const Position& pos) {
    const std::array<std::vector<Creature>, 2> sides = {pos.army(Player::One),
                                                        pos.army(Player::Two)};
    if (sides[0].size() + sides[1].size() > static_cast<std::size_t>(kMaxPieces))
        return std::nullopt;
    const Material m{Army::of(sides[0]), Army::of(sides[1])};
    if (!m.isTableSet()) return std::nullopt;
    return m.canonical();
}

std::vector<Material> setsFor(const Position& pos, int maxPieces) {
    const std::array<std::vector<Creature>, 2> sides = {pos.army(Player::One),
                                                        pos.army(Player::Two)};
    const auto limit = static_cast<std::size_t>(std::clamp(maxPieces, 0, kMaxPieces));
    const std::size_t n = sides[0].size() + sides[1].size();
    if (n > limit + 1 || sides[0].size() > limit || sides[1].size() > limit) return {};
    const Material m{Army::of(sides[0]), Army::of(sides[1])};
    if (n <= limit)
        return m.isTableSet() ? std::vector<Material>{m.canonical()} : std::vector<Material>{};
    return m.captures();
}

std::string stateDfen(const Material& material, const Layout& layout, std::uint32_t index) {
    const StateKey key = layout.decode(index);
    const auto& cells = layout.orbits().representative(key.orbit);
    std::string board(Cell::kCount, '.');
    int piece = 0;
    for (int s = 0; s < 2; ++s) {
        const Army& army = s == 0 ? material.a : material.b;
        for (int i = 0; i < army.size(); ++i, ++piece)
            board[static_cast<std::size_t>(cells[piece].index())] =
                Piece(s == 0 ? Player::One : Player::Two, army[i]).letter();
    }
    std::string dfen = board.substr(0, 1) + '/' + board.substr(1, 12) + '/' + board.substr(13, 12);
    const Player mover = key.side == 0 ? Player::One : Player::Two;
    dfen += key.side == 0 ? " 1 " : " 2 ";
    dfen += std::to_string(key.actions) + " 0 1";
    if (key.holdMover != 0 || key.holdOther != 0) {
        const std::uint32_t h1 = mover == Player::One ? key.holdMover : key.holdOther;
        const std::uint32_t h2 = mover == Player::One ? key.holdOther : key.holdMover;
        dfen += ' ' + std::to_string(h1) + '/' + std::to_string(h2);
    }
    return dfen;
}

}  // namespace dejarik::tables
