// Tailten "Kingdoms", one test per rule of docs/rules/tailten.md. Positions are built from
// the text form (Tailten::deserialize); every expected hill list, score and return below
// was reasoned out by hand from the rules, and the comment next to it says why. Positions
// need not come from a real game where only the rule under test matters.
//
// The Tara board: files a-g, ranks 1-7, the 7 x 7 grid without a1, g1, a7, g7. Squared
// distances below are dx^2 + dy^2 (a knight's leap is 5).
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "env/core/rng.h"
#include "env/games/tailten/board.h"
#include "env/games/tailten/match.h"
#include "env/games/tailten/tailten.h"
#include "env/registry/registry.h"
#include "tests/cpp/env/games/game_test_helpers.h"

namespace knightgym {
namespace {

using namespace testing;
using Catch::Contains;
using Phase = Tailten::Phase;
using State = Tailten::State;
using Squares = tailten::Squares;
using Floats = std::vector<float>;

constexpr int kArea = 49;

// ---------------------------------------------------------------------------------------
// Games, hills and positions.

Tailten make_game(std::string_view spec = "tailten") { return game_from_spec<Tailten>(spec); }

int square_at(std::string_view name) {
  REQUIRE(name.size() == 2);
  const int file = name[0] - 'a', rank = name[1] - '1';
  REQUIRE((file >= 0 && file < 7 && rank >= 0 && rank < 7));
  return rank * 7 + file;
}

Strings split(std::string_view names) {
  Strings out;
  std::istringstream in{std::string(names)};
  for (std::string name; in >> name;) out.push_back(name);
  std::sort(out.begin(), out.end());
  return out;
}

Squares bits(std::string_view names) {
  Squares out = 0;
  for (const std::string& name : split(names)) out |= Squares{1} << square_at(name);
  return out;
}

Strings names_of(Squares squares) {
  Strings out;
  for (int square = 0; square < kArea; ++square)
    if (squares >> square & 1) {
      std::string name(1, static_cast<char>('a' + square % 7));
      name += static_cast<char>('1' + square / 7);
      out.push_back(name);
    }
  std::sort(out.begin(), out.end());
  return out;
}

// The board text: rank 7 first, '-' corners, 'r'/'b' ringforts, '.' vacant hills.
std::string board_text(std::string_view reds, std::string_view blues) {
  const Squares r = bits(reds), b = bits(blues);
  std::string out;
  for (int rank = 6; rank >= 0; --rank) {
    for (int file = 0; file < 7; ++file) {
      const int square = rank * 7 + file;
      const bool corner = (file == 0 || file == 6) && (rank == 0 || rank == 6);
      out += corner ? '-' : (r >> square & 1) ? 'r' : (b >> square & 1) ? 'b' : '.';
    }
    if (rank) out += '/';
  }
  return out;
}

std::string text_of(std::string_view reds, std::string_view blues, char to_move,
                    std::string_view phase, int turns) {
  std::string text = "board=";
  text += board_text(reds, blues);
  text += " to_move=";
  text += to_move;
  text += " phase=";
  text += phase;
  text += " turns=";
  text += std::to_string(turns);
  return text;
}

State at(const Tailten& game, std::string_view reds, std::string_view blues, char to_move,
         std::string_view phase, int turns = 10) {
  return game.deserialize(text_of(reds, blues, to_move, phase, turns));
}

// The squares where plane `plane` is 1 (and checks it is 0 elsewhere).
Squares plane_bits(const Floats& obs, int plane) {
  Squares out = 0;
  for (int square = 0; square < kArea; ++square) {
    const float v = obs[static_cast<size_t>(plane * kArea + square)];
    REQUIRE((v == 0.0f || v == 1.0f));
    if (v == 1.0f) out |= Squares{1} << square;
  }
  return out;
}

// The value of a constant plane (checks it is constant).
float plane_value(const Floats& obs, int plane) {
  const float v = obs[static_cast<size_t>(plane * kArea)];
  for (int square = 0; square < kArea; ++square)
    REQUIRE(obs[static_cast<size_t>(plane * kArea + square)] == v);
  return v;
}

constexpr Squares kAll = (Squares{1} << kArea) - 1;
constexpr Squares kCorners =
    Squares{1} << 0 | Squares{1} << 6 | Squares{1} << 42 | Squares{1} << 48;  // a1 g1 a7 g7

// ---------------------------------------------------------------------------------------
// The board.

TEST_CASE("tailten: the board has 45 hills, corners excluded, orthogonal adjacency", "[tailten]") {
  REQUIRE(std::popcount(tailten::kHills) == 45);
  REQUIRE((tailten::kHills & kCorners) == 0);  // a1 g1 a7 g7 are not hills
  REQUIRE(tailten::kHills == (kAll & ~kCorners));
  for (const char* corner : {"a1", "g1", "a7", "g7"})
    REQUIRE(tailten::kHillOfSquare[static_cast<size_t>(square_at(corner))] == -1);
  // Actions are the hills in square order (rank 1 first, a to g): b1 first, f7 last.
  const Tailten game = make_game();
  const State s = new_state(game);
  REQUIRE(game.action_to_string(s, 0) == "b1");
  REQUIRE(game.action_to_string(s, 44) == "f7");
  for (int hill = 0; hill < 45; ++hill)
    REQUIRE(tailten::kHillOfSquare[static_cast<size_t>(tailten::kSquareOfHill[hill])] == hill);
  // Orthogonal neighbours only; the corners cost their neighbours one.
  REQUIRE(names_of(tailten::kAdjacent[static_cast<size_t>(square_at("d4"))]) ==
          split("c4 e4 d3 d5"));
  REQUIRE(names_of(tailten::kAdjacent[static_cast<size_t>(square_at("a2"))]) == split("a3 b2"));
  REQUIRE(names_of(tailten::kAdjacent[static_cast<size_t>(square_at("b1"))]) == split("c1 b2"));
  REQUIRE(names_of(tailten::kAdjacent[static_cast<size_t>(square_at("f7"))]) == split("e7 f6"));
  REQUIRE(names_of(tailten::kAdjacent[static_cast<size_t>(square_at("a4"))]) == split("a3 a5 b4"));
  // Kingdoms follow the same adjacency: diagonal hills (a2, b1) and hills that touch only
  // across the board's edge in square order (g2, a3) are separate kingdoms; a2-a3 is one.
  const Tailten::Score diag = game.score(at(game, "a2 b1", "", 'r', "over"));
  REQUIRE(diag.kingdoms[0] == 2);
  const Tailten::Score edge = game.score(at(game, "g2 a3", "", 'r', "over"));
  REQUIRE(edge.kingdoms[0] == 2);
  const Tailten::Score line = game.score(at(game, "a2 a3 b3", "", 'r', "over"));
  REQUIRE(line.kingdoms[0] == 1);
}

// ---------------------------------------------------------------------------------------
// The opening.

TEST_CASE("tailten: opening: the first ringfort goes anywhere", "[tailten]") {
  const Tailten game = make_game();
  State s = new_state(game);
  REQUIRE(s.phase == Phase::kOpening);
  REQUIRE(s.to_move == 0);  // first_player defaults to Red
  REQUIRE(legal_names(game, s).size() == 45);
  play(game, s, {"d4"});
  // Blue's first ringfort also goes anywhere, even next to Red's.
  REQUIRE(s.to_move == 1);
  REQUIRE(legal_names(game, s).size() == 44);
  play(game, s, {"d5"});
  REQUIRE(s.phase == Phase::kOpening);
  // Red's second: a knight's leap from d4 (d5 is Blue's, not among them).
  REQUIRE(legal_names(game, s) == split("b3 b5 c2 c6 e2 e6 f3 f5"));
  // first_player=1: Blue starts.
  const Tailten blue_first = make_game("tailten(first_player=1)");
  REQUIRE(new_state(blue_first).to_move == 1);
}

TEST_CASE("tailten: opening: a knight's leap from an own ringfort, none closer", "[tailten]") {
  const Tailten game = make_game();
  // Red d4 and f5; Blue b4 and d3. Leaps of d4: b3 b5 c2 c6 e2 e6 f3 (f5 is Red's); of
  // f5: d6 e3 g3 e7. Refused: e6 (diagonal to f5), f3 (two in a line from f5), d6 (two
  // in a line from d4), e3 (diagonal to d4). b3 and b5 touch Blue's b4: allowed.
  const State s = at(game, "d4 f5", "b4 d3", 'r', "opening", 4);
  REQUIRE(legal_names(game, s) == split("b3 b5 c2 c6 e2 g3 e7"));
  REQUIRE(names_of(game.opening_builds(s, 0)) == split("b3 b5 c2 c6 e2 g3 e7"));
  // Red d4 and b2 (squared distance 8). Leaps of d4: b3 b5 c2 c6 e2 e6 f3 f5; of b2: a4 c4
  // d1 d3. Refused for an orthogonal own neighbour: b3 and c2 (next to b2), c4 and d3 (next
  // to d4) - each a leap from one own ringfort and too close to the other.
  const State t = at(game, "d4 b2", "g6", 'r', "opening", 4);
  REQUIRE(legal_names(game, t) == split("a4 b5 c6 d1 e2 e6 f3 f5"));
}

// ---------------------------------------------------------------------------------------
// Battle begins.

TEST_CASE("tailten: battle begins for both when the mover has no opening build", "[tailten]") {
  const Tailten game = make_game();
  // Red b1 and a3: Red's leaps are d2 (of b1), c4 and b5 (of a3); c3 is too close to a3
  // and c2 to b1. Blue holds c4 and b5 and builds d2 (a leap of c4, far from b5).
  State s = at(game, "b1 a3", "c4 b5", 'b', "opening", 4);
  // Blue's opening builds: leaps of c4 (b2 d2 b6 d6 a5 e3 e5) and b5 (c3 c7 d4 d6), less
  // a5 b6 (next to b5), c3 d4 (next to c4).
  REQUIRE(legal_names(game, s) == split("b2 c7 d2 d6 e3 e5"));
  REQUIRE(s.phase == Phase::kOpening);
  play(game, s, {"d2"});
  // Red now has no opening build: Battle starts, and this turn is already a battle turn -
  // builds next to Red's ringforts: b1 touches c1, b2; a3 touches a2, a4, b3.
  REQUIRE(s.phase == Phase::kBattle);
  REQUIRE(s.to_move == 0);
  REQUIRE(s.capturing == 0);
  REQUIRE(legal_names(game, s) == split("a2 a4 b2 b3 c1"));
  play(game, s, {"b2"});
  // Blue still has opening builds (f1 is a leap of d2 far from c4, b5), but plays Battle
  // too: only hills next to its c4, b5, d2.
  REQUIRE(s.phase == Phase::kBattle);
  REQUIRE(s.to_move == 1);
  REQUIRE((game.opening_builds(s, 1) & bits("f1")) != 0);
  REQUIRE(legal_names(game, s) == split("a5 b4 b6 c2 c3 c5 d1 d3 d4 e2"));
}

TEST_CASE("tailten: an empty supply in the opening starts battle", "[tailten]") {
  const Tailten game = make_game("tailten(ringforts=2)");
  // Red has both its ringforts on the board; Blue builds its second (a leap of d4).
  State s = at(game, "a2 g6", "d4", 'b', "opening", 3);
  REQUIRE(legal_names(game, s) == split("b3 b5 c2 c6 e2 e6 f3 f5"));
  play(game, s, {"f5"});
  // Red has no opening build (empty supply): Battle; and no battle turn either (a build
  // needs a ringfort in supply), so Red is out and Blue takes one more, battle, turn -
  // but Blue's supply is empty too, so the game ends at once.
  REQUIRE(s.end == End::kRules);
  REQUIRE(game.terminal(s));
  REQUIRE_FALSE(game.truncated(s));
  // ringforts=3: Blue keeps one: its last turn is a battle build next to d4 or f5.
  const Tailten three = make_game("tailten(ringforts=3)");
  State t = at(three, "a2 g6 c7", "d4", 'b', "opening", 5);
  play(three, t, {"f5"});
  REQUIRE(t.phase == Phase::kLastTurn);
  REQUIRE(t.to_move == 1);
  REQUIRE(legal_names(three, t) == split("c4 e4 d3 d5 e5 g5 f4 f6"));
}

// ---------------------------------------------------------------------------------------
// Battle builds and captures.

TEST_CASE("tailten: battle: builds next to an own ringfort", "[tailten]") {
  const Tailten game = make_game();
  // Red d4 and a2; Blue e4. Next to Red: c4 d3 d5 (e4 is Blue's), a3 b2.
  const State s = at(game, "d4 a2", "e4", 'r', "battle");
  REQUIRE(legal_names(game, s) == split("c4 d3 d5 a3 b2"));
  REQUIRE(s.capturing == 0);
}

TEST_CASE("tailten: battle: afresh anywhere when no vacant hill touches an own ringfort",
          "[tailten]") {
  const Tailten game = make_game();
  // Red d4 is enclosed by Blue c4 e4 d3 d5 (none of them besieged: each has a vacant
  // neighbour), so Red builds afresh on any of the 45 - 5 vacant hills.
  const State s = at(game, "d4", "c4 e4 d3 d5", 'r', "battle");
  REQUIRE(legal_names(game, s).size() == 40);
  REQUIRE(s.capturing == 0);
  // A player with no ringfort on the board builds anywhere too.
  const State t = at(game, "", "d4 d5", 'r', "battle");
  REQUIRE(legal_names(game, t).size() == 43);
}

TEST_CASE("tailten: battle: building afresh on a besieged hill, then the capture", "[tailten]") {
  const Tailten game = make_game();
  // Red has no ringfort; b1's neighbours c1 and b2 are Blue's: b1 is still legal.
  State s = at(game, "", "c1 b2 d4", 'r', "battle");
  REQUIRE(legal_names(game, s).size() == 42);
  REQUIRE(game.supply(s, 0) == 30);
  REQUIRE(game.supply(s, 1) == 27);
  play(game, s, {"b1"});
  REQUIRE(game.supply(s, 0) == 29);
  // Red's b1 is isolated (no Red neighbour) and besieged (c1, b2 Blue): Blue must take it.
  REQUIRE(s.to_move == 1);
  REQUIRE(s.capturing == 1);
  REQUIRE(legal_names(game, s) == split("b1"));
  play(game, s, {"b1"});
  // The ringfort goes back to Red's supply; Blue's drops by one.
  REQUIRE(game.supply(s, 0) == 30);
  REQUIRE(game.supply(s, 1) == 26);
  REQUIRE(s.forts[1] == bits("b1 c1 b2 d4"));
  REQUIRE(s.forts[0] == 0);
}

TEST_CASE("tailten: captures: isolated and besieged enemy ringforts must be captured",
          "[tailten]") {
  const Tailten game = make_game();
  // Blue a2 (neighbours a3 b2 Red) and d4 (c4 e4 d3 d5 Red) are isolated and besieged.
  // Not captures: g2 (f2 vacant: not besieged), b6 (b7 is Blue: not isolated, though
  // a6 c6 b5 are Red), b7 (c7 vacant, b6 Blue).
  State s = at(game, "a3 b2 c4 e4 d3 d5 g3 a6 c6 b5", "a2 d4 g2 b6 b7", 'r', "battle", 20);
  REQUIRE(s.capturing == 1);
  REQUIRE(legal_names(game, s) == split("a2 d4"));  // only the captures, Red's choice
  REQUIRE(game.supply(s, 0) == 20);
  REQUIRE(game.supply(s, 1) == 25);
  play(game, s, {"d4"});
  // d4 is Red's now; it went back to Blue's supply; the capture was the whole turn.
  REQUIRE(s.forts[0] == bits("a3 b2 c4 e4 d3 d5 g3 a6 c6 b5 d4"));
  REQUIRE(s.forts[1] == bits("a2 g2 b6 b7"));
  REQUIRE(game.supply(s, 0) == 19);
  REQUIRE(game.supply(s, 1) == 26);
  REQUIRE(s.to_move == 1);
  REQUIRE(s.turns == 21);
  REQUIRE(s.capturing == 0);  // no Red ringfort is isolated and besieged by Blue
  // Blue builds next to a2 g2 b6 b7 (a3 b2 g3 a6 c6 b5 are Red's).
  REQUIRE(legal_names(game, s) == split("f2 c7"));
}

TEST_CASE("tailten: captures: none when not isolated or not besieged", "[tailten]") {
  const Tailten game = make_game();
  // Blue d4 with Red c4 e4 d3 and d5 vacant: not besieged. Red builds next to its own:
  // b4 c3 c5 (of c4), f4 e3 e5 (of e4), d2 (of d3).
  const State s = at(game, "c4 e4 d3", "d4", 'r', "battle");
  REQUIRE(s.capturing == 0);
  REQUIRE(legal_names(game, s) == split("b4 c3 c5 d2 e3 e5 f4"));
  // Blue d4 d5 with all their other neighbours Red: neither is isolated (each touches the
  // other). Red builds: b4 c3 (c4), f4 e3 (e4), d2 (d3), b5 c6 (c5), f5 e6 (e5), d7 (d6).
  const State t = at(game, "c4 e4 d3 c5 e5 d6", "d4 d5", 'r', "battle");
  REQUIRE(t.capturing == 0);
  REQUIRE(legal_names(game, t) == split("b4 b5 c3 c6 d2 d7 e3 e6 f4 f5"));
}

TEST_CASE("tailten: captures exist only in battle", "[tailten]") {
  const Tailten game = make_game();
  // Opening: Blue a2 is isolated and besieged by Red a3 b2, but is not captured. Red's
  // opening builds: leaps c4 b5 (of a3), d1 d3 c4 (of b2); b1 c2 a4 are too close.
  const State s = at(game, "a3 b2", "a2", 'r', "opening", 3);
  REQUIRE(s.capturing == 0);
  REQUIRE(legal_names(game, s) == split("b5 c4 d1 d3"));
  // The same in Battle: a2 must be captured.
  const State t = at(game, "a3 b2", "a2", 'r', "battle", 3);
  REQUIRE(t.capturing == 1);
  REQUIRE(legal_names(game, t) == split("a2"));
}

// ---------------------------------------------------------------------------------------
// The end: OUT.

TEST_CASE("tailten: out: the other player takes exactly one more turn", "[tailten]") {
  const Tailten game = make_game("tailten(ringforts=4)");
  // Red has all 4 ringforts on the board. Blue b2 a4 builds a3 (next to a4).
  State s = at(game, "a2 d4 f6 c7", "b2 a4", 'b', "battle", 10);
  REQUIRE(s.capturing == 0);  // a2 is not besieged yet (a3 vacant)
  play(game, s, {"a3"});
  // Red has no legal turn (empty supply): out. Blue's one more turn: a2 is isolated and
  // besieged by a3 b2, so it must be captured.
  REQUIRE(s.phase == Phase::kLastTurn);
  REQUIRE(s.to_move == 1);
  REQUIRE(s.capturing == 1);
  REQUIRE(legal_names(game, s) == split("a2"));
  REQUIRE(game.current_player(s) == 1);
  play(game, s, {"a2"});
  // The game ends, though Red has a ringfort in supply again and could build.
  REQUIRE(game.terminal(s));
  REQUIRE(s.end == End::kRules);
  REQUIRE_FALSE(game.truncated(s));
  REQUIRE(s.turns == 12);
  REQUIRE(game.supply(s, 0) == 1);
  bool capturing = false;
  REQUIRE(game.battle_turns(s, 0, &capturing) != 0);
  REQUIRE(game.current_player(s) == kTerminalPlayer);
  REQUIRE(legal_names(game, s).empty());
  // Red d4 f6 c7: 3 kingdoms; Blue a2 a3 a4 b2: 1. Blue wins 2 + 2 = 4 points.
  const Tailten::Score score = game.score(s);
  REQUIRE(score.kingdoms == std::array<int, 2>{3, 1});
  REQUIRE(score.winner == 1);
  REQUIRE(score.match_points == std::array<int, 2>{0, 4});
  REQUIRE(returns(game, s) == Floats{-1.0f, 1.0f});
}

TEST_CASE("tailten: out: if neither player can move the game ends at once", "[tailten]") {
  const Tailten game = make_game("tailten(ringforts=2)");
  // Blue builds its last ringfort; Red's supply is empty too.
  State s = at(game, "a2 d4", "f6", 'b', "battle", 9);
  REQUIRE(legal_names(game, s) == split("e6 g6 f5 f7"));
  play(game, s, {"f5"});
  REQUIRE(s.end == End::kRules);
  REQUIRE(s.turns == 10);
  // Red a2, d4: 2 kingdoms; Blue f5-f6: 1. Blue wins 2 + 1 = 3.
  REQUIRE(game.score(s).match_points == std::array<int, 2>{0, 3});
}

TEST_CASE("tailten: out: a capture needs a ringfort in supply", "[tailten]") {
  const Tailten game = make_game("tailten(ringforts=4)");
  // Red's a2 is isolated and besieged by Blue's a3 b2, but Blue's supply is empty: Blue
  // cannot capture and has no legal turn, so this cannot be Blue's battle turn.
  REQUIRE_THROWS_WITH(game.deserialize(text_of("a2 d4", "a3 b2 f6 g4", 'b', "battle", 8)),
                      Contains("no legal turn"));
  // Red builds d5; Blue is then out; Red's one more turn builds next to d4 d5 (a2 has no
  // vacant neighbour), with a ringfort left in supply.
  State s = at(game, "a2 d4", "a3 b2 f6 g4", 'r', "battle", 8);
  REQUIRE(legal_names(game, s) == split("c4 e4 d3 d5"));
  play(game, s, {"d5"});
  REQUIRE(s.phase == Phase::kLastTurn);
  REQUIRE(s.to_move == 0);
  REQUIRE(legal_names(game, s) == split("c4 e4 d3 c5 e5 d6"));
}

// ---------------------------------------------------------------------------------------
// Scoring.

TEST_CASE("tailten: scoring: fewer kingdoms wins with 2 + the difference", "[tailten]") {
  const Tailten game = make_game();
  // The rules' example: 2 vs 3 kingdoms -> 3 points. Red a2, c2; Blue e2, g2, e4.
  const State s = at(game, "a2 c2", "e2 g2 e4", 'r', "over");
  const Tailten::Score score = game.score(s);
  REQUIRE(score.kingdoms == std::array<int, 2>{2, 3});
  REQUIRE(score.territory == std::array<int, 2>{2, 3});  // more territory does not matter
  REQUIRE(score.winner == 0);
  REQUIRE(score.match_points == std::array<int, 2>{3, 0});
  REQUIRE(returns(game, s) == Floats{1.0f, -1.0f});
  // Blue's 1 kingdom beats Red's 4: 2 + 3 = 5.
  const Tailten::Score blue = game.score(at(game, "a2 c2 e2 g2", "d4 d5 d6", 'r', "over"));
  REQUIRE(blue.winner == 1);
  REQUIRE(blue.match_points == std::array<int, 2>{0, 5});
}

TEST_CASE("tailten: scoring: equal kingdoms, more territory wins with 2 + difference",
          "[tailten]") {
  const Tailten game = make_game();
  // The rules' example: 1 vs 1 kingdom, 24 vs 21 ringforts -> 5 points. Red: ranks 1-3
  // (5 + 7 + 7) and a4-e4 (5) = 24, one kingdom; Blue: f4 g4 and ranks 5-7 (2 + 14 + 5).
  const State s =
      at(game, "b1 c1 d1 e1 f1 a2 b2 c2 d2 e2 f2 g2 a3 b3 c3 d3 e3 f3 g3 a4 b4 c4 d4 e4",
         "f4 g4 a5 b5 c5 d5 e5 f5 g5 a6 b6 c6 d6 e6 f6 g6 b7 c7 d7 e7 f7", 'r', "over");
  const Tailten::Score score = game.score(s);
  REQUIRE(score.kingdoms == std::array<int, 2>{1, 1});
  REQUIRE(score.territory == std::array<int, 2>{24, 21});
  REQUIRE(score.winner == 0);
  REQUIRE(score.match_points == std::array<int, 2>{5, 0});
  // Blue with more territory: 1 vs 2 ringforts in one kingdom each -> Blue 3.
  const State t = at(game, "a2", "d4 d5", 'r', "over");
  REQUIRE(game.score(t).winner == 1);
  REQUIRE(game.score(t).match_points == std::array<int, 2>{0, 3});
  REQUIRE(returns(game, t) == Floats{-1.0f, 1.0f});
}

TEST_CASE("tailten: scoring: equal kingdoms and territory is a draw", "[tailten]") {
  const Tailten game = make_game();
  const State s = at(game, "a2 a3 e5", "g6 f6 c2", 'r', "over");
  const Tailten::Score score = game.score(s);
  REQUIRE(score.kingdoms == std::array<int, 2>{2, 2});
  REQUIRE(score.winner == -1);
  REQUIRE(score.match_points == std::array<int, 2>{0, 0});
  REQUIRE(returns(game, s) == Floats{0.0f, 0.0f});
  // An empty board: 0 vs 0 kingdoms, 0 vs 0 territory.
  REQUIRE(game.score(at(game, "", "", 'r', "over")).winner == -1);
}

TEST_CASE("tailten: scoring: no ringfort on the board is 0 kingdoms", "[tailten]") {
  const Tailten game = make_game();
  // Red has none: 0 kingdoms against Blue's 1, so Red has fewer and wins 2 + 1.
  const State s = at(game, "", "d4", 'r', "over");
  const Tailten::Score score = game.score(s);
  REQUIRE(score.kingdoms == std::array<int, 2>{0, 1});
  REQUIRE(score.winner == 0);
  REQUIRE(score.match_points == std::array<int, 2>{3, 0});
}

// ---------------------------------------------------------------------------------------
// Truncation.

TEST_CASE("tailten: max_turns truncates, but a natural end on the last ply wins", "[tailten]") {
  const Tailten game = make_game("tailten(max_turns=3)");
  State s = new_state(game);
  play(game, s, {"d4"});
  play(game, s, {"b1"});
  REQUIRE_FALSE(game.terminal(s));
  play(game, s, {"f5"});
  REQUIRE(game.terminal(s));
  REQUIRE(game.truncated(s));
  REQUIRE(s.turns == 3);
  REQUIRE(game.serialize(s).find("phase=truncated") != std::string::npos);
  // The out example of ringforts=2 ends on ply 10 by itself: not truncated at max_turns=10.
  const Tailten short_game = make_game("tailten(ringforts=2,max_turns=10)");
  State t = at(short_game, "a2 d4", "f6", 'b', "battle", 9);
  play(short_game, t, {"f5"});
  REQUIRE(short_game.terminal(t));
  REQUIRE_FALSE(short_game.truncated(t));
  REQUIRE(short_game.serialize(t).find("phase=over") != std::string::npos);
  // Whereas a game that goes on is truncated on that ply.
  State u = at(short_game, "a2", "f6", 'b', "battle", 9);
  play(short_game, u, {"f5"});
  REQUIRE(short_game.terminal(u));
  REQUIRE(short_game.truncated(u));
}

// ---------------------------------------------------------------------------------------
// The match.

TEST_CASE("tailten: a match is two games with the starter swapped", "[tailten]") {
  for (int first : {0, 1}) {
    Tailten::Params params;
    params.first_player = first;
    params.ringforts = 12;
    std::vector<int> starters;
    const tailten::MatchResult result =
        tailten::play_match(params, [&](const Tailten& rules, const State& s) {
          if (s.turns == 0) starters.push_back(s.to_move);
          std::vector<Action> actions(Tailten::kNumActions);
          REQUIRE(rules.legal_actions(s, actions.data()) > 0);
          return actions[0];
        });
    REQUIRE(starters == std::vector<int>{first, 1 - first});
    // Replay each game by hand: same score and length.
    for (int g = 0; g < 2; ++g) {
      Tailten::Params p = params;
      p.first_player = g == 0 ? first : 1 - first;
      const Tailten rules(p);
      State s = new_state(rules);
      std::vector<Action> actions(Tailten::kNumActions);
      while (!rules.terminal(s)) {
        REQUIRE(rules.legal_actions(s, actions.data()) > 0);
        rules.apply(s, actions[0]);
      }
      REQUIRE(rules.score(s).match_points == result.games[g].match_points);
      REQUIRE(rules.score(s).kingdoms == result.games[g].kingdoms);
      REQUIRE(s.turns == result.turns[g]);
    }
    for (int p = 0; p < 2; ++p)
      REQUIRE(result.points[p] ==
              result.games[0].match_points[p] + result.games[1].match_points[p]);
    const int expected = result.points[0] > result.points[1]   ? 0
                         : result.points[0] < result.points[1] ? 1
                                                               : -1;
    REQUIRE(result.winner == expected);
  }
}

// ---------------------------------------------------------------------------------------
// Observation.

TEST_CASE("tailten: observation planes from the observer's side", "[tailten]") {
  const Tailten game = make_game("tailten(max_turns=40)");
  // Battle, Blue to move: Red's a2 is isolated and besieged by Blue's a3 b2 (capture).
  const State s = at(game, "a2 d4 d5", "a3 b2", 'b', "battle", 10);
  REQUIRE(s.capturing == 1);
  const Floats red = observe(game, s, 0), blue = observe(game, s, 1);
  REQUIRE(plane_bits(red, Tailten::kPlaneOwn) == bits("a2 d4 d5"));
  REQUIRE(plane_bits(red, Tailten::kPlaneEnemy) == bits("a3 b2"));
  REQUIRE(plane_bits(blue, Tailten::kPlaneOwn) == bits("a3 b2"));
  REQUIRE(plane_bits(blue, Tailten::kPlaneEnemy) == bits("a2 d4 d5"));
  for (const Floats* obs : {&red, &blue}) {
    REQUIRE(plane_bits(*obs, Tailten::kPlaneVacant) == (tailten::kHills & ~bits("a2 d4 d5 a3 b2")));
    REQUIRE(plane_bits(*obs, Tailten::kPlaneHills) == (kAll & ~kCorners));
    REQUIRE(plane_value(*obs, Tailten::kPlaneOpening) == 0.0f);
    REQUIRE(plane_value(*obs, Tailten::kPlaneBattle) == 1.0f);
    REQUIRE(plane_value(*obs, Tailten::kPlaneLastTurn) == 0.0f);
    REQUIRE(plane_value(*obs, Tailten::kPlaneProgress) == 10.0f / 40.0f);
  }
  REQUIRE(plane_bits(blue, Tailten::kPlaneCaptures) == bits("a2"));  // the mover's captures
  // Supplies: Red 27/30, Blue 28/30, each from its own side.
  REQUIRE(plane_value(red, Tailten::kPlaneOwnSupply) == 27.0f / 30.0f);
  REQUIRE(plane_value(red, Tailten::kPlaneEnemySupply) == 28.0f / 30.0f);
  REQUIRE(plane_value(blue, Tailten::kPlaneOwnSupply) == 28.0f / 30.0f);
  REQUIRE(plane_value(blue, Tailten::kPlaneEnemySupply) == 27.0f / 30.0f);
  REQUIRE(plane_value(red, Tailten::kPlaneObserverToMove) == 0.0f);
  REQUIRE(plane_value(blue, Tailten::kPlaneObserverToMove) == 1.0f);
  // The opening and last-turn planes; no captures plane when building.
  const State o = at(game, "d4", "a2", 'r', "opening", 2);
  const Floats opening = observe(game, o, 0);
  REQUIRE(plane_value(opening, Tailten::kPlaneOpening) == 1.0f);
  REQUIRE(plane_value(opening, Tailten::kPlaneBattle) == 0.0f);
  REQUIRE(plane_bits(opening, Tailten::kPlaneCaptures) == 0);
  const Tailten four = make_game("tailten(ringforts=4)");
  State l = at(four, "a2 d4 f6 c7", "b2 a4", 'b', "battle", 10);
  four.apply(l, four.string_to_action(l, "a3"));
  REQUIRE(l.phase == Phase::kLastTurn);
  const Floats last = observe(four, l, 1);
  REQUIRE(plane_value(last, Tailten::kPlaneLastTurn) == 1.0f);
  REQUIRE(plane_value(last, Tailten::kPlaneBattle) == 0.0f);
  REQUIRE(plane_value(last, Tailten::kPlaneObserverToMove) == 1.0f);
  four.apply(l, four.string_to_action(l, "a2"));
  // Over: the phase planes are all zero, nobody is to move.
  const Floats over = observe(four, l, 1);
  REQUIRE(plane_value(over, Tailten::kPlaneLastTurn) == 0.0f);
  REQUIRE(plane_value(over, Tailten::kPlaneBattle) == 0.0f);
  REQUIRE(plane_value(over, Tailten::kPlaneObserverToMove) == 0.0f);
}

TEST_CASE("tailten: observation: every observer sees the mover's forced captures", "[tailten]") {
  // Blue must capture a2 (Red's only neighbours of a2, a3 and b2, are Blue's); the plane
  // shows the mover's captures whoever observes (docs/rules/tailten.md).
  const Tailten game = make_game();
  const State s = at(game, "a2 d4 d5", "a3 b2", 'b', "battle", 10);
  REQUIRE(plane_bits(observe(game, s, 1), Tailten::kPlaneCaptures) == bits("a2"));
  REQUIRE(plane_bits(observe(game, s, 0), Tailten::kPlaneCaptures) == bits("a2"));
}

// ---------------------------------------------------------------------------------------
// Bad input.

TEST_CASE("tailten: bad parameters are refused with the reason", "[tailten]") {
  REQUIRE_THROWS_AS(make_game("tailten(first_player=2)"), std::invalid_argument);
  REQUIRE_THROWS_WITH(make_game("tailten(first_player=2)"), Contains("first_player"));
  REQUIRE_THROWS_WITH(make_game("tailten(ringforts=0)"), Contains("ringforts"));
  REQUIRE_THROWS_WITH(make_game("tailten(ringforts=46)"), Contains("ringforts"));
  REQUIRE_THROWS_WITH(make_game("tailten(max_turns=0)"), Contains("max_turns"));
  REQUIRE_THROWS_WITH(make_game("tailten(colour=red)"), Contains("colour"));
  REQUIRE_NOTHROW(make_game("tailten(first_player=1,ringforts=45,max_turns=1)"));
  REQUIRE_NOTHROW(load_game("tailten(ringforts=1)"));
}

TEST_CASE("tailten: malformed state text is refused with the reason", "[tailten]") {
  const Tailten game = make_game("tailten(ringforts=3,max_turns=50)");
  const std::string good = text_of("d4", "a2", 'r', "opening", 2);
  REQUIRE_NOTHROW(game.deserialize(good));
  const std::string board = board_text("d4", "a2");
  const auto with_board = [&](const std::string& b) {
    std::string text = "board=";
    text += b;
    text += good.substr(good.find(' '));
    return text;
  };
  const auto refused = [&](const std::string& text, const std::string& why) {
    INFO(text);
    REQUIRE_THROWS_AS(game.deserialize(text), std::invalid_argument);
    REQUIRE_THROWS_WITH(game.deserialize(text), Contains(why));
  };
  refused(with_board(board.substr(8)), "7 ranks");  // 6 ranks
  std::string slash = board;
  slash[7] = '.';  // no '/' after rank 7 (and 8 squares there)
  refused(with_board(slash), "7 ranks");
  std::string corner = board;
  corner[0] = '.';  // a7
  refused(with_board(corner), "corner a7");
  std::string hill = board;
  hill[1] = '-';  // b7
  refused(with_board(hill), "b7");
  std::string mark = board;
  mark[2] = 'x';  // c7
  refused(with_board(mark), "unknown mark 'x'");
  refused(text_of("d4 a4 g4 b6", "a2", 'r', "opening", 2), "more ringforts than its supply");
  refused(text_of("d4", "a2", 'x', "opening", 2), "to_move");
  refused(text_of("d4", "a2", 'r', "middle", 2), "unknown phase 'middle'");
  // Opening with Red's leaps from b1 (a3 c3 d2) all taken: no opening build.
  refused(text_of("b1", "a3 c3 d2", 'r', "opening", 4), "no opening build");
  // Battle with Red's supply empty and nothing else: no legal turn.
  refused(text_of("b1 d4 f6", "a3", 'r', "battle", 4), "no legal turn");
  refused(text_of("b1 d4 f6", "a3", 'r', "last_turn", 4), "no legal turn");
  refused(text_of("d4", "a2", 'r', "opening", 51), "turns");
  refused(text_of("d4", "a2", 'r', "battle", 50), "max_turns");
  refused(text_of("d4", "a2", 'r', "truncated", 49), "max_turns");
  refused("board=x", "cannot read state");
  REQUIRE_NOTHROW(game.deserialize(text_of("d4", "a2", 'r', "truncated", 50)));
  REQUIRE_NOTHROW(game.deserialize(text_of("b1 d4 f6", "a3", 'r', "over", 4)));
}

TEST_CASE("tailten: illegal move strings are refused", "[tailten]") {
  const Tailten game = make_game();
  const State s = at(game, "d4", "a2", 'r', "opening", 2);
  REQUIRE(game.string_to_action(s, "f5") ==
          tailten::kHillOfSquare[static_cast<size_t>(square_at("f5"))]);
  REQUIRE_THROWS_AS(game.string_to_action(s, "a1"), std::invalid_argument);  // a corner
  REQUIRE_THROWS_WITH(game.string_to_action(s, "a1"), Contains("a1"));
  REQUIRE_THROWS_WITH(game.string_to_action(s, "h3"), Contains("h3"));  // off the board
  REQUIRE_THROWS_WITH(game.string_to_action(s, "zz"), Contains("zz"));
  REQUIRE_THROWS_WITH(game.string_to_action(s, "d5"), Contains("not a legal"));  // too close
  REQUIRE_THROWS_WITH(game.string_to_action(s, "d4"), Contains("not a legal"));  // taken
  const State over = at(game, "d4", "a2", 'r', "over", 2);
  REQUIRE_THROWS_WITH(game.string_to_action(over, "f5"), Contains("over"));
}

// ---------------------------------------------------------------------------------------
// The text form.

TEST_CASE("tailten: the text form round-trips along random games", "[tailten]") {
  for (const char* spec : {"tailten", "tailten(first_player=1,ringforts=8)",
                           "tailten(ringforts=45,max_turns=60)", "tailten(ringforts=2)"}) {
    const Tailten game = make_game(spec);
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      State s = new_state(game);
      Rng rng(seed);
      std::vector<Action> actions(Tailten::kNumActions);
      for (;;) {
        const std::string text = game.serialize(s);
        INFO(spec << ": " << text);
        const State t = game.deserialize(text);
        REQUIRE(game.serialize(t) == text);
        REQUIRE(t.phase == s.phase);
        REQUIRE(t.end == s.end);
        REQUIRE(t.capturing == s.capturing);
        REQUIRE(t.legal == s.legal);
        REQUIRE(game.current_player(t) == game.current_player(s));
        for (int player = 0; player < 2; ++player)
          REQUIRE(observe(game, t, player) == observe(game, s, player));
        if (game.terminal(s)) break;
        const int count = game.legal_actions(s, actions.data());
        REQUIRE(count > 0);
        game.apply(s, actions[rng.below(static_cast<uint32_t>(count))]);
      }
    }
  }
}

}  // namespace
}  // namespace knightgym
