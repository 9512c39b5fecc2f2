// Knight Fight, one test per rule of docs/rules/knight_fight.md. Most positions use
// layout=identity, where square i holds number i (a1 = 00, c1 = 02, j10 = 99), so the
// number on a square and its mirror can be read off the square's name. Actions are in the
// mover's frame (ranks mirrored for Black); the helpers name them by their real squares
// through string_to_action.
#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <numeric>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "env/games/knight_fight/knight_fight.h"
#include "env/registry/registry.h"
#include "tests/cpp/env/games/game_test_helpers.h"

namespace knightgym {
namespace {

using namespace testing;
using Catch::Contains;
using State = KnightFight::State;

constexpr std::string_view kIdentity = "knight_fight(layout=identity)";

KnightFight make_game(std::string_view spec = kIdentity) {
  return testing::game_from_spec<KnightFight>(spec);
}

int square(std::string_view name) {
  const auto parsed = knight_fight::kGrid.parse(name);
  REQUIRE(parsed);
  return *parsed;
}

// The named squares as the mover's actions (ranks mirrored for Black), in the ascending
// order that legal_actions lists them.
std::vector<Action> actions(const KnightFight& game, const State& s,
                            std::initializer_list<std::string_view> names) {
  std::vector<Action> out;
  for (const std::string_view name : names) out.push_back(game.string_to_action(s, name));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Action> with_pass(std::vector<Action> squares) {
  squares.push_back(KnightFight::kPass);
  return squares;
}

bool usable(const State& s, std::string_view name) { return test128(s.usable, square(name)); }

int usable_count(const State& s) { return popcount128(s.usable); }

// The usable set as 100 characters 0/1 (readable when a comparison fails).
std::string usable_bits(const State& s) {
  std::string out;
  for (int sq = 0; sq < KnightFight::kNumSquares; ++sq) out += test128(s.usable, sq) ? '1' : '0';
  return out;
}

// Clears the usable bits of the named squares, standing for squares visited or erased
// earlier in the game.
void make_unusable(State& s, std::initializer_list<std::string_view> names) {
  for (const std::string_view name : names) s.usable &= ~bit128(square(name));
}

// A position after both placements, White to leap, built by hand so that the knights can
// stand anywhere; the knights' squares are no longer usable, as after real play.
State position(const KnightFight& game, std::string_view white, std::string_view black) {
  State s = new_state(game);
  s.knight = {static_cast<int8_t>(square(white)), static_cast<int8_t>(square(black))};
  make_unusable(s, {white, black});
  s.turns = 2;
  s.to_move = 0;
  return s;
}

// Clears every rank-10 square, so that Black has no placement. The real start cannot take
// them all (White's turn erases at most one), so this builds the position by hand.
void clear_rank10(State& s) { s.usable &= ~knight_fight::kLastRank; }

// White places on c1 (02) and Black, holding `black_score`, has no placement, so the game
// ends at once with White on 2 points.
State end_after_white_placement(const KnightFight& game, int black_score) {
  State s = new_state(game);
  clear_rank10(s);
  s.score[1] = static_cast<int16_t>(black_score);
  play(game, s, {"c1"});
  return s;
}

// Value of a plane at (rank, file) as the observer sees the board: rank 0 is the
// observer's own back rank.
float at(const std::vector<float>& obs, int plane, int rank, int file) {
  return obs[plane * KnightFight::kNumSquares + rank * KnightFight::kSize + file];
}

float plane_sum(const std::vector<float>& obs, int plane) {
  const auto begin = obs.begin() + plane * KnightFight::kNumSquares;
  return std::accumulate(begin, begin + KnightFight::kNumSquares, 0.0f);
}

bool plane_is(const std::vector<float>& obs, int plane, float value) {
  const auto begin = obs.begin() + plane * KnightFight::kNumSquares;
  return std::all_of(begin, begin + KnightFight::kNumSquares,
                     [value](float v) { return v == Approx(value); });
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const size_t pos = text.find(from);
  REQUIRE(pos != std::string::npos);
  return text.replace(pos, from.size(), to);
}

// The board cell of the rendered square: the last of its three characters.
char rendered_cell(const std::string& text, int rank, int file) {
  size_t line = 0;
  for (int skip = 0; skip < 1 + KnightFight::kSize - rank; ++skip) line = text.find('\n', line) + 1;
  return text.at(line + 4 + 3 * file + 2);
}

std::string identity_digits() {
  std::string digits;
  for (int n = 0; n < KnightFight::kNumSquares; ++n)
    digits += {char('0' + n / 10), char('0' + n % 10)};
  return digits;
}

std::string layout_spec(const std::string& digits) { return "knight_fight(layout=" + digits + ")"; }

TEST_CASE("White places on any usable square of rank 1", "[knight_fight]") {
  const KnightFight game = make_game();
  State s = new_state(game);
  REQUIRE(game.current_player(s) == 0);
  REQUIRE(legal(game, s) ==
          actions(game, s, {"a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "j1"}));

  make_unusable(s, {"d1"});  // stands for a square erased before the placement
  REQUIRE(legal(game, s) ==
          actions(game, s, {"a1", "b1", "c1", "e1", "f1", "g1", "h1", "i1", "j1"}));

  const auto state = load_game(kIdentity)->new_initial_state(0);
  REQUIRE_THROWS_AS(state->apply_action(state->string_to_action("c2")), std::invalid_argument);
}

TEST_CASE("Black places on a usable rank-10 square that White's knight does not attack",
          "[knight_fight]") {
  const KnightFight game = make_game();
  State s = new_state(game);
  play(game, s, {"j1"});  // 09 erases its mirror 90 on a10
  REQUIRE(game.current_player(s) == 1);
  REQUIRE(legal(game, s) ==
          actions(game, s, {"b10", "c10", "d10", "e10", "f10", "g10", "h10", "i10", "j10"}));

  State attacked = new_state(game);
  play(game, attacked, {"c1"});
  // From rank 1 no knight reaches rank 10: move White's knight to e8 by hand, where it
  // attacks d10 and f10.
  attacked.knight[0] = static_cast<int8_t>(square("e8"));
  make_unusable(attacked, {"e8"});
  REQUIRE(legal(game, attacked) ==
          actions(game, attacked, {"a10", "b10", "c10", "e10", "g10", "h10", "i10", "j10"}));
}

TEST_CASE("every landing scores its number, erased mirrors score nothing", "[knight_fight]") {
  const KnightFight game = make_game();
  State s = new_state(game);
  play(game, s, {"c1"});  // 02; its mirror 20 is erased, not scored
  REQUIRE(s.score == std::array<int16_t, 2>{2, 0});
  play(game, s, {"d10"});  // 93
  REQUIRE(s.score == std::array<int16_t, 2>{2, 93});
  play(game, s, {"e2"});  // 14
  REQUIRE(s.score == std::array<int16_t, 2>{16, 93});
  play(game, s, {"e8"});  // 74
  REQUIRE(s.score == std::array<int16_t, 2>{16, 167});
}

TEST_CASE("placements erase the mirrored number", "[knight_fight]") {
  const KnightFight game = make_game();
  State s = new_state(game);
  play(game, s, {"c1"});
  REQUIRE_FALSE(usable(s, "a3"));  // 20
  REQUIRE(usable_count(s) == 98);
  play(game, s, {"d10"});
  REQUIRE_FALSE(usable(s, "j4"));  // 39
  REQUIRE(usable_count(s) == 96);
}

TEST_CASE("leaps erase the mirrored number with mirror_on_moves=true", "[knight_fight]") {
  const KnightFight game = make_game("knight_fight(layout=identity,mirror_on_moves=true)");
  State s = new_state(game);
  play(game, s, {"c1", "d10", "e2"});
  REQUIRE_FALSE(usable(s, "b5"));  // 41, mirror of 14
  REQUIRE(usable_count(s) == 94);
  play(game, s, {"e8"});
  REQUIRE_FALSE(usable(s, "h5"));  // 47, mirror of 74
  REQUIRE(usable_count(s) == 92);
}

TEST_CASE("with mirror_on_moves=false only the two placements erase mirrors", "[knight_fight]") {
  const KnightFight game = make_game("knight_fight(layout=identity,mirror_on_moves=false)");
  State s = new_state(game);
  play(game, s, {"c1", "d10"});
  REQUIRE_FALSE(usable(s, "a3"));
  REQUIRE_FALSE(usable(s, "j4"));
  play(game, s, {"e2", "e8"});
  REQUIRE(usable(s, "b5"));
  REQUIRE(usable(s, "h5"));
  REQUIRE(usable_count(s) == 94);  // 4 visited, 2 erased by the placements
}

TEST_CASE("a mirror that is already unusable changes nothing else", "[knight_fight]") {
  const KnightFight game = make_game();
  State s = new_state(game);
  make_unusable(s, {"a2"});  // 10, the mirror of b1's 01, as if erased earlier
  std::string before = usable_bits(s);
  play(game, s, {"b1"});
  before[square("b1")] = '0';
  REQUIRE(usable_bits(s) == before);

  // Black lands on b5 (41), whose mirror 14 is under White's knight on e2.
  State leap = position(game, "e2", "a7");
  leap.to_move = 1;
  before = usable_bits(leap);
  play(game, leap, {"b5"});
  before[square("b5")] = '0';
  REQUIRE(usable_bits(leap) == before);
  REQUIRE(leap.knight[0] == square("e2"));
  REQUIRE(leap.score[1] == 41);
}

TEST_CASE("landing on a double lets the mover erase another usable double or pass",
          "[knight_fight]") {
  const KnightFight game = make_game();
  State s = new_state(game);
  play(game, s, {"a1"});  // 00 is a double
  REQUIRE(game.current_player(s) == 0);
  REQUIRE(s.turns == 0);
  REQUIRE(legal(game, s) ==
          with_pass(actions(game, s, {"b2", "c3", "d4", "e5", "f6", "g7", "h8", "i9", "j10"})));

  State erased = s;
  play(game, erased, {"j10"});
  REQUIRE_FALSE(usable(erased, "j10"));
  REQUIRE(usable_count(erased) == 98);
  REQUIRE(erased.turns == 1);  // landing and erase are one turn
  REQUIRE(game.current_player(erased) == 1);
  REQUIRE(legal(game, erased) ==
          actions(game, erased, {"a10", "b10", "c10", "d10", "e10", "f10", "g10", "h10", "i10"}));

  State passed = s;
  play(game, passed, {"pass"});
  REQUIRE(usable_count(passed) == 99);
  REQUIRE(passed.turns == 1);
  REQUIRE(game.current_player(passed) == 1);
}

TEST_CASE("double_erase=forced makes the mover erase a double", "[knight_fight]") {
  const KnightFight game = make_game("knight_fight(layout=identity,double_erase=forced)");
  State s = new_state(game);
  play(game, s, {"a1"});
  REQUIRE(game.current_player(s) == 0);
  REQUIRE(legal(game, s) ==
          actions(game, s, {"b2", "c3", "d4", "e5", "f6", "g7", "h8", "i9", "j10"}));
  play(game, s, {"e5"});
  REQUIRE_FALSE(usable(s, "e5"));
  REQUIRE(s.turns == 1);
}

TEST_CASE("double_erase=off gives no erase decision", "[knight_fight]") {
  const KnightFight game = make_game("knight_fight(layout=identity,double_erase=off)");
  State s = new_state(game);
  play(game, s, {"a1"});
  REQUIRE(game.current_player(s) == 1);
  REQUIRE(s.pending_erase == 0);
  REQUIRE(s.turns == 1);
  REQUIRE(usable_count(s) == 99);
}

TEST_CASE("there is no erase decision without another usable double", "[knight_fight]") {
  const KnightFight game = make_game();
  State none = new_state(game);
  // Every double but 00 erased, as if by earlier turns.
  make_unusable(none, {"b2", "c3", "d4", "e5", "f6", "g7", "h8", "i9", "j10"});
  play(game, none, {"a1"});
  REQUIRE(game.current_player(none) == 1);
  REQUIRE(none.pending_erase == 0);
  REQUIRE(none.turns == 1);

  State one = new_state(game);
  make_unusable(one, {"b2", "c3", "d4", "f6", "g7", "h8", "i9", "j10"});
  play(game, one, {"a1"});
  REQUIRE(legal(game, one) == with_pass(actions(game, one, {"e5"})));
}

TEST_CASE("a knight's square is never a target nor an erasable double", "[knight_fight]") {
  const KnightFight game = make_game();
  State s = new_state(game);
  play(game, s, {"a1", "pass", "j10"});  // both knights on doubles
  REQUIRE(game.current_player(s) == 1);
  REQUIRE(legal(game, s) ==
          with_pass(actions(game, s, {"b2", "c3", "d4", "e5", "f6", "g7", "h8", "i9"})));

  // White on e4 could leap to f6 but for Black's knight standing there.
  const State leap = position(game, "e4", "f6");
  REQUIRE(legal(game, leap) == actions(game, leap, {"d6", "g5", "c5", "g3", "c3", "f2", "d2"}));
}

TEST_CASE("a leap lands only on usable squares the opponent does not attack", "[knight_fight]") {
  const KnightFight game = make_game();
  State s = position(game, "e4", "g8");  // g8 attacks f6
  make_unusable(s, {"d6"});              // visited or erased earlier
  REQUIRE(legal(game, s) == actions(game, s, {"g5", "c5", "g3", "c3", "f2", "d2"}));

  State left = new_state(game);
  play(game, left, {"c1", "d10", "e2", "e8"});
  REQUIRE_FALSE(usable(left, "c1"));
  REQUIRE(legal(game, left) ==
          actions(game, left, {"g1", "c3", "g3", "d4", "f4"}));  // not back to c1
}

TEST_CASE("the game ends when a player has no legal leap after a turn", "[knight_fight]") {
  const KnightFight game = make_game();
  State s = position(game, "b4", "a10");
  make_unusable(s, {"c9"});  // Black's only way out is b8
  REQUIRE_FALSE(game.terminal(s));
  play(game, s, {"c6"});  // attacks b8
  REQUIRE(game.terminal(s));
  REQUIRE_FALSE(game.truncated(s));
  REQUIRE(returns(game, s) == std::vector<float>{1.0f, -1.0f});
}

TEST_CASE("a leading player may block himself and end the game", "[knight_fight]") {
  const KnightFight game = make_game();
  State s = position(game, "i3", "e8");
  make_unusable(s, {"h2"});  // j1's exits are h2 and i3, the square White leaves
  s.score = {200, 100};
  play(game, s, {"j1"});
  REQUIRE(popcount128(KnightFight::targets(s, 0)) == 0);
  REQUIRE(popcount128(KnightFight::targets(s, 1)) > 0);
  REQUIRE(game.terminal(s));
  REQUIRE_FALSE(game.truncated(s));
  REQUIRE(s.score[0] == 209);
  REQUIRE(returns(game, s) == std::vector<float>{1.0f, -1.0f});
}

TEST_CASE("after White's placement only Black's placements are checked", "[knight_fight]") {
  const KnightFight game = make_game();
  State s = new_state(game);
  // Leaves White no leap from b1, which only counts once both knights are placed.
  make_unusable(s, {"a3", "c3", "d2"});
  play(game, s, {"b1"});
  REQUIRE_FALSE(game.terminal(s));
  REQUIRE(game.current_player(s) == 1);
  play(game, s, {"e10"});
  REQUIRE(game.terminal(s));
  REQUIRE(returns(game, s) == std::vector<float>{-1.0f, 1.0f});  // 1 against 94
}

TEST_CASE("Black without a legal placement ends the game at once", "[knight_fight]") {
  const KnightFight game = make_game();
  const State s = end_after_white_placement(game, 0);
  REQUIRE(game.terminal(s));
  REQUIRE_FALSE(game.truncated(s));
  REQUIRE(s.turns == 1);
  REQUIRE(game.current_player(s) == kTerminalPlayer);
}

TEST_CASE("the end test runs after the erase decision", "[knight_fight]") {
  const KnightFight game = make_game();
  State s = position(game, "e4", "i10");
  make_unusable(s, {"g9", "j8"});  // Black's only way out is h8, a double (77)
  play(game, s, {"f6"});           // 55, a double
  REQUIRE_FALSE(game.terminal(s));
  REQUIRE(game.current_player(s) == 0);

  State erased = s;
  play(game, erased, {"h8"});
  REQUIRE(game.terminal(erased));

  State passed = s;
  play(game, passed, {"pass"});
  REQUIRE_FALSE(game.terminal(passed));
  REQUIRE(legal(game, passed) == actions(game, passed, {"h8"}));
}

TEST_CASE("returns: +1/-1 for the higher score, 0/0 for a draw", "[knight_fight]") {
  const KnightFight game = make_game();
  State running = new_state(game);
  play(game, running, {"c1"});
  REQUIRE(returns(game, running) == std::vector<float>{0.0f, 0.0f});

  REQUIRE(returns(game, end_after_white_placement(game, 0)) == std::vector<float>{1.0f, -1.0f});
  REQUIRE(returns(game, end_after_white_placement(game, 5)) == std::vector<float>{-1.0f, 1.0f});
  REQUIRE(returns(game, end_after_white_placement(game, 2)) == std::vector<float>{0.0f, 0.0f});
}

TEST_CASE("a finished game has no player to move and an all-zero mask", "[knight_fight]") {
  const KnightFight game = make_game();
  const State s = end_after_white_placement(game, 0);
  REQUIRE(game.current_player(s) == kTerminalPlayer);
  std::vector<uint8_t> mask(KnightFight::kNumActions, 1);
  game.legal_mask(s, mask.data());
  REQUIRE(std::count(mask.begin(), mask.end(), 0) == KnightFight::kNumActions);
  REQUIRE(legal(game, s).empty());
}

TEST_CASE("max_turns truncates after that many turns", "[knight_fight]") {
  const KnightFight game = make_game("knight_fight(layout=identity,max_turns=3)");
  State s = new_state(game);
  play(game, s, {"c1", "d10"});
  REQUIRE_FALSE(game.terminal(s));
  play(game, s, {"e2"});
  REQUIRE(game.terminal(s));
  REQUIRE(game.truncated(s));
  REQUIRE(game.current_player(s) == kTerminalPlayer);
  REQUIRE(returns(game, s) == std::vector<float>{-1.0f, 1.0f});  // 16 against 93

  // The erase decision is part of its turn, not a turn of its own.
  const KnightFight two = make_game("knight_fight(layout=identity,max_turns=2)");
  State erase = new_state(two);
  play(two, erase, {"a1", "j10"});
  REQUIRE_FALSE(two.terminal(erase));
  play(two, erase, {"a10"});
  REQUIRE(two.truncated(erase));
}

TEST_CASE("a natural end on the capped turn is not truncation", "[knight_fight]") {
  const KnightFight game = make_game("knight_fight(layout=identity,max_turns=1)");
  State s = new_state(game);
  clear_rank10(s);
  play(game, s, {"c1"});
  REQUIRE(game.terminal(s));
  REQUIRE_FALSE(game.truncated(s));
}

TEST_CASE("layout=identity puts number i on square i", "[knight_fight]") {
  const State s = new_state(make_game());
  for (int sq = 0; sq < KnightFight::kNumSquares; ++sq) {
    REQUIRE(s.number[sq] == sq);
    REQUIRE(s.square_of[sq] == sq);
  }
  REQUIRE(popcount128(s.doubles) == 10);
  REQUIRE(test128(s.doubles, square("a1")));
}

TEST_CASE("a layout of 200 digits fixes the numbers and round-trips", "[knight_fight]") {
  std::string digits;
  for (int sq = 0; sq < KnightFight::kNumSquares; ++sq)
    digits += {char('0' + (99 - sq) / 10), char('0' + (99 - sq) % 10)};
  const KnightFight game = make_game(layout_spec(digits));
  const State s = new_state(game);
  REQUIRE(s.number[square("a1")] == 99);
  REQUIRE(s.number[square("j10")] == 0);
  REQUIRE(s.square_of[57] == 42);
  REQUIRE(game.serialize(s).find("layout=" + digits + " ") != std::string::npos);

  const auto loaded = load_game(layout_spec(digits));
  REQUIRE(loaded->spec().find("layout=" + digits) != std::string::npos);
  // A fixed layout ignores the seed.
  REQUIRE(load_game(loaded->spec())->new_initial_state(7)->serialize() ==
          loaded->new_initial_state(3)->serialize());
}

TEST_CASE("bad layouts are rejected with a message naming the problem", "[knight_fight]") {
  REQUIRE_THROWS_AS(load_game("knight_fight(layout=0123)"), std::invalid_argument);
  REQUIRE_THROWS_WITH(load_game("knight_fight(layout=0123)"),
                      Contains("layout") && Contains("got 4 characters"));
  REQUIRE_THROWS_WITH(load_game(layout_spec(replace(identity_digits(), "02", "x2"))),
                      Contains("character 4 ('x') is not a digit"));
  REQUIRE_THROWS_WITH(load_game(layout_spec(replace(identity_digits(), "02", "0y"))),
                      Contains("character 5 ('y') is not a digit"));
  REQUIRE_THROWS_WITH(load_game(layout_spec(replace(identity_digits(), "0001", "0000"))),
                      Contains("number 00 is on a1 and b1"));
}

TEST_CASE("a random layout is a permutation drawn from the seed", "[knight_fight]") {
  const KnightFight game = make_game("knight_fight(layout=random)");
  const State s = new_state(game, 1);
  auto sorted = s.number;
  std::sort(sorted.begin(), sorted.end());
  for (int n = 0; n < KnightFight::kNumSquares; ++n) {
    REQUIRE(sorted[n] == n);
    REQUIRE(s.number[s.square_of[n]] == n);
  }
  REQUIRE(new_state(game, 1).number == s.number);
  REQUIRE(new_state(game, 2).number != s.number);
  REQUIRE(make_game("knight_fight()").params().random_layout);
}

TEST_CASE("action strings name squares and pass", "[knight_fight]") {
  const KnightFight game = make_game();
  const State s = new_state(game);  // White to move: actions are the squares themselves
  REQUIRE(game.string_to_action(s, "a1") == 0);
  REQUIRE(game.string_to_action(s, "c1") == 2);
  REQUIRE(game.string_to_action(s, "j10") == 99);
  REQUIRE(game.string_to_action(s, "pass") == KnightFight::kPass);
  REQUIRE(game.action_to_string(s, 2) == "c1");
  REQUIRE(game.action_to_string(s, 99) == "j10");
  REQUIRE(game.action_to_string(s, KnightFight::kPass) == "pass");
  for (const std::string_view bad : {"", "k1", "a0", "a01", "a11", "c", "Pass", "c1 "}) {
    INFO("text '" << bad << "'");
    REQUIRE_THROWS_AS(game.string_to_action(s, bad), std::invalid_argument);
  }
  const auto state = load_game(kIdentity)->new_initial_state(0);
  REQUIRE_THROWS_WITH(state->string_to_action("z3"), Contains("is not an action"));
}

TEST_CASE("actions are in the mover's frame: ranks mirrored for Black", "[knight_fight]") {
  const KnightFight game = make_game();
  State s = new_state(game);
  // White: action a is square a.
  REQUIRE(game.string_to_action(s, "j10") == 99);
  REQUIRE(game.action_to_string(s, 99) == "j10");
  REQUIRE(game.string_to_action(s, "e4") == 34);
  REQUIRE(legal(game, s) == std::vector<Action>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});

  play(game, s, {"c1"});
  REQUIRE(game.current_player(s) == 1);
  // Black: action a is row a / 10, column a % 10 of Black's view, square
  // (9 - a / 10) * 10 + a % 10; strings still name the real square.
  REQUIRE(game.string_to_action(s, "j10") == 9);
  REQUIRE(game.string_to_action(s, "a10") == 0);
  REQUIRE(game.string_to_action(s, "a1") == 90);
  REQUIRE(game.string_to_action(s, "e4") == 64);
  REQUIRE(game.string_to_action(s, "pass") == KnightFight::kPass);
  REQUIRE(game.action_to_string(s, 9) == "j10");
  REQUIRE(game.action_to_string(s, 0) == "a10");
  REQUIRE(game.action_to_string(s, 90) == "a1");
  REQUIRE(game.action_to_string(s, KnightFight::kPass) == "pass");
  for (int action = 0; action < KnightFight::kNumSquares; ++action) {
    INFO("action " << action);
    const std::string name = game.action_to_string(s, action);
    REQUIRE(square(name) == (9 - action / 10) * 10 + action % 10);
    REQUIRE(game.string_to_action(s, name) == action);
  }

  // Black's placements are on its back rank, row 0 of its view.
  REQUIRE(legal(game, s) == std::vector<Action>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  std::vector<uint8_t> mask(KnightFight::kNumActions);
  game.legal_mask(s, mask.data());
  for (int action = 0; action < KnightFight::kNumActions; ++action)
    REQUIRE(mask[action] == (action < 10));
  game.apply(s, 3);  // d10 (93)
  REQUIRE(s.knight[1] == square("d10"));
  REQUIRE(s.score[1] == 93);
  REQUIRE_FALSE(usable(s, "j4"));  // 39, the mirror

  // Black's leaps from f6 (White on e4, which attacks none of them): e8 g8 d7 h7 d5 h5 g4.
  State leap = position(game, "e4", "f6");
  leap.to_move = 1;
  REQUIRE(legal(game, leap) == std::vector<Action>{24, 26, 33, 37, 53, 57, 66});
  game.apply(leap, 57);
  REQUIRE(leap.knight[1] == square("h5"));
  REQUIRE(leap.score[1] == 47);

  // Black's erase decision: the doubles a1 (00) .. i9 (88) are Black's actions 90 .. 18.
  State erase = new_state(game);
  play(game, erase, {"c1", "j10"});  // 99, a double
  REQUIRE(game.current_player(erase) == 1);
  REQUIRE(legal(game, erase) ==
          std::vector<Action>{18, 27, 36, 45, 54, 63, 72, 81, 90, KnightFight::kPass});
  game.apply(erase, 90);
  REQUIRE_FALSE(usable(erase, "a1"));
  REQUIRE(usable(erase, "a10"));
  REQUIRE(game.current_player(erase) == 0);
}

TEST_CASE("flip_ranks and the grid's flip_rank mirror the ranks", "[knight_fight]") {
  using knight_fight::flip_ranks;
  const auto flip_square = [](int square) { return knight_fight::kGrid.flip_rank(square); };
  REQUIRE(flip_square(square("c1")) == square("c10"));
  REQUIRE(flip_square(square("j10")) == square("j1"));
  REQUIRE(flip_square(square("e5")) == square("e6"));
  REQUIRE(flip_ranks(bit128(square("c1")) | bit128(square("e5"))) ==
          (bit128(square("c10")) | bit128(square("e6"))));
  REQUIRE(flip_ranks(~Bits128{0}) == knight_fight::kAllSquares);  // bits off the board drop
  Rng rng(3);
  for (int i = 0; i < 2000; ++i) {
    const Bits128 b = (Bits128{rng.next()} << 64 | rng.next()) & knight_fight::kAllSquares;
    Bits128 expected = 0;
    for_each_bit(b, [&](int sq) { expected |= bit128(flip_square(sq)); });
    REQUIRE(flip_ranks(b) == expected);
    REQUIRE(flip_ranks(expected) == b);
  }
}

TEST_CASE("the legal mask reads off the mover's observation at the same cells", "[knight_fight]") {
  // Leaps: own attacks AND usable minus opponent attacks (planes 6, 2 and 5); placements:
  // the own back rank (row 0) the same way; erases: usable doubles (planes 2 and 4).
  const KnightFight game = make_game("knight_fight()");
  const auto cell = [](const std::vector<float>& obs, int plane, int index) {
    return obs[plane * KnightFight::kNumSquares + index] == 1.0f;
  };
  Rng rng(11);
  std::array<std::array<int, 3>, 2> checked{};  // [player][placement, leap, erase]
  for (int g = 0; g < 30; ++g) {
    State s;
    game.init(s, rng);
    while (!game.terminal(s)) {
      const int player = game.current_player(s);
      const std::vector<float> obs = observe(game, s, player);
      std::vector<uint8_t> mask(KnightFight::kNumActions);
      game.legal_mask(s, mask.data());
      const int kind = s.pending_erase ? 2 : s.knight[player] >= 0 ? 1 : 0;
      std::vector<uint8_t> expected(KnightFight::kNumActions);
      std::vector<Action> from_mask;
      for (int index = 0; index < KnightFight::kNumSquares; ++index) {
        const bool usable_cell = cell(obs, KnightFight::kPlaneUsable, index);
        expected[index] =
            kind == 2 ? usable_cell && cell(obs, KnightFight::kPlaneDouble, index)
                      : usable_cell && !cell(obs, KnightFight::kPlaneOpponentAttacks, index) &&
                            (kind == 1 ? cell(obs, KnightFight::kPlaneOwnAttacks, index)
                                       : index < KnightFight::kSize);
        if (mask[index]) from_mask.push_back(index);
      }
      expected[KnightFight::kPass] = kind == 2;
      if (mask[KnightFight::kPass]) from_mask.push_back(KnightFight::kPass);
      if (mask != expected) {
        INFO("player " << player << ", decision " << kind << "\n" << game.render(s));
        REQUIRE(mask == expected);
      }
      const std::vector<Action> moves = legal(game, s);
      REQUIRE(moves == from_mask);
      ++checked[player][kind];
      game.apply(s, moves[rng.below(static_cast<uint32_t>(moves.size()))]);
    }
  }
  for (int player = 0; player < 2; ++player)
    for (int kind = 0; kind < 3; ++kind) {
      INFO("player " << player << ", decision " << kind);
      REQUIRE(checked[player][kind] > 0);
    }
}

TEST_CASE("observation planes show the rules to both players, in every position",
          "[knight_fight]") {
  const struct {
    const char* rules;
    int erase_plane;  // of the three double_erase planes, the one of all ones
    float mirror;
  } cases[] = {{"", 0, 1},
               {"double_erase=forced", 1, 1},
               {"double_erase=off,mirror_on_moves=false", 2, 0},
               {"double_erase=optional,mirror_on_moves=false", 0, 0}};
  for (const auto& rules : cases) {
    const std::string spec =
        std::string("knight_fight(layout=identity") + (*rules.rules ? "," : "") + rules.rules + ")";
    INFO(spec);
    const KnightFight game = make_game(spec);
    State s = new_state(game);
    for (const int plies : {0, 2}) {
      if (plies) play(game, s, {"c1", "d10"});
      for (const int player : {0, 1}) {
        const std::vector<float> obs = observe(game, s, player);
        for (int k = 0; k < 3; ++k)
          CHECK(plane_is(obs, KnightFight::kPlaneDoubleErase + k, k == rules.erase_plane));
        CHECK(plane_is(obs, KnightFight::kPlaneMirrorOnMoves, rules.mirror));
      }
    }
  }
}

TEST_CASE("observation planes show the board from the observer's side", "[knight_fight]") {
  const KnightFight game = make_game();
  State s = new_state(game);
  play(game, s, {"c1", "d10"});  // erases a3 (20) and j4 (39)
  const std::vector<float> white = observe(game, s, 0);
  const std::vector<float> black = observe(game, s, 1);

  REQUIRE(at(white, KnightFight::kPlaneOwnKnight, 0, 2) == 1.0f);       // c1
  REQUIRE(at(white, KnightFight::kPlaneOpponentKnight, 9, 3) == 1.0f);  // d10
  REQUIRE(at(black, KnightFight::kPlaneOwnKnight, 0, 3) == 1.0f);       // d10, flipped
  REQUIRE(at(black, KnightFight::kPlaneOpponentKnight, 9, 2) == 1.0f);  // c1, flipped
  for (const auto& obs : {white, black}) {
    REQUIRE(plane_sum(obs, KnightFight::kPlaneOwnKnight) == 1.0f);
    REQUIRE(plane_sum(obs, KnightFight::kPlaneOpponentKnight) == 1.0f);
    REQUIRE(plane_sum(obs, KnightFight::kPlaneUsable) == 96.0f);
    REQUIRE(plane_sum(obs, KnightFight::kPlaneDouble) == 10.0f);
    REQUIRE(plane_sum(obs, KnightFight::kPlaneOpponentAttacks) == 4.0f);
    REQUIRE(plane_sum(obs, KnightFight::kPlaneOwnAttacks) == 4.0f);
    REQUIRE(plane_is(obs, KnightFight::kPlanePendingErase, 0.0f));
    REQUIRE(plane_is(obs, KnightFight::kPlaneProgress, 2.0f / 200.0f));
  }
  REQUIRE(at(white, KnightFight::kPlaneUsable, 2, 0) == 0.0f);           // a3
  REQUIRE(at(white, KnightFight::kPlaneUsable, 3, 9) == 0.0f);           // j4
  REQUIRE(at(black, KnightFight::kPlaneUsable, 7, 0) == 0.0f);           // a3, flipped
  REQUIRE(at(black, KnightFight::kPlaneUsable, 6, 9) == 0.0f);           // j4, flipped
  REQUIRE(at(white, KnightFight::kPlaneOpponentAttacks, 7, 2) == 1.0f);  // c8
  REQUIRE(at(black, KnightFight::kPlaneOpponentAttacks, 8, 0) == 1.0f);  // a2, flipped
  REQUIRE(at(white, KnightFight::kPlaneOwnAttacks, 1, 4) == 1.0f);       // e2
  REQUIRE(at(black, KnightFight::kPlaneOwnAttacks, 2, 2) == 1.0f);       // c8, flipped
  for (int rank = 0; rank < KnightFight::kSize; ++rank)
    for (int file = 0; file < KnightFight::kSize; ++file) {
      REQUIRE(at(white, KnightFight::kPlaneNumber, rank, file) ==
              Approx((rank * 10 + file) / 99.0f));
      REQUIRE(at(black, KnightFight::kPlaneNumber, rank, file) ==
              Approx(((9 - rank) * 10 + file) / 99.0f));
    }
  REQUIRE(at(white, KnightFight::kPlaneDouble, 4, 4) == 1.0f);  // e5 = 44
  REQUIRE(at(black, KnightFight::kPlaneDouble, 4, 5) == 1.0f);  // f6 = 55, flipped
  REQUIRE(plane_is(white, KnightFight::kPlaneScoreDifference, (2 - 93) / 100.0f));
  REQUIRE(plane_is(black, KnightFight::kPlaneScoreDifference, (93 - 2) / 100.0f));

  State pending = new_state(game);
  play(game, pending, {"a1"});
  REQUIRE(plane_is(observe(game, pending, 0), KnightFight::kPlanePendingErase, 1.0f));
  REQUIRE(plane_is(observe(game, pending, 1), KnightFight::kPlanePendingErase, 1.0f));
}

TEST_CASE("serialize and deserialize round-trip", "[knight_fight]") {
  const KnightFight game = make_game("knight_fight()");
  State s = new_state(game, 5);
  for (int turn = 0; turn < 6 && !game.terminal(s); ++turn) {
    const std::string text = game.serialize(s);
    const State back = game.deserialize(text);
    REQUIRE(game.serialize(back) == text);
    REQUIRE(back.square_of == s.square_of);
    REQUIRE(popcount128(back.doubles) == 10);
    REQUIRE(legal(game, back) == legal(game, s));
    game.apply(s, legal(game, s).front());
  }
  const KnightFight identity = make_game();
  State pending = new_state(identity);
  play(identity, pending, {"a1"});  // mid-turn: the erase decision is pending
  const std::string text = identity.serialize(pending);
  REQUIRE(identity.serialize(identity.deserialize(text)) == text);

  const auto loaded = load_game(kIdentity);
  const auto state = loaded->new_initial_state(0);
  state->apply_action(state->string_to_action("c1"));
  REQUIRE(loaded->deserialize_state(state->serialize())->serialize() == state->serialize());
}

TEST_CASE("malformed state text is rejected with a useful message", "[knight_fight]") {
  const KnightFight game = make_game();
  const std::string good = game.serialize(new_state(game));
  require_state_rejected(game, "", "expected one field 'layout'");
  require_state_rejected(game, good + " colour=1", "unknown field 'colour'");
  require_state_rejected(game, good + " turns=0", "expected one field 'turns'");
  require_state_rejected(game, replace(good, "turns=0", "turns=x"), "turns 'x' is not an integer");
  require_state_rejected(game, replace(good, "knights=-,-", "knights=z9,-"),
                         "knight 'z9' is not a square");
  require_state_rejected(game, replace(good, "knights=-,-", "knights=c1,-"),
                         "a knight stands on usable square c1");
  require_state_rejected(game, replace(good, "layout=00", "layout=0"), "layout:");
  require_state_rejected(game, replace(good, "end=running", "end=over"),
                         "end 'over' is not running, rules or truncated");
  REQUIRE_THROWS_AS(load_game(kIdentity)->deserialize_state("layout=1"), std::invalid_argument);
}

TEST_CASE("render shows W and B where the knights stand", "[knight_fight]") {
  const KnightFight game = make_game();
  State s = new_state(game);
  play(game, s, {"c1", "d10"});
  const std::string text = game.render(s);
  INFO(text);
  REQUIRE(rendered_cell(text, 1, 2) == 'W');
  REQUIRE(rendered_cell(text, 10, 3) == 'B');
  REQUIRE(rendered_cell(text, 1, 3) == '3');  // d1 holds 03
  REQUIRE(rendered_cell(text, 3, 0) == '.');  // a3, erased
}

}  // namespace
}  // namespace knightgym
