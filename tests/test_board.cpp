// Board geometry (RULES §1) and the move and attack sets of single pieces (RULES §5, §6).
//
// The adjacency and the path enumeration used as references here are written from the
// RULES text with cell names and explicit lists, independently of the bit tricks in board.h
// and of movegen's own reference search.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "board.h"
#include "movegen.h"
#include "rules.h"
#include "sanitized.h"

using namespace dejarik;

namespace doctest {
template <>
struct StringMaker<Bitboard> {
    static String convert(Bitboard b) {
        std::string s = "{";
        for (const Cell c : b) {
            if (s.size() > 1) s += ' ';
            s += c.name();
        }
        s += '}';
        return s.c_str();
    }
};
}  // namespace doctest

namespace {

int wrap(int ray) {
    return (ray + 11) % 12 + 1;  // 0 -> 12, 13 -> 1
}

std::string ringName(char ring, int ray) {
    // Appended, not operator+: GCC 12 warns falsely (-Wrestrict) on the latter.
    std::string s(1, ring);
    s += std::to_string(wrap(ray));
    return s;
}

// The adjacency table of RULES §1, by name.
std::map<std::string, std::set<std::string>> namedAdjacency() {
    std::map<std::string, std::set<std::string>> adj;
    for (int i = 1; i <= 12; ++i) {
        adj["a"].insert(ringName('b', i));
        adj[ringName('b', i)] = {ringName('b', i - 1), ringName('b', i + 1), ringName('c', i), "a"};
        adj[ringName('c', i)] = {ringName('c', i - 1), ringName('c', i + 1), ringName('b', i)};
    }
    return adj;
}

Cell cell(const std::string& name) {
    const auto c = Cell::parse(name);
    REQUIRE_MESSAGE(c, name);
    return *c;
}

Bitboard cells(std::initializer_list<const char*> names) {
    Bitboard b;
    for (const char* n : names)
        b |= Bitboard::of(cell(n));
    return b;
}

std::set<std::string> names(Bitboard b) {
    std::set<std::string> out;
    for (const Cell c : b)
        out.insert(c.name());
    return out;
}

// Every simple path of exactly `steps` steps, followed cell by cell over the named
// adjacency; CentreStraight checks the cell before the centre on the path itself.
void walk(const std::map<std::string, std::set<std::string>>& adj, std::vector<std::string>& path,
          int steps, const std::set<std::string>& empty, bool centreStraight,
          std::set<std::string>& out) {
    if (static_cast<int>(path.size()) == steps + 1) {
        out.insert(path.back());
        return;
    }
    const std::string here = path.back();  // a copy: push_back below may reallocate
    for (const std::string& next : adj.at(here)) {
        if (!empty.count(next)) continue;
        if (std::find(path.begin(), path.end(), next) != path.end()) continue;
        if (centreStraight && here == "a" && path.size() >= 2) {
            const std::string entered = path[path.size() - 2];  // some b_i
            if (next != ringName('b', std::stoi(entered.substr(1)) + 6)) continue;
        }
        path.push_back(next);
        walk(adj, path, steps, empty, centreStraight, out);
        path.pop_back();
    }
}

std::set<std::string> pathDestinations(Cell from, int steps, Bitboard empty, bool centreStraight) {
    static const auto adj = namedAdjacency();
    std::vector<std::string> path = {from.name()};
    std::set<std::string> out;
    if (steps <= 0) return out;  // a move has at least one step
    walk(adj, path, steps, names(empty), centreStraight, out);
    return out;
}

// An empty board but for the moving piece.
Bitboard emptyBut(Cell from) {
    return ~Bitboard::of(from);
}

}  // namespace

TEST_CASE("adjacency: degrees 12/4/3, 48 edges, symmetric, as RULES §1 lists it") {
    const auto adj = namedAdjacency();
    int degreeSum = 0;
    for (int i = 0; i < Cell::kCount; ++i) {
        const Cell c(i);
        const std::string name = c.name();
        CAPTURE(name);
        const Bitboard n = board::adjacent(c);
        CHECK(names(n) == adj.at(c.name()));
        CHECK_FALSE(n.has(c));
        CHECK(n.count() == (c.isCentre() ? 12 : c.isOuter() ? 3 : 4));
        degreeSum += n.count();
        for (int j = 0; j < Cell::kCount; ++j)
            CHECK(n.has(Cell(j)) == board::adjacent(Cell(j)).has(c));
    }
    CHECK(degreeSum == 2 * 48);
}

TEST_CASE("adjacency: the set-wide neighbours equal the union of single cells") {
    std::mt19937 rng(12345);
    for (int trial = 0; trial < 2000; ++trial) {
        const Bitboard s(static_cast<std::uint32_t>(rng()) & Bitboard::kAllBits);
        Bitboard expected;
        for (const Cell c : s)
            expected |= board::adjacent(c);
        CHECK(board::neighbours(s) == expected);
    }
    CHECK(board::neighbours(Bitboard()).empty());
    CHECK(board::neighbours(Bitboard::all()) == Bitboard::all());
}

TEST_CASE("ring steps wrap from 12 to 1 and back") {
    CHECK(board::ringNext(cells({"b12", "c12", "b3"})) == cells({"b1", "c1", "b4"}));
    CHECK(board::ringPrev(cells({"b1", "c1", "c7"})) == cells({"b12", "c12", "c6"}));
    CHECK(board::ringNext(Bitboard::centre()).empty());
    CHECK(board::ringPrev(Bitboard::centre()).empty());
    CHECK(board::opposite(cell("b1")) == cell("b7"));
    CHECK(board::opposite(cell("b6")) == cell("b12"));
    CHECK(board::opposite(cell("b7")) == cell("b1"));
    CHECK(board::opposite(cell("b12")) == cell("b6"));
}

TEST_CASE("cells: bit layout a = 0, b_i = i, c_i = 12 + i") {
    CHECK(Cell::centre().index() == 0);
    for (int i = 1; i <= 12; ++i) {
        CHECK(Cell::inner(i).index() == i);
        CHECK(Cell::outer(i).index() == 12 + i);
        CHECK(Cell::inner(i).ray() == i);
        CHECK(Cell::outer(i).ray() == i);
        CHECK(Cell::inner(i).orbit() == Orbit::Inner);
        CHECK(Cell::outer(i).orbit() == Orbit::Outer);
    }
    CHECK(Cell::centre().orbit() == Orbit::Centre);
    CHECK(Bitboard::innerRing().count() == 12);
    CHECK(Bitboard::outerRing().count() == 12);
    CHECK((Bitboard::innerRing() | Bitboard::outerRing() | Bitboard::centre()) == Bitboard::all());
    CHECK(Bitboard::all().count() == 25);
    CHECK((~Bitboard()).count() == 25);
}

TEST_CASE("cells: names print and parse back, case-insensitive; bad names are rejected") {
    std::set<std::string> seen;
    for (int i = 0; i < Cell::kCount; ++i) {
        const Cell c(i);
        const std::string n = c.name();
        seen.insert(n);
        CHECK(Cell::parse(n) == c);
        std::string upper = n;
        std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
        CHECK(Cell::parse(upper) == c);
    }
    CHECK(seen.size() == 25);
    CHECK(Cell(0).name() == "a");
    CHECK(Cell(1).name() == "b1");
    CHECK(Cell(12).name() == "b12");
    CHECK(Cell(13).name() == "c1");
    CHECK(Cell(24).name() == "c12");
    CHECK(Cell::parse("B10") == Cell::inner(10));
    CHECK(Cell::parse("c12") == Cell::outer(12));
    CHECK(Cell::parse("A") == Cell::centre());
    for (const char* bad :
         {"",    "d1",  "b0",  "b13", "c00",  "b01", "c", "B", "a1",  "aa",   "bb1",
          "b1x", " b1", "b1 ", "b-1", "c100", "c+1", "x", "0", "b 1", "c\xff"}) {
        CAPTURE(bad);
        CHECK_FALSE(Cell::parse(bad).has_value());
    }
}

TEST_CASE("bitboards iterate lowest index first") {
    const Bitboard b = cells({"c12", "a", "b5", "c1"});
    std::vector<int> order;
    for (const Cell c : b)
        order.push_back(c.index());
    CHECK(order == std::vector<int>{0, 5, 13, 24});
    Bitboard copy = b;
    CHECK(copy.popFirst() == Cell::centre());
    CHECK(copy.first() == cell("b5"));
    CHECK(copy.count() == 3);
}

TEST_CASE("moves on an empty board: the hand-counted destination sets") {
    SUBCASE("movement 3 from an outer cell: 17, or 9 with CentreStraight") {
        for (int ray = 1; ray <= 12; ++ray) {
            const Cell c = Cell::outer(ray);
            const std::string name = c.name();
            CAPTURE(name);
            const Bitboard free = movegen::destinations(c, 3, emptyBut(c), false);
            CHECK(free.count() == 17);
            // Every b, the centre, and the outer cells next door or three along (c1 c2 c3 c4).
            Bitboard expected = Bitboard::innerRing() | Bitboard::centre();
            for (const int d : {-3, -1, 1, 3})
                expected |= Bitboard::of(Cell::outer(wrap(ray + d)));
            CHECK(free == expected);
            const Bitboard straight = movegen::destinations(c, 3, emptyBut(c), true);
            CHECK(straight.count() == 9);
        }
        CHECK(names(movegen::destinations(cell("c1"), 3, emptyBut(cell("c1")), true)) ==
              std::set<std::string>{"a", "b1", "b3", "b7", "b11", "c2", "c4", "c10", "c12"});
    }
    SUBCASE("movement 2 from an inner cell: 14") {
        for (int ray = 1; ray <= 12; ++ray) {
            const Cell c = Cell::inner(ray);
            const Bitboard d = movegen::destinations(c, 2, emptyBut(c), false);
            CHECK(d.count() == 14);
            CHECK_FALSE(d.has(c));
            CHECK(d.has(Cell::centre()));
        }
        CHECK(names(movegen::destinations(cell("b1"), 2, emptyBut(cell("b1")), false)) ==
              std::set<std::string>{"a", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9", "b10",
                                    "b11", "b12", "c2", "c12"});
        // CentreStraight: b1 a b7 is the only way through; b1 b2 a still ends on the centre.
        CHECK(names(movegen::destinations(cell("b1"), 2, emptyBut(cell("b1")), true)) ==
              std::set<std::string>{"a", "b3", "b7", "b11", "c2", "c12"});
    }
    SUBCASE("movement 3 from the centre: every other cell, with or without CentreStraight") {
        for (const bool straight : {false, true}) {
            const Bitboard d =
                movegen::destinations(Cell::centre(), 3, emptyBut(Cell::centre()), straight);
            CHECK(d.count() == 24);
            CHECK(d == (Bitboard::innerRing() | Bitboard::outerRing()));
        }
    }
    SUBCASE("movement 1 is the free neighbours; movement 0 goes nowhere") {
        for (int i = 0; i < Cell::kCount; ++i) {
            const Cell c(i);
            CHECK(movegen::destinations(c, 1, emptyBut(c), false) == board::adjacent(c));
            CHECK(movegen::destinations(c, 1, emptyBut(c), true) == board::adjacent(c));
            CHECK(movegen::destinations(c, 0, emptyBut(c), false).empty());
        }
    }
}

TEST_CASE("moves on crowded boards: hand-checked blocked cases") {
    SUBCASE("c1 b1 b2 c2: a 3-step move back next door") {
        const Cell from = cell("c1");
        const Bitboard empty = ~(Bitboard::of(from) | cells({"c12", "a"}));
        for (const bool straight : {false, true})
            CHECK(names(movegen::destinations(from, 3, empty, straight)) ==
                  std::set<std::string>{"b1", "b3", "b11", "c2", "c4"});
    }
    SUBCASE("only one way out") {
        const Cell from = cell("c1");
        const Bitboard empty = ~(Bitboard::of(from) | cells({"b1", "c2"}));
        CHECK(names(movegen::destinations(from, 3, empty, false)) ==
              std::set<std::string>{"a", "b11", "c10"});
        CHECK(names(movegen::destinations(from, 2, empty, false)) ==
              std::set<std::string>{"b12", "c11"});
    }
    SUBCASE("boxed in") {
        const Cell from = cell("c1");
        const Bitboard empty = ~(Bitboard::of(from) | cells({"b1", "c2", "c12"}));
        for (int steps = 0; steps <= 4; ++steps)
            CHECK(movegen::destinations(from, steps, empty, false).empty());
    }
    SUBCASE("a corridor shorter than the movement leads nowhere") {
        // b1 -> c1 -> c2 is the only path; a 3-step move has no third empty cell.
        const Cell from = cell("b1");
        const Bitboard empty = cells({"c1", "c2"});
        CHECK(names(movegen::destinations(from, 2, empty, false)) == std::set<std::string>{"c2"});
        CHECK(movegen::destinations(from, 3, empty, false).empty());
    }
    SUBCASE("CentreStraight with the opposite cell taken") {
        const Cell from = cell("b1");
        const Bitboard empty = ~(Bitboard::of(from) | cells({"b7"}));
        CHECK(names(movegen::destinations(from, 2, empty, true)) ==
              std::set<std::string>{"a", "b3", "b11", "c2", "c12"});
        CHECK(movegen::destinations(from, 2, empty, false).count() == 13);
    }
    SUBCASE("CentreStraight entering the centre on the second step") {
        // c4 b4 a is the only way on, and the centre must then be left to b10.
        const Cell from = cell("c4");
        const Bitboard empty = cells({"b4", "a", "b9", "b10", "b11", "c10"});
        CHECK(names(movegen::destinations(from, 3, empty, true)) == std::set<std::string>{"b10"});
        CHECK(names(movegen::destinations(from, 3, empty, false)) ==
              std::set<std::string>{"b9", "b10", "b11"});
    }
}

TEST_CASE(
    "moves: the fast generator equals both path searches on random occupancies; anyPath "
    "finds a path exactly when there is one") {
    std::mt19937 rng(2024);
    for (int trial = 0; trial < testing::sampleSize(2000); ++trial) {
        // Densities from nearly empty to nearly full.
        const int density = static_cast<int>(rng() % 100);
        std::uint32_t occupied = 0;
        for (int i = 0; i < Cell::kCount; ++i)
            if (static_cast<int>(rng() % 100) < density) occupied |= 1u << i;
        for (int i = 0; i < Cell::kCount; ++i) {
            const Cell from(i);
            const Bitboard empty = ~Bitboard(occupied | (1u << i));
            for (int steps = 0; steps <= 4; ++steps) {
                for (const bool straight : {false, true}) {
                    const Bitboard fast = movegen::destinations(from, steps, empty, straight);
                    const Bitboard ref =
                        movegen::destinationsReference(from, steps, empty, straight);
                    // The path's cells are empty, as many as its steps, and a path of them
                    // alone is a legal move.
                    const auto path = movegen::anyPath(from, steps, empty, straight);
                    REQUIRE(path.has_value() == ref.any());
                    if (path) {
                        CHECK(path->count() == steps);
                        CHECK((*path & ~empty).empty());
                        CHECK(movegen::destinationsReference(from, steps, *path, straight).any());
                    }
                    if (fast != ref || (trial % 5 == 0 && steps <= 3)) {
                        const std::string name = from.name();
                        CAPTURE(name);
                        CAPTURE(steps);
                        CAPTURE(straight);
                        CAPTURE(occupied);
                        REQUIRE(fast == ref);
                        CHECK(names(fast) == pathDestinations(from, steps, empty, straight));
                    }
                }
            }
        }
    }
}

TEST_CASE("attacks: any adjacent enemy, SafeOuterOrbit, KingOfTheCentre") {
    auto rules = [](const char* safe, const char* king) {
        RuleOptions o;
        REQUIRE_FALSE(o.set("SafeOuterOrbit", safe));
        REQUIRE_FALSE(o.set("KingOfTheCentre", king));
        return Rules(o);
    };
    const Rules plain = rules("false", "false");
    const Rules safe = rules("true", "false");
    const Rules king = rules("false", "true");
    const Rules both = rules("true", "true");
    const Bitboard enemies = cells({"a", "b2", "b12", "c1", "c2", "b7"});

    CHECK(names(movegen::attackTargets(cell("b1"), enemies, plain)) ==
          std::set<std::string>{"a", "b2", "b12", "c1"});
    CHECK(names(movegen::attackTargets(cell("c1"), cells({"b1", "c2", "c12"}), plain)) ==
          std::set<std::string>{"b1", "c2", "c12"});
    CHECK(names(movegen::attackTargets(cell("a"), enemies, plain)) ==
          std::set<std::string>{"b2", "b7", "b12"});
    CHECK(movegen::attackTargets(cell("c5"), enemies, plain).empty());

    // SafeOuterOrbit: nothing into or out of the outer ring.
    CHECK(names(movegen::attackTargets(cell("b1"), enemies, safe)) ==
          std::set<std::string>{"a", "b2", "b12"});
    CHECK(movegen::attackTargets(cell("c1"), cells({"b1", "c2", "c12"}), safe).empty());
    CHECK(names(movegen::attackTargets(cell("a"), enemies, safe)) ==
          std::set<std::string>{"b2", "b7", "b12"});

    // KingOfTheCentre: the centre is the attacker's or the defender's cell.
    CHECK(names(movegen::attackTargets(cell("b1"), enemies, king)) == std::set<std::string>{"a"});
    CHECK(names(movegen::attackTargets(cell("a"), enemies, king)) ==
          std::set<std::string>{"b2", "b7", "b12"});
    CHECK(movegen::attackTargets(cell("c2"), cells({"b2", "c1", "c3"}), king).empty());
    CHECK(movegen::attackTargets(cell("b3"), cells({"b2", "b4", "c3"}), king).empty());

    CHECK(names(movegen::attackTargets(cell("b1"), enemies, both)) == std::set<std::string>{"a"});
    CHECK(movegen::attackTargets(cell("c1"), cells({"b1"}), both).empty());

    // Exhaustively: every target is an adjacent enemy and obeys the active restrictions.
    std::mt19937 rng(7);
    for (int trial = 0; trial < 300; ++trial) {
        const Bitboard foes(static_cast<std::uint32_t>(rng()) & Bitboard::kAllBits);
        for (int i = 0; i < Cell::kCount; ++i) {
            const Cell from(i);
            const Bitboard adjacentFoes = board::adjacent(from) & foes;
            for (const Rules* r : {&plain, &safe, &king, &both}) {
                Bitboard expected;
                for (const Cell to : adjacentFoes) {
                    if (r->safeOuterOrbit() && (from.isOuter() || to.isOuter())) continue;
                    if (r->kingOfTheCentre() && !from.isCentre() && !to.isCentre()) continue;
                    expected |= Bitboard::of(to);
                }
                CHECK(movegen::attackTargets(from, foes, *r) == expected);
            }
        }
    }
}
