// Knights Challenge, one test per rule of docs/rules/knights_challenge.md (and per decision
// the project fixed there). Positions are built from the text form
// (KnightsChallenge::deserialize); every expected move list, tally, outcome and return below
// was reasoned out by hand from the rules, and the comment next to it says why.
//
// The 12 x 12 board, squares named file letter + rank ("a1" bottom-left):
//   camp 0 red    a1..d3   (depth +y: rank 1 is d = 0, rank 3 is d = 2; central b2, c2)
//   camp 1 blue   j1..l4   (depth -x: file l is d = 0, file j is d = 2; central k2, k3)
//   camp 2 yellow i10..l12 (depth -y: rank 12 is d = 0, rank 10 is d = 2; central k11, j11)
//   camp 3 green  a9..c12  (depth +x: file a is d = 0, file c is d = 2; central b11, b10)
//   safe squares  f4 i6 g9 d7 and c6 g3 j7 f10
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "env/core/rng.h"
#include "env/games/knights_challenge/knights_challenge.h"
#include "env/games/knights_challenge/lines.h"
#include "env/registry/registry.h"
#include "tests/cpp/env/games/game_test_helpers.h"

namespace knightgym {
namespace {

using namespace testing;
using Catch::Contains;
using Reason = KnightsChallenge::Reason;
using State = KnightsChallenge::State;
using Floats = std::vector<float>;

constexpr int kN = 12;  // the default board
constexpr std::string_view kLetters = "rbyg";
constexpr int kPlanes = KnightsChallenge::kNumPlanes;

// ---------------------------------------------------------------------------------------
// Games and squares.

KnightsChallenge make_game(std::string_view spec = "knights_challenge") {
  return game_from_spec<KnightsChallenge>(spec);
}

struct XY {
  int x, y;
};

std::string name_of(XY p) {
  std::string out(1, static_cast<char>('a' + p.x));
  out += std::to_string(p.y + 1);
  return out;
}

XY parse_name(std::string_view name) {
  REQUIRE(name.size() >= 2);
  return {name[0] - 'a', std::stoi(std::string(name.substr(1))) - 1};
}

// A quarter-turn counter-clockwise about the centre of the n x n board: (x, y) ->
// (n - 1 - y, x), as the rules define it.
XY turn(XY p, int n = kN) { return {n - 1 - p.y, p.x}; }

std::string turned(std::string_view name, int turns, int n = kN) {
  XY p = parse_name(name);
  for (int i = 0; i < turns; ++i) p = turn(p, n);
  return name_of(p);
}

// "a1-b3" turned `turns` quarter-turns.
std::string turned_move(const std::string& move, int turns) {
  const size_t dash = move.find('-');
  REQUIRE(dash != std::string::npos);
  std::string out = turned(move.substr(0, dash), turns);
  out += '-';
  out += turned(move.substr(dash + 1), turns);
  return out;
}

Strings turned_moves(const Strings& moves, int turns) {
  Strings out;
  for (const std::string& move : moves) out.push_back(turned_move(move, turns));
  return sorted(out);
}

// ---------------------------------------------------------------------------------------
// Positions.

// The board of the text form from pieces such as "ra1 bk2 yl12": the colour letter (r b y g)
// and the square.
std::string board_text(std::string_view pieces, int n = kN) {
  std::vector<std::string> rows(static_cast<size_t>(n), std::string(static_cast<size_t>(n), '.'));
  std::istringstream in{std::string(pieces)};
  for (std::string item; in >> item;) {
    INFO("piece " << item);
    REQUIRE(kLetters.find(item[0]) != std::string_view::npos);
    const XY p = parse_name(std::string_view(item).substr(1));
    REQUIRE(p.x >= 0);
    REQUIRE(p.x < n);
    REQUIRE(p.y >= 0);
    REQUIRE(p.y < n);
    char& cell = rows[static_cast<size_t>(n - 1 - p.y)][static_cast<size_t>(p.x)];
    REQUIRE(cell == '.');
    cell = item[0];
  }
  std::string out;
  for (int row = 0; row < n; ++row) {
    if (row) out += '/';
    out += rows[static_cast<size_t>(row)];
  }
  return out;
}

std::array<int, 4> knight_counts(std::string_view pieces) {
  std::array<int, 4> counts{};
  std::istringstream in{std::string(pieces)};
  for (std::string item; in >> item;) ++counts[kLetters.find(item[0])];
  return counts;
}

// The full text form. `captures` "auto" credits each colour's missing knights to the next
// colour in turn order that is its enemy (for positions whose tallies do not matter).
std::string position(const KnightsChallenge& game, std::string_view pieces, char mover = 'r',
                     std::string captures = "auto", int turns = 0) {
  const int n = game.params().board_size;
  if (captures == "auto") {
    const std::array<int, 4> counts = knight_counts(pieces);
    std::array<int, 4> credit{};
    for (int c = 0; c < 4; ++c) {
      if (!game.in_play(c)) continue;
      for (int step = 1; step < 4; ++step) {
        const int d = (c + step) % 4;
        if (game.in_play(d) && game.hostile(d, c)) {
          credit[d] += 8 - counts[c];
          break;
        }
      }
    }
    captures.clear();
    for (int c = 0; c < 4; ++c) {
      if (c) captures += ',';
      captures += std::to_string(credit[c]);
    }
  }
  std::string out = "board=";
  out += board_text(pieces, n);
  out += " to_move=";
  out += mover;
  out += " turns=";
  out += std::to_string(turns);
  out += " captures=";
  out += captures;
  return out;
}

State at(const KnightsChallenge& game, std::string_view pieces, char mover = 'r',
         const std::string& captures = "auto", int turns = 0) {
  const std::string text = position(game, pieces, mover, captures, turns);
  INFO("position " << text);
  return game.deserialize(text);
}

// The piece letter on a square, read from the text form.
char piece_on(const KnightsChallenge& game, const State& s, std::string_view square) {
  const int n = game.params().board_size;
  const std::string text = game.serialize(s);
  const XY p = parse_name(square);
  const size_t board = text.find("board=") + 6;
  return text[board + static_cast<size_t>((n - 1 - p.y) * (n + 1) + p.x)];
}

// One key of the text form.
std::string field(const KnightsChallenge& game, const State& s, const std::string& key) {
  const std::string text = game.serialize(s);
  const size_t pos = text.find(key + "=");
  REQUIRE(pos != std::string::npos);
  const size_t from = pos + key.size() + 1;
  return text.substr(from, std::min(text.find(' ', from), text.size()) - from);
}

// ---------------------------------------------------------------------------------------
// Moves.

// The legal actions as a set (ascending), whatever order the knights list them in.
std::vector<Action> legal_set(const KnightsChallenge& game, const State& s) {
  std::vector<Action> actions = legal(game, s);
  std::sort(actions.begin(), actions.end());
  return actions;
}

// The legal moves of the knight on `square`.
Strings moves_from(const KnightsChallenge& game, const State& s, std::string_view square) {
  std::string prefix(square);
  prefix += '-';
  Strings out;
  for (const std::string& move : legal_names(game, s))
    if (move.compare(0, prefix.size(), prefix) == 0) out.push_back(move);
  return out;
}

// ---------------------------------------------------------------------------------------
// Scores.

std::vector<int> tallies(const KnightsChallenge& game, const State& s) {
  std::vector<int> out(static_cast<size_t>(game.num_sides()), -99);
  game.tallies(s, out.data());
  return out;
}

void require_returns(const KnightsChallenge& game, const State& s, const Floats& expected) {
  const Floats got = returns(game, s);
  REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("player " << i);
    REQUIRE(got[i] == Approx(expected[i]));
  }
}

// ---------------------------------------------------------------------------------------
// Observations.

// The squares (names in the observer's frame) where a plane holds 1; every other entry
// must be 0.
Strings ones(const Floats& obs, int plane, int n = kN) {
  Strings out;
  for (int sq = 0; sq < n * n; ++sq) {
    const float v = obs[static_cast<size_t>(plane * n * n + sq)];
    INFO("plane " << plane << " square " << sq);
    REQUIRE((v == 0.0f || v == 1.0f));
    if (v == 1.0f) out.push_back(name_of({sq % n, sq / n}));
  }
  return sorted(out);
}

float constant(const Floats& obs, int plane, int n = kN) {
  const float first = obs[static_cast<size_t>(plane * n * n)];
  for (int sq = 1; sq < n * n; ++sq) {
    INFO("plane " << plane << " square " << sq);
    REQUIRE(obs[static_cast<size_t>(plane * n * n + sq)] == first);
  }
  return first;
}

// The squares of a rectangle of files and ranks, e.g. block('a', 'd', 1, 3).
Strings block(char file_from, char file_to, int rank_from, int rank_to) {
  Strings out;
  for (char f = file_from; f <= file_to; ++f)
    for (int r = rank_from; r <= rank_to; ++r) out.push_back(f + std::to_string(r));
  return sorted(out);
}

// ---------------------------------------------------------------------------------------
// The text form, turned: a quarter-turn counter-clockwise with every colour c becoming
// colour c + 1 (the mover and the captures too).

struct Text {
  std::vector<std::string> rows;  // top rank first
  char mover = 'r';
  std::string turns;
  std::array<std::string, 4> captures;
};

Text parse_text(const std::string& text) {
  Text out;
  std::istringstream in(text);
  for (std::string item; in >> item;) {
    const size_t eq = item.find('=');
    REQUIRE(eq != std::string::npos);
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key == "board") {
      std::istringstream rows(value);
      for (std::string row; std::getline(rows, row, '/');) out.rows.push_back(row);
    } else if (key == "to_move") {
      out.mover = value[0];
    } else if (key == "turns") {
      out.turns = value;
    } else {
      std::istringstream values(value);
      for (std::string& v : out.captures) std::getline(values, v, ',');
    }
  }
  return out;
}

char next_letter(char letter) { return kLetters[(kLetters.find(letter) + 1) % 4]; }

std::string turned_text(const std::string& text) {
  const Text t = parse_text(text);
  const int n = static_cast<int>(t.rows.size());
  std::vector<std::string> rows(static_cast<size_t>(n), std::string(static_cast<size_t>(n), '.'));
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const char cell = t.rows[static_cast<size_t>(n - 1 - y)][static_cast<size_t>(x)];
      if (cell == '.') continue;
      const XY to = turn({x, y}, n);
      rows[static_cast<size_t>(n - 1 - to.y)][static_cast<size_t>(to.x)] = next_letter(cell);
    }
  std::string out = "board=";
  for (int row = 0; row < n; ++row) {
    if (row) out += '/';
    out += rows[static_cast<size_t>(row)];
  }
  out += " to_move=";
  out += next_letter(t.mover);
  out += " turns=";
  out += t.turns;
  out += " captures=";
  for (int c = 0; c < 4; ++c) {
    if (c) out += ',';
    out += t.captures[static_cast<size_t>((c + 3) % 4)];  // colour c - 1's become c's
  }
  return out;
}

// Plays uniformly random legal moves; calls visit(state) before every move and at the end.
template <class F>
void random_game(const KnightsChallenge& game, uint64_t seed, int max_moves, F&& visit) {
  State s = new_state(game);
  Rng rng(seed);
  std::vector<Action> actions(static_cast<size_t>(game.info().num_actions));
  for (int move = 0; move < max_moves && !game.terminal(s); ++move) {
    visit(s);
    const int count = game.legal_actions(s, actions.data());
    REQUIRE(count > 0);
    game.apply(s, actions[rng.below(static_cast<uint32_t>(count))]);
  }
  visit(s);
}

// ---------------------------------------------------------------------------------------
// Frequent positions.

// Red's eight knights in its camp with no legal move while red has not left its camp: the
// d = 2 row cannot go deeper and is not central; a2 and d2 are not central and their
// forward leaps (c3, b3) are taken; b1's forward leaps a3, c3, d2 and c1's a2, b3, d3 are
// taken, and c1-e2 would leave the camp from a square that is not central.
constexpr std::string_view kRedBlocked = "ra3 rb3 rc3 rd3 ra2 rd2 rb1 rc1";
// The same turned twice (yellow's camp, yellow's knights).
constexpr std::string_view kYellowBlocked = "yl10 yk10 yj10 yi10 yl11 yi11 yk12 yj12";

// Red's 16 first moves (central_first): in the camp, each knight leaps to an empty deeper
// square; only b2 and c2, the central squares, may leave the camp.
const Strings kRedFirstMoves =
    sorted({"a1-b3", "b1-a3", "b1-c3", "c1-b3", "c1-d3", "d1-c3", "a2-c3", "b2-d3", "b2-c4",
            "b2-a4", "c2-e3", "c2-d4", "c2-b4", "c2-a3", "c2-e1", "d2-b3"});

// ---------------------------------------------------------------------------------------
// The board, the start and the text form.

TEST_CASE("knights_challenge: start position, camps and the text form", "[knights_challenge]") {
  const KnightsChallenge game = make_game();
  const State s = new_state(game);
  // Red a1-d1 and a2-d2 (d = 0, 1 of camp 0), blue files l and k of ranks 1-4, yellow
  // i11-l12, green files a and b of ranks 9-12.
  REQUIRE(game.serialize(s) ==
          "board=gg......yyyy/gg......yyyy/gg........../gg........../............/"
          "............/............/............/..........bb/..........bb/rrrr......bb/"
          "rrrr......bb to_move=r turns=0 captures=0,0,0,0");
  REQUIRE(game.current_player(s) == 0);
  REQUIRE_FALSE(game.terminal(s));
  REQUIRE(game.info().num_players == 4);
  REQUIRE(game.info().num_actions == 144 * 8);
  REQUIRE(game.info().observation_shape == Shape{kPlanes, kN, kN});
  REQUIRE(game.num_sides() == 4);
  REQUIRE(tallies(game, s) == std::vector<int>{0, 0, 0, 0});
  REQUIRE(returns(game, s) == Floats{0, 0, 0, 0});  // not over: no returns yet

  // duel: red and yellow only (opposite camps), two players and two sides.
  const KnightsChallenge duel = make_game("knights_challenge(mode=duel)");
  REQUIRE(duel.serialize(new_state(duel)) ==
          "board=........yyyy/........yyyy/............/............/............/"
          "............/............/............/............/............/rrrr......../"
          "rrrr........ to_move=r turns=0 captures=0,0,0,0");
  REQUIRE(duel.info().num_players == 2);
  REQUIRE(duel.num_sides() == 2);
  REQUIRE(duel.player_of_colour(2) == 1);
  // ffa3: red, blue, yellow; green's camp empty.
  const KnightsChallenge ffa3 = make_game("knights_challenge(mode=ffa3)");
  REQUIRE(ffa3.serialize(new_state(ffa3)) ==
          "board=........yyyy/........yyyy/............/............/............/"
          "............/............/............/..........bb/..........bb/rrrr......bb/"
          "rrrr......bb to_move=r turns=0 captures=0,0,0,0");
  REQUIRE(ffa3.info().num_players == 3);
  REQUIRE(ffa3.num_sides() == 3);
  // alliance2: two players with two colours each, two sides; team4: four players, two sides.
  const KnightsChallenge alliance = make_game("knights_challenge(mode=alliance2)");
  REQUIRE(alliance.info().num_players == 2);
  REQUIRE(alliance.num_sides() == 2);
  REQUIRE(alliance.player_of_colour(0) == 0);
  REQUIRE(alliance.player_of_colour(1) == 1);
  REQUIRE(alliance.player_of_colour(2) == 0);
  REQUIRE(alliance.player_of_colour(3) == 1);
  const KnightsChallenge team = make_game("knights_challenge(mode=team4)");
  REQUIRE(team.info().num_players == 4);
  REQUIRE(team.num_sides() == 2);
  REQUIRE(team.side_of_player(0) == team.side_of_player(2));
  REQUIRE(team.side_of_player(1) == team.side_of_player(3));
  REQUIRE(team.side_of_player(0) != team.side_of_player(1));

  // 10 x 10: camps 4 x 3 in the corners (blue files i and j, yellow g-j, green ranks 7-10).
  const KnightsChallenge small = make_game("knights_challenge(board_size=10)");
  REQUIRE(small.serialize(new_state(small)) ==
          "board=gg....yyyy/gg....yyyy/gg......../gg......../........../........../"
          "........bb/........bb/rrrr....bb/rrrr....bb to_move=r turns=0 captures=0,0,0,0");

  // The registry loads it by spec.
  REQUIRE(load_game("knights_challenge(mode=duel)")->info().num_players == 2);
  REQUIRE(load_game("knights_challenge(board_size=14)")->info().num_actions == 196 * 8);
}

TEST_CASE("knights_challenge: default and listed safe squares", "[knights_challenge]") {
  const auto safe_squares = [](const KnightsChallenge& game) {
    const int n = game.params().board_size;
    Strings out;
    for (int sq = 0; sq < n * n; ++sq)
      if (game.is_safe(sq)) out.push_back(name_of({sq % n, sq / n}));
    return sorted(out);
  };
  // 12 x 12: the orbits of (5, 3) = f4 and (2, 5) = c6 under (x, y) -> (11 - y, x).
  REQUIRE(safe_squares(make_game()) == sorted({"f4", "i6", "g9", "d7", "c6", "g3", "j7", "f10"}));
  // 10 x 10: the orbits of (N/2 - 1, 3) = (4, 3) = e4 and (2, N/2 - 1) = (2, 4) = c5 under
  // (x, y) -> (9 - y, x): e4 g5 f7 d6 and c5 f3 h6 e8.
  REQUIRE(safe_squares(make_game("knights_challenge(board_size=10)")) ==
          sorted({"e4", "g5", "f7", "d6", "c5", "f3", "h6", "e8"}));
  REQUIRE(safe_squares(make_game("knights_challenge(safe_squares=none)")).empty());
  REQUIRE(safe_squares(make_game("knights_challenge(safe_squares=[e5,h8])")) ==
          Strings{"e5", "h8"});
}

TEST_CASE("knights_challenge: actions are numbered in the mover's frame", "[knights_challenge]") {
  const KnightsChallenge game = make_game();
  State s = new_state(game);
  // Red's b2-c4: from b2 = 1 * 12 + 1 = 13, leap (+1, +2) = kLeaps[1]: 13 * 8 + 1.
  REQUIRE(game.string_to_action(s, "b2-c4") == 105);
  REQUIRE(game.action_to_string(s, 105) == "b2-c4");
  game.apply(s, 105);
  // Blue's k2-i3 is the same move turned a quarter (b2 -> k2, c4 -> i3): the same action.
  REQUIRE(game.string_to_action(s, "k2-i3") == 105);
  REQUIRE(game.action_to_string(s, 105) == "k2-i3");
  REQUIRE_THROWS_WITH(game.string_to_action(s, "b2-d3"), Contains("not a legal move of blue"));
  REQUIRE_THROWS_WITH(game.string_to_action(s, "k2i3"), Contains("from-to"));
  REQUIRE_THROWS_WITH(game.string_to_action(s, "k2-z3"), Contains("not on the board"));
  game.apply(s, 105);
  // Yellow's k11-j9 (turned twice), green's b11-d10 (three times).
  REQUIRE(game.string_to_action(s, "k11-j9") == 105);
  game.apply(s, 105);
  REQUIRE(game.string_to_action(s, "b11-d10") == 105);
  game.apply(s, 105);
  REQUIRE(piece_on(game, s, "c4") == 'r');
  REQUIRE(piece_on(game, s, "i3") == 'b');
  REQUIRE(piece_on(game, s, "j9") == 'y');
  REQUIRE(piece_on(game, s, "d10") == 'g');
  REQUIRE(field(game, s, "turns") == "4");

  // The mask agrees with the legal list.
  std::vector<uint8_t> mask(static_cast<size_t>(game.info().num_actions), 7);
  game.legal_mask(s, mask.data());
  std::vector<Action> from_mask;
  for (size_t a = 0; a < mask.size(); ++a) {
    REQUIRE(mask[a] <= 1);
    if (mask[a]) from_mask.push_back(static_cast<Action>(a));
  }
  REQUIRE(from_mask == legal_set(game, s));
}

// ---------------------------------------------------------------------------------------
// Moves.

TEST_CASE("knights_challenge: a colour's first exit starts on a central square",
          "[knights_challenge]") {
  const KnightsChallenge game = make_game();
  State s = new_state(game);
  REQUIRE(legal_names(game, s) == kRedFirstMoves);

  // Without central_first any knight may leave at once: c1-e2, d1-f2, d1-e3, a2-b4, d2-f3,
  // d2-e4, d2-c4 and d2-f1 come in addition.
  const KnightsChallenge free_exits = make_game("knights_challenge(central_first=false)");
  Strings all = kRedFirstMoves;
  for (const char* move : {"c1-e2", "d1-f2", "d1-e3", "a2-b4", "d2-f3", "d2-e4", "d2-c4", "d2-f1"})
    all.push_back(move);
  REQUIRE(legal_names(free_exits, new_state(free_exits)) == sorted(all));

  // Red leaves from b2. Blue has not left: its first moves are red's turned a quarter-turn,
  // exits from the central k2 and k3 only.
  play(game, s, {"b2-c4"});
  REQUIRE(legal_names(game, s) == turned_moves(kRedFirstMoves, 1));
  play(game, s, {"l1-j2", "l12-k10", "a12-c11"});
  // Once red has left, exits start anywhere: c1-e2, d1-f2, d1-e3, a2-b4, d2-f3, d2-e4 and
  // d2-f1 (d2-c4 is taken by red's own knight). d1 may also leap forwards to the vacated
  // b2. The knight on c4 never returns to its camp (a3, b2, d2 are left out).
  REQUIRE(legal_names(game, s) ==
          sorted({"a1-b3", "b1-a3", "b1-c3", "c1-b3", "c1-d3", "c1-e2", "d1-f2", "d1-e3", "d1-c3",
                  "d1-b2", "a2-c3", "a2-b4", "c2-e3", "c2-d4", "c2-b4", "c2-a3", "c2-e1", "d2-b3",
                  "d2-e4", "d2-f1", "d2-f3", "c4-e5", "c4-d6", "c4-b6", "c4-a5", "c4-e3"}));

  // The rule is kept per colour in alliance2: yellow (player 0, like red) still has to leave
  // from k11 or j11 after red has left, so its moves are red's first ones turned twice.
  const KnightsChallenge alliance = make_game("knights_challenge(mode=alliance2)");
  State a = new_state(alliance);
  play(alliance, a, {"b2-c4", "l1-j2"});
  REQUIRE(alliance.current_player(a) == 0);
  REQUIRE(legal_names(alliance, a) == turned_moves(kRedFirstMoves, 2));
}

TEST_CASE("knights_challenge: inside its own camp a knight only moves forwards",
          "[knights_challenge]") {
  // central_first=false, so that only the forward rule limits the knights in the camp.
  const KnightsChallenge game = make_game("knights_challenge(mode=duel,central_first=false)");
  const State s = at(game, "ra1 rb2 rc3 yl12");
  // a1 (d 0): c2 (d 1) and b3 (d 2) are deeper. b2 (d 1): d3 (d 2) and the exits c4, a4;
  // not d1 (d 0). c3 (d 2): only exits (e4 d5 b5 a4 e2); a2, b1, d1 lie behind it.
  REQUIRE(legal_names(game, s) == sorted({"a1-c2", "a1-b3", "b2-d3", "b2-c4", "b2-a4", "c3-e4",
                                          "c3-d5", "c3-b5", "c3-a4", "c3-e2"}));
  // The same for blue in its own camp (depth -x): k2 (w 1, d 1) may go to j4 (d 2) or leave
  // (i1, i3), not back to l4 (d 0).
  const KnightsChallenge ffa = make_game("knights_challenge(central_first=false)");
  const State b = at(ffa, "bk2 re5 yl12 ga12", 'b');
  REQUIRE(legal_names(ffa, b) == sorted({"k2-j4", "k2-i1", "k2-i3"}));
}

TEST_CASE("knights_challenge: a knight that has left its camp never returns",
          "[knights_challenge]") {
  const KnightsChallenge game = make_game();
  // e4's leaps c3 and d2 are in red's camp: not allowed; g3 is a safe square, open.
  const State s = at(game, "re4 bl4 yl12 ga12");
  REQUIRE(legal_names(game, s) == sorted({"e4-g5", "e4-f6", "e4-d6", "e4-c5", "e4-f2", "e4-g3"}));
}

TEST_CASE("knights_challenge: a knight in an opponent's camp is stuck and scores",
          "[knights_challenge]") {
  const KnightsChallenge game = make_game();
  State s = at(game, "rh3 re5 bl4 yl12 ga12", 'r', "0,10,10,7");
  REQUIRE(tallies(game, s)[0] == 0);  // red has nothing yet, not even a capture
  play(game, s, {"h3-j2"});           // j2 is in blue's camp
  REQUIRE(tallies(game, s)[0] == 2);  // a stuck knight scores 2
  REQUIRE(game.target_score(s, 0) == 2);
  play(game, s, {"l4-k6", "l12-k10", "a12-c11"});
  // Red's j2 knight never moves again: only e5 moves (d3, in red's camp, is left out).
  REQUIRE(moves_from(game, s, "j2").empty());
  REQUIRE(legal_names(game, s) ==
          sorted({"e5-g6", "e5-f7", "e5-d7", "e5-c6", "e5-c4", "e5-f3", "e5-g4"}));
  // A stuck knight is shown upper case.
  REQUIRE(game.render(s).find('R') != std::string::npos);
}

TEST_CASE("knights_challenge: captures, and the knights that cannot be captured",
          "[knights_challenge]") {
  // i4 reaches k5 (blue, open ground), h6 (green, open ground), k3 (blue in its own camp),
  // j2 (green stuck in blue's camp), g3 (yellow on a safe square), j6 (red's own), g5, h2.
  constexpr std::string_view kPieces = "ri4 rj6 bk3 bk5 yg3 yl12 gj2 gh6";
  const KnightsChallenge game = make_game();
  State s = at(game, kPieces, 'r', "6,6,6,6");
  REQUIRE(moves_from(game, s, "i4") == sorted({"i4-k5", "i4-h6", "i4-g5", "i4-h2"}));
  REQUIRE(tallies(game, s) == std::vector<int>{6, 6, 6, 8});  // green's j2 scores 2
  play(game, s, {"i4-k5"});
  // Red keeps the blue knight: 1 point; blue has one knight fewer.
  REQUIRE(piece_on(game, s, "k5") == 'r');
  REQUIRE(piece_on(game, s, "i4") == '.');
  REQUIRE(field(game, s, "captures") == "7,6,6,6");
  REQUIRE(tallies(game, s) == std::vector<int>{7, 6, 6, 8});

  // With safe_squares=[h6] g3 is open ground (yellow may be captured) and h6 is safe.
  const KnightsChallenge listed = make_game("knights_challenge(safe_squares=[h6])");
  REQUIRE(moves_from(listed, at(listed, kPieces, 'r', "6,6,6,6"), "i4") ==
          sorted({"i4-k5", "i4-g5", "i4-h2", "i4-g3"}));
  const KnightsChallenge none = make_game("knights_challenge(safe_squares=none)");
  REQUIRE(moves_from(none, at(none, kPieces, 'r', "6,6,6,6"), "i4") ==
          sorted({"i4-k5", "i4-h6", "i4-g5", "i4-h2", "i4-g3"}));
}

TEST_CASE("knights_challenge: partners are never captured and their camps are closed",
          "[knights_challenge]") {
  // Red i4: k5 holds yellow (red's partner), h6 blue; j2 and k3 are blue's (open) camp.
  // Red h9: j10 and i11 are in yellow's camp.
  constexpr std::string_view kPieces = "ri4 rh9 yk5 yl12 bh6 bl4 ga12";
  const Strings kTeamMoves = sorted({"i4-h6", "i4-g5", "i4-h2", "i4-g3", "i4-j6", "i4-j2", "i4-k3",
                                     "h9-g11", "h9-f10", "h9-f8", "h9-g7", "h9-i7", "h9-j8"});
  for (const char* mode : {"team4", "alliance2"}) {
    INFO(mode);
    std::string spec = "knights_challenge(mode=";
    spec += mode;
    spec += ')';
    const KnightsChallenge game = make_game(spec);
    REQUIRE(legal_names(game, at(game, kPieces)) == kTeamMoves);
  }
  // In ffa4 yellow is an enemy: k5 may be captured and yellow's camp entered.
  const KnightsChallenge ffa = make_game();
  Strings ffa_moves = kTeamMoves;
  for (const char* move : {"i4-k5", "h9-j10", "h9-i11"}) ffa_moves.push_back(move);
  REQUIRE(legal_names(ffa, at(ffa, kPieces)) == sorted(ffa_moves));
}

TEST_CASE("knights_challenge: ffa3: green's unused camp is ordinary ground",
          "[knights_challenge]") {
  const KnightsChallenge game = make_game("knights_challenge(mode=ffa3)");
  // Red b11 is in green's camp, but free: d12, a9 and c9 (capturing blue there); d10 is red's.
  State s = at(game, "rb11 rd10 bc9 bl4 yl12", 'r', "7,6,6,0");
  REQUIRE(moves_from(game, s, "b11") == sorted({"b11-d12", "b11-a9", "b11-c9"}));
  REQUIRE(game.target_score(s, 0) == 0);  // knights there score nothing
  REQUIRE(tallies(game, s) == std::vector<int>{7, 6, 6});
  play(game, s, {"d10-c12"});
  // Blue's c9 may capture red's b11 (not guarded: the camp is nobody's) and move about in
  // the camp (a10) or leave it: e10 d11 b11 a10 a8 b7 d7 e8.
  REQUIRE(moves_from(game, s, "c9") ==
          sorted({"c9-e10", "c9-d11", "c9-b11", "c9-a10", "c9-a8", "c9-b7", "c9-d7", "c9-e8"}));
  play(game, s, {"c9-b11", "l12-k10"});
  REQUIRE(field(game, s, "captures") == "7,7,6,0");
  // Red's only knight, on c12 in green's camp, still moves.
  REQUIRE(legal_names(game, s) == sorted({"c12-a11", "c12-b10", "c12-d10", "c12-e11"}));
  // The observation has no camp for green (relative colour 3 from red's seat).
  REQUIRE(ones(observe(game, s, 0), KnightsChallenge::kPlaneCamps + 3).empty());
}

TEST_CASE("knights_challenge: duel: the two unused camps are ordinary ground",
          "[knights_challenge]") {
  const KnightsChallenge game = make_game("knights_challenge(mode=duel)");
  // Red's j1 is in blue's camp, which is not in play: not stuck, no points.
  const State s = at(game, "rj1 re5 yi3 yl12", 'r', "6,0,6,0");
  REQUIRE(moves_from(game, s, "j1") == sorted({"j1-l2", "j1-k3", "j1-i3", "j1-h2"}));
  REQUIRE(game.target_score(s, 0) == 0);
  REQUIRE(tallies(game, s) == std::vector<int>{6, 6});
  // Yellow's i3 may capture it there, and enter blue's camp freely (k4, k2).
  const State y = at(game, "rj1 re5 yi3 yl12", 'y', "6,0,6,0");
  REQUIRE(moves_from(game, y, "i3") ==
          sorted({"i3-k4", "i3-j5", "i3-h5", "i3-g4", "i3-g2", "i3-h1", "i3-j1", "i3-k2"}));
}

// ---------------------------------------------------------------------------------------
// Passing and the end of the game.

TEST_CASE("knights_challenge: a colour with no legal move passes", "[knights_challenge]") {
  const KnightsChallenge game = make_game();
  std::string pieces(kRedBlocked);
  pieces += " bg6 yh8 gf8";
  // Red as the mover is refused: it has no legal move.
  REQUIRE_THROWS_WITH(at(game, pieces, 'r', "0,7,7,7"), Contains("red has no legal move"));
  State s = at(game, pieces, 'g', "0,7,7,7");
  play(game, s, {"f8-g10"});
  // Red is skipped without a ply: blue moves next, after one ply.
  REQUIRE(game.current_player(s) == 1);
  REQUIRE(field(game, s, "to_move") == "b");
  REQUIRE(field(game, s, "turns") == "1");
  REQUIRE_FALSE(game.terminal(s));

  // duel: yellow cannot move, so red moves again.
  const KnightsChallenge duel = make_game("knights_challenge(mode=duel)");
  std::string both = "rb1 rc1 ra2 rc2 rd2 rb3 rc3 rd3 ";
  both += kYellowBlocked;
  State d = at(duel, both);
  play(duel, d, {"c2-e3"});
  REQUIRE(duel.current_player(d) == 0);
  REQUIRE(field(duel, d, "turns") == "1");
}

TEST_CASE("knights_challenge: the game ends when no colour can move", "[knights_challenge]") {
  const KnightsChallenge duel = make_game("knights_challenge(mode=duel)");
  std::string both = "rb1 rc1 ra2 rc2 rd2 rb3 rc3 rd3 ";
  both += kYellowBlocked;
  State s = at(duel, both);
  REQUIRE(moves_from(duel, s, "c2").size() == 5);  // e3 d4 b4 a3 e1
  // c2-a3 leaves red blocked like yellow: nobody can move.
  play(duel, s, {"c2-a3"});
  REQUIRE(duel.terminal(s));
  REQUIRE_FALSE(duel.truncated(s));
  REQUIRE(s.reason == Reason::kNoMoves);
  REQUIRE(duel.current_player(s) == kTerminalPlayer);
  REQUIRE(legal_names(duel, s).empty());
  require_returns(duel, s, {0, 0});  // 0 : 0, a draw
  // Set up from text the position is over at once.
  std::string blocked(kRedBlocked);
  blocked += ' ';
  blocked += kYellowBlocked;
  REQUIRE(at(duel, blocked).reason == Reason::kNoMoves);
}

// Red: j1 j3 j4 in blue's camp, i10 j10 in yellow's, a9 b9 in green's; h3 free (h3-j2 fills
// blue's d = 2 row j1-j4).
constexpr std::string_view kSevenStuck = "rj1 rj3 rj4 ri10 rj10 ra9 rb9 rh3 bl2 bl3 yl12 ga12";

TEST_CASE("knights_challenge: all 8 knights of a colour stuck end the game",
          "[knights_challenge]") {
  const KnightsChallenge game = make_game();
  State s = at(game, kSevenStuck, 'r', "8,6,6,0");
  REQUIRE_FALSE(game.terminal(s));
  play(game, s, {"h3-j2"});
  REQUIRE(game.terminal(s));
  REQUIRE_FALSE(game.truncated(s));
  REQUIRE(s.reason == Reason::kAllStuck);
  // Red: 8 x 2 + the row j1-j4 (16 instead of 8) + 8 captures + 12 (2 or more in each
  // opponent's camp: 4, 2, 2) = 44. Blue and yellow 6 (captures), green 0.
  REQUIRE(tallies(game, s) == std::vector<int>{44, 6, 6, 0});
  // Red ranks first (3 below), blue and yellow share the middle (1 below, 1 above), green
  // last: (below - above) / 3.
  require_returns(game, s, {1.0f, 0.0f, 0.0f, -1.0f});
}

TEST_CASE("knights_challenge: max_turns truncates, but a natural end on the last ply wins",
          "[knights_challenge]") {
  const KnightsChallenge game = make_game("knights_challenge(max_turns=10)");
  State natural = at(game, kSevenStuck, 'r', "8,6,6,0", 9);
  play(game, natural, {"h3-j2"});  // the tenth ply, and all of red stuck
  REQUIRE(natural.reason == Reason::kAllStuck);
  REQUIRE_FALSE(game.truncated(natural));

  State cut = at(game, kSevenStuck, 'r', "8,6,6,0", 9);
  play(game, cut, {"h3-g5"});
  REQUIRE(game.terminal(cut));
  REQUIRE(game.truncated(cut));
  REQUIRE(cut.end == End::kTruncated);
  REQUIRE(game.current_player(cut) == kTerminalPlayer);
  // Ranked by the tallies: red 7 x 2 + 8 captures + 12 (2, 2, 2 in the camps) = 34.
  REQUIRE(tallies(game, cut) == std::vector<int>{34, 6, 6, 0});
  require_returns(game, cut, {1.0f, 0.0f, 0.0f, -1.0f});

  // A position set up at max_turns is over; beyond it, refused.
  const State full = at(game, kSevenStuck, 'r', "8,6,6,0", 10);
  REQUIRE(game.truncated(full));
  REQUIRE_THROWS_WITH(at(game, kSevenStuck, 'r', "8,6,6,0", 11), Contains("turns"));
}

TEST_CASE("knights_challenge: duel ends at target_points without counting captures",
          "[knights_challenge]") {
  const KnightsChallenge game = make_game("knights_challenge(mode=duel)");
  // Red: the column l10-l12 in yellow's camp (12) and k12 (2) = 14; h10 free. Yellow: seven
  // knights in red's camp without a line (a1 b1 c1 a2 b2 d2 c3) = 14, 3 captures, g6 free.
  State s = at(game, "rl12 rl11 rl10 rk12 rh10 ya1 yb1 yc1 ya2 yb2 yd2 yc3 yg6", 'r', "0,0,3,0");
  REQUIRE(game.target_score(s, 0) == 14);
  REQUIRE(game.target_score(s, 1) == 14);
  // Yellow's tally, 17, passes 16 with its captures, but the game goes on.
  REQUIRE(tallies(game, s) == std::vector<int>{14, 17});
  REQUIRE_FALSE(game.terminal(s));
  play(game, s, {"h10-i12"});  // 12 + 2 x 2 = 16
  REQUIRE(s.reason == Reason::kTargetPoints);
  REQUIRE(game.target_score(s, 0) == 16);
  REQUIRE(tallies(game, s) == std::vector<int>{16, 17});
  // Red reached the target: red ranks first although yellow's tally is higher.
  require_returns(game, s, {1.0f, -1.0f});

  // A lower target_points ends the game as soon as it is met.
  const KnightsChallenge low = make_game("knights_challenge(mode=duel,target_points=14)");
  REQUIRE(
      at(low, "rl12 rl11 rl10 rk12 rh10 ya1 yb1 yc1 ya2 yb2 yd2 yc3 yg6", 'r', "0,0,3,0").reason ==
      Reason::kTargetPoints);
}

TEST_CASE("knights_challenge: ffa3 ends at target_points; its unused camp scores nothing",
          "[knights_challenge]") {
  const KnightsChallenge game = make_game("knights_challenge(mode=ffa3)");
  // Red: j1 j2 j3 in blue's camp (6), h5 free, and a9-a12, a full row of green's unused
  // camp, which scores nothing. Blue: a1 b1 c1 a2 in red's camp and l12 in yellow's (10, no
  // line), e7 f7 g7 free, 7 captures. Yellow: k11.
  State s = at(game, "rj1 rj2 rj3 rh5 ra9 ra10 ra11 ra12 ba1 bb1 bc1 ba2 bl12 be7 bf7 bg7 yk11",
               'r', "0,7,0,0");
  REQUIRE_FALSE(game.terminal(s));
  REQUIRE(game.target_score(s, 0) == 6);
  // Blue: 10 + 7 captures and no camp bonus in ffa3.
  REQUIRE(tallies(game, s) == std::vector<int>{6, 17, 0});
  play(game, s, {"h5-j4"});  // the row j1-j4: 16
  REQUIRE(s.reason == Reason::kTargetPoints);
  REQUIRE(tallies(game, s) == std::vector<int>{16, 17, 0});
  // Red first (target), blue second, yellow third: (below - above) / 2.
  require_returns(game, s, {1.0f, 0.0f, -1.0f});
}

TEST_CASE("knights_challenge: alliance2 ends with 8 knights in the other camps, 4 of each",
          "[knights_challenge]") {
  const KnightsChallenge game = make_game("knights_challenge(mode=alliance2)");
  // Red: j1 j2 l4 in blue's camp, c12 c11 in green's; e5 free. Yellow: j3 in blue's camp,
  // c10 c9 in green's; h5 free. 8 in the camps, but only 3 yellow: the game goes on.
  State s = at(game, "rj1 rj2 rl4 rc12 rc11 re5 yj3 yc10 yc9 yh5 bl1 ga12", 'y', "7,4,7,2");
  REQUIRE_FALSE(game.terminal(s));
  REQUIRE(game.current_player(s) == 0);  // yellow is player 0's
  play(game, s, {"h5-j4"});              // 5 red + 4 yellow
  REQUIRE(s.reason == Reason::kAllianceInCamp);
  // Alliance red-yellow: 9 x 2, the mixed row j1-j4 (+8) and the mixed row c9-c12 (+8),
  // 14 captures, no camp bonus = 48. Blue-green: 6 captures.
  REQUIRE(tallies(game, s) == std::vector<int>{48, 6});
  require_returns(game, s, {1.0f, -1.0f});

  // Exactly 4 and 4.
  State exact = at(game, "rj1 rj2 rc12 rc11 re5 yj3 yc10 yc9 yh5 bl1 ga12", 'y', "7,7,4,3");
  REQUIRE_FALSE(game.terminal(exact));
  play(game, exact, {"h5-j4"});
  REQUIRE(exact.reason == Reason::kAllianceInCamp);
  // 8 x 2 + 8 + 8 + 11 captures = 43; blue-green 10.
  REQUIRE(tallies(game, exact) == std::vector<int>{43, 10});
}

TEST_CASE("knights_challenge: the game ends when two colours are finished", "[knights_challenge]") {
  const KnightsChallenge game = make_game();
  // Blue is finished already (a3, b3 stuck, 6 lost). Red: i10, j3, a10 stuck, h3 free.
  State s = at(game, "ba3 bb3 ri10 rj3 ra10 rh3 yl12 yk12 ga12 gb12", 'r', "6,4,6,6");
  REQUIRE_FALSE(game.terminal(s));
  play(game, s, {"h3-j2"});  // red's last free knight stuck: red finished too
  REQUIRE(s.reason == Reason::kTwoFinished);
  // Red 4 x 2 + 6 captures + 6 (at least 1 in each camp) = 20; blue 2 x 2 + 4 = 8.
  REQUIRE(tallies(game, s) == std::vector<int>{20, 8, 6, 6});
  // Red 3 below: 1. Blue 2 below, 1 above: 1/3. Yellow and green share the last rank.
  require_returns(game, s, {1.0f, 1.0f / 3, -2.0f / 3, -2.0f / 3});

  // A capture finishes a colour too: yellow takes green's last free knight.
  State c = at(game, "ba3 bb3 gj1 gg5 ye4 yl12 rh8", 'y', "6,6,7,6");
  REQUIRE(c.end == End::kRunning);
  play(game, c, {"e4-g5"});
  REQUIRE(c.reason == Reason::kTwoFinished);
  // Red 6; blue 4 + 6 = 10; yellow 8 captures; green j1 (2) + 6 = 8.
  REQUIRE(tallies(game, c) == std::vector<int>{6, 10, 8, 8});
  require_returns(game, c, {-1.0f, 1.0f, 0.0f, 0.0f});
}

TEST_CASE("knights_challenge: team4: both partners get their team's result",
          "[knights_challenge]") {
  const KnightsChallenge game = make_game("knights_challenge(mode=team4)");
  // Red: j1 j3 j4 in blue's camp, the row a9-a12 of green's camp; h3-j2 makes all 8 stuck.
  State s = at(game, "rj1 rj3 rj4 ra9 ra10 ra11 ra12 rh3 yl12 bl1 gc12", 'r', "0,7,7,7");
  REQUIRE(tallies(game, s) == std::vector<int>{7 + 14 + 8, 14});
  REQUIRE(returns(game, s) == Floats{0, 0, 0, 0});  // not over yet
  play(game, s, {"h3-j2"});
  REQUIRE(s.reason == Reason::kAllStuck);
  // Red-yellow: 8 x 2 + two rows (+8 each) + yellow's 7 captures = 39; blue-green 14.
  REQUIRE(tallies(game, s) == std::vector<int>{39, 14});
  require_returns(game, s, {1.0f, -1.0f, 1.0f, -1.0f});
}

// ---------------------------------------------------------------------------------------
// Tallies.

TEST_CASE("knights_challenge: tally: the 40-point maximum", "[knights_challenge]") {
  const KnightsChallenge game = make_game();
  // Red: the column l1 k1 j1 of blue's camp (12), the column l12 l11 l10 of yellow's (12),
  // a9 a10 in green's (4), and 2 or more in each camp (12): 40.
  const State s = at(game, "rl1 rk1 rj1 rl12 rl11 rl10 ra9 ra10 bk4 yi11 gb12", 'r', "0,7,7,7");
  REQUIRE(s.reason == Reason::kAllStuck);
  REQUIRE(tallies(game, s) == std::vector<int>{40, 7, 7, 7});
  REQUIRE(game.target_score(s, 0) == 28);  // no camp bonus in the target score
  require_returns(game, s, {1.0f, -1.0f / 3, -1.0f / 3, -1.0f / 3});
}

TEST_CASE("knights_challenge: tally: crossing lines count the best disjoint choice",
          "[knights_challenge]") {
  const KnightsChallenge game = make_game();
  // Blue's camp: the row j1-j4 (d = 2) and the column l1 k1 j1 (w = 0) share j1. The row
  // and l1, k1: 16 + 4 = 20; the column and j2-j4: 12 + 6 = 18. Best 20, + 7 captures.
  const State six = at(game, "rl1 rk1 rj1 rj2 rj3 rj4 re5 bl4 yl12 ga12", 'r', "7,1,7,7");
  REQUIRE(tallies(game, six)[0] == 27);
  // The columns w = 0 (l1 k1 j1) and w = 3 (l4 k4 j4) and the row j1-j4: both columns and
  // j2, j3 give 12 + 12 + 4 = 28; the row and l1 k1 l4 k4 only 16 + 8 = 24.
  const State eight = at(game, "rl1 rk1 rj1 rl4 rk4 rj4 rj2 rj3 bl2 yl12 ga12", 'r', "0,7,7,7");
  REQUIRE(tallies(game, eight)[0] == 28);
  // Two rows (l1-l4 and k1-k4): 16 + 16 = 32.
  const State rows = at(game, "rl1 rl2 rl3 rl4 rk1 rk2 rk3 rk4 bj1 yl12 ga12", 'r', "0,7,7,7");
  REQUIRE(tallies(game, rows)[0] == 32);
}

TEST_CASE("knights_challenge: tally: ffa4 camp bonus 6 and 12", "[knights_challenge]") {
  const KnightsChallenge game = make_game();
  // One knight in each opponent's camp: 3 x 2 + 6.
  REQUIRE(tallies(game, at(game, "rj1 ri10 ra9 re5 bf6 yl12 ga12", 'r', "0,11,7,7"))[0] == 12);
  // 2, 2 and 1: still 6.
  REQUIRE(tallies(game, at(game, "rj1 rj2 ri10 rj10 ra9 re5 bf6 yl12 ga12", 'r', "0,9,7,7"))[0] ==
          16);
  // 2, 2 and 0: no bonus.
  REQUIRE(tallies(game, at(game, "rj1 rj2 ri10 rj10 re5 bf6 yl12 ga12", 'r', "0,10,7,7"))[0] == 8);
  // 2 in each: 6 x 2 + 12.
  REQUIRE(tallies(game, at(game, "rj1 rj2 ri10 rj10 ra9 rb9 re5 bf6 yl12 ga12", 'r',
                           "0,8,7,7"))[0] == 24);
}

TEST_CASE("knights_challenge: tally: captured knights count 1 each", "[knights_challenge]") {
  const KnightsChallenge game = make_game();
  const State s = at(game, "re5 bg6 yl12 ga12", 'r', "10,6,5,7");
  REQUIRE(tallies(game, s) == std::vector<int>{10, 6, 5, 7});
  REQUIRE(game.target_score(s, 0) == 0);
}

TEST_CASE("knights_challenge: tally: team4 camp bonuses, with and without mixed lines",
          "[knights_challenge]") {
  const KnightsChallenge plain = make_game("knights_challenge(mode=team4)");
  const KnightsChallenge mixed = make_game("knights_challenge(mode=team4,mixed_lines=true)");
  // 2 of each team colour in each of the other team's camps: red l1 l2 and a9 a10, yellow
  // l3 l4 and a11 a12. The rows l1-l4 and a9-a12 mix the colours.
  constexpr std::string_view kTwoEach = "rl1 rl2 ra9 ra10 re5 yl3 yl4 ya11 ya12 yf8 bh6 gg4";
  // 8 x 2 + 6 + 14 captures = 36; with mixed lines + 8 + 8 = 52. Blue-green: 6 captures.
  REQUIRE(tallies(plain, at(plain, kTwoEach, 'r', "7,3,7,3")) == std::vector<int>{36, 6});
  REQUIRE(tallies(mixed, at(mixed, kTwoEach, 'r', "7,3,7,3")) == std::vector<int>{52, 6});
  // 3 of each: red's columns l1 k1 j1 and a9 b9 c9 (+6 each, one colour), yellow l2-l4 and
  // a10-a12. 12 x 2 + 12 + 12 + 14 = 62. Mixed, each camp's row (+8) crosses red's column
  // (+6) in one cell: the row only, 24 + 16 + 12 + 14 = 66.
  constexpr std::string_view kThreeEach =
      "rl1 rk1 rj1 ra9 rb9 rc9 re5 yl2 yl3 yl4 ya10 ya11 ya12 yf8 bh6 gg4";
  REQUIRE(tallies(plain, at(plain, kThreeEach, 'r', "7,1,7,1")) == std::vector<int>{62, 2});
  REQUIRE(tallies(mixed, at(mixed, kThreeEach, 'r', "7,1,7,1")) == std::vector<int>{66, 2});
  // Only 2 yellow in green's camp: +6. 11 x 2 + 12 + 6 + 14 = 54; mixed: the row l1-l4
  // (+8) and the column a9-c9 (+6): 22 + 14 + 6 + 14 = 56.
  constexpr std::string_view kThreeTwo =
      "rl1 rk1 rj1 ra9 rb9 rc9 re5 yl2 yl3 yl4 ya10 ya11 yf8 bh6 gg4";
  REQUIRE(tallies(plain, at(plain, kThreeTwo, 'r', "7,2,7,1")) == std::vector<int>{54, 3});
  REQUIRE(tallies(mixed, at(mixed, kThreeTwo, 'r', "7,2,7,1")) == std::vector<int>{56, 3});
  // Ongoing: no returns yet.
  REQUIRE(returns(plain, at(plain, kTwoEach, 'r', "7,3,7,3")) == Floats{0, 0, 0, 0});
}

// The best line bonus of a cell set, by trying every set of lines: columns w (cells w,
// w + 4, w + 8) count 12 instead of 6 (+6), rows d (cells 4d .. 4d + 3) 16 instead of 8 (+8).
int brute_force_bonus(unsigned cells) {
  std::array<unsigned, 7> lines{};
  std::array<int, 7> bonus{};
  for (int w = 0; w < 4; ++w) {
    lines[static_cast<size_t>(w)] = (1u << w) | (1u << (w + 4)) | (1u << (w + 8));
    bonus[static_cast<size_t>(w)] = 6;
  }
  for (int d = 0; d < 3; ++d) {
    lines[static_cast<size_t>(4 + d)] = 0xfu << (4 * d);
    bonus[static_cast<size_t>(4 + d)] = 8;
  }
  int best = 0;
  for (unsigned subset = 0; subset < 128; ++subset) {
    unsigned used = 0;
    int points = 0;
    bool ok = true;
    for (size_t line = 0; line < 7 && ok; ++line) {
      if (!(subset >> line & 1)) continue;
      ok = (lines[line] & cells) == lines[line] && (lines[line] & used) == 0;
      used |= lines[line];
      points += bonus[line];
    }
    if (ok) best = std::max(best, points);
  }
  return best;
}

TEST_CASE("knights_challenge: the line choice is optimal on every camp filling",
          "[knights_challenge]") {
  for (unsigned cells = 0; cells < 4096; ++cells) {
    INFO("cells " << cells);
    REQUIRE(static_cast<int>(knights_challenge::kBestLineBonus[cells]) == brute_force_bonus(cells));
  }
  // And the tally uses it: red knights stuck on random cells of blue's camp, where cell
  // (w, d) is the square (11 - d, w).
  const KnightsChallenge game = make_game();
  Rng rng(2024);
  for (int trial = 0; trial < 300; ++trial) {
    unsigned cells = 0;
    const int count = static_cast<int>(rng.below(9));
    while (std::popcount(cells) < count) cells |= 1u << rng.below(12);
    std::string pieces = "bf6 yl12 ga12";
    for (int cell = 0; cell < 12; ++cell)
      if (cells >> cell & 1) {
        pieces += " r";
        pieces += name_of({11 - cell / 4, cell % 4});
      }
    // Lost: red 8 - count, blue, yellow, green 7 each; red holds green's 7.
    std::string captures = "7,";
    captures += std::to_string(15 - count);
    captures += ",7,0";
    INFO(pieces);
    REQUIRE(tallies(game, at(game, pieces, 'b', captures))[0] ==
            2 * count + brute_force_bonus(cells) + 7);
  }
}

// ---------------------------------------------------------------------------------------
// Symmetry and observations.

TEST_CASE("knights_challenge: a quarter-turn with every colour shifted is the same game",
          "[knights_challenge]") {
  const KnightsChallenge game = make_game();
  int checked = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed)
    random_game(game, seed, 400, [&](const State& s) {
      if (game.terminal(s) || s.turns % 9 != 0) return;
      const std::string text = game.serialize(s);
      const std::string turned_text_form = turned_text(text);
      INFO(text << "\nturned: " << turned_text_form);
      const State t = game.deserialize(turned_text_form);
      REQUIRE(game.current_player(t) == (game.current_player(s) + 1) % 4);
      REQUIRE(legal_set(game, t) == legal_set(game, s));
      REQUIRE(legal_names(game, t) == turned_moves(legal_names(game, s), 1));
      for (int player = 0; player < 4; ++player)
        REQUIRE(observe(game, s, player) == observe(game, t, (player + 1) % 4));
      std::vector<int> a = tallies(game, s), b = tallies(game, t);
      std::rotate(a.rbegin(), a.rbegin() + 1, a.rend());  // colour c's tally is c + 1's
      REQUIRE(a == b);
      ++checked;
    });
  REQUIRE(checked > 100);
}

TEST_CASE("knights_challenge: the rules' planes name the mode and central_first",
          "[knights_challenge]") {
  using KC = KnightsChallenge;
  const char* modes[] = {"ffa4", "ffa3", "duel", "alliance2", "team4"};
  for (int mode = 0; mode < 5; ++mode)
    for (const bool central : {true, false}) {
      const std::string spec = std::string("knights_challenge(mode=") + modes[mode] +
                               ",central_first=" + (central ? "true" : "false") + ")";
      INFO(spec);
      const KnightsChallenge game = make_game(spec);
      State s = new_state(game);
      for (const int plies : {0, 3}) {
        for (int k = 0; k < plies; ++k) {
          Action legal[KC::kMaxActions];
          REQUIRE(game.legal_actions(s, legal) > 0);
          game.apply(s, legal[0]);
        }
        for (int player = 0; player < game.info().num_players; ++player) {
          const Floats obs = observe(game, s, player);
          for (int k = 0; k < 5; ++k)
            CHECK(constant(obs, KC::kPlaneMode + k) == (k == mode ? 1.0f : 0.0f));
          CHECK(constant(obs, KC::kPlaneCentralFirst) == (central ? 1.0f : 0.0f));
        }
      }
    }
}

TEST_CASE("knights_challenge: observation planes", "[knights_challenge]") {
  using KC = KnightsChallenge;
  const KnightsChallenge game = make_game();
  // Blue: k2 (own camp), f6 free, a1 stuck in red's camp. Red: c4 free, j1 stuck in blue's
  // camp. Yellow: all eight at home. Green: a12. Blue to move at ply 250.
  const State s = at(game, "bk2 bf6 ba1 rc4 rj1 yi11 yj11 yk11 yl11 yi12 yj12 yk12 yl12 ga12", 'b',
                     "5,7,0,6", 250);
  // Blue's frame turns the board a quarter clockwise: (x, y) -> (y, 11 - x), so blue's camp
  // is a1-d3. Relative colours: blue 0, yellow 1, green 2, red 3.
  const Floats obs = observe(game, s, 1);
  REQUIRE(ones(obs, KC::kPlaneFreeKnights + 0) == sorted({"b2", "f7"}));   // k2, f6
  REQUIRE(ones(obs, KC::kPlaneStuckKnights + 0) == Strings{"a12"});        // a1
  REQUIRE(ones(obs, KC::kPlaneFreeKnights + 1) == block('k', 'l', 1, 4));  // yellow's d 0, 1
  REQUIRE(ones(obs, KC::kPlaneStuckKnights + 1).empty());
  REQUIRE(ones(obs, KC::kPlaneFreeKnights + 2) == Strings{"l12"});  // a12
  REQUIRE(ones(obs, KC::kPlaneStuckKnights + 2).empty());
  REQUIRE(ones(obs, KC::kPlaneFreeKnights + 3) == Strings{"d10"});     // c4
  REQUIRE(ones(obs, KC::kPlaneStuckKnights + 3) == Strings{"a3"});     // j1
  REQUIRE(ones(obs, KC::kPlaneCamps + 0) == block('a', 'd', 1, 3));    // blue's
  REQUIRE(ones(obs, KC::kPlaneCamps + 1) == block('j', 'l', 1, 4));    // yellow's
  REQUIRE(ones(obs, KC::kPlaneCamps + 2) == block('i', 'l', 10, 12));  // green's
  REQUIRE(ones(obs, KC::kPlaneCamps + 3) == block('a', 'c', 9, 12));   // red's
  // The safe squares are the same set in every frame.
  REQUIRE(ones(obs, KC::kPlaneSafeSquares) ==
          sorted({"f4", "i6", "g9", "d7", "c6", "g3", "j7", "f10"}));
  // Left camp: blue, green (lost knights), red yes; yellow, all at home, no.
  REQUIRE(constant(obs, KC::kPlaneLeftCamp + 0) == 1.0f);
  REQUIRE(constant(obs, KC::kPlaneLeftCamp + 1) == 0.0f);
  REQUIRE(constant(obs, KC::kPlaneLeftCamp + 2) == 1.0f);
  REQUIRE(constant(obs, KC::kPlaneLeftCamp + 3) == 1.0f);
  // Captures / 8: blue 7, yellow 0, green 6, red 5.
  REQUIRE(constant(obs, KC::kPlaneCaptures + 0) == 7.0f / 8);
  REQUIRE(constant(obs, KC::kPlaneCaptures + 1) == 0.0f);
  REQUIRE(constant(obs, KC::kPlaneCaptures + 2) == 6.0f / 8);
  REQUIRE(constant(obs, KC::kPlaneCaptures + 3) == 5.0f / 8);
  REQUIRE(constant(obs, KC::kPlaneObserverToMove) == 1.0f);
  REQUIRE(constant(obs, KC::kPlaneProgress) == Approx(0.25f));

  // Red's own view is the board as it stands.
  const Floats red = observe(game, s, 0);
  REQUIRE(ones(red, KC::kPlaneFreeKnights + 0) == Strings{"c4"});
  REQUIRE(ones(red, KC::kPlaneStuckKnights + 0) == Strings{"j1"});
  REQUIRE(ones(red, KC::kPlaneFreeKnights + 1) == sorted({"k2", "f6"}));
  REQUIRE(ones(red, KC::kPlaneStuckKnights + 1) == Strings{"a1"});
  REQUIRE(ones(red, KC::kPlaneCamps + 0) == block('a', 'd', 1, 3));
  REQUIRE(ones(red, KC::kPlaneCamps + 1) == block('j', 'l', 1, 4));
  REQUIRE(constant(red, KC::kPlaneLeftCamp + 2) == 0.0f);  // yellow
  REQUIRE(constant(red, KC::kPlaneCaptures + 0) == 5.0f / 8);
  REQUIRE(constant(red, KC::kPlaneObserverToMove) == 0.0f);

  // alliance2: player 0 sees the board in the frame of its colour to move, yellow's (turned
  // a half-turn, (x, y) -> (11 - x, 11 - y)): yellow's start squares become a1-d2, red's
  // (relative colour 2) a1 b1 c1 d1 a2 c2 d2 c4 become l12 k12 j12 i12 l11 j11 i11 j9.
  const KnightsChallenge alliance = make_game("knights_challenge(mode=alliance2)");
  State a = new_state(alliance);
  play(alliance, a, {"b2-c4", "l1-j2"});
  const Floats yellow = observe(alliance, a, 0);
  REQUIRE(ones(yellow, KC::kPlaneFreeKnights + 0) == block('a', 'd', 1, 2));
  REQUIRE(ones(yellow, KC::kPlaneFreeKnights + 2) ==
          sorted({"l12", "k12", "j12", "i12", "l11", "j11", "i11", "j9"}));
  REQUIRE(constant(yellow, KC::kPlaneLeftCamp + 0) == 0.0f);  // yellow has not left
  REQUIRE(constant(yellow, KC::kPlaneLeftCamp + 2) == 1.0f);  // red has
  REQUIRE(constant(yellow, KC::kPlaneObserverToMove) == 1.0f);
  REQUIRE(constant(observe(alliance, a, 1), KC::kPlaneObserverToMove) == 0.0f);

  // Over: nobody is to move.
  const State over = at(game, "rl1 rk1 rj1 rl12 rl11 rl10 ra9 ra10 bk4 yi11 gb12", 'r', "0,7,7,7");
  REQUIRE(game.terminal(over));
  for (int player = 0; player < 4; ++player)
    REQUIRE(constant(observe(game, over, player), KC::kPlaneObserverToMove) == 0.0f);
}

// ---------------------------------------------------------------------------------------
// Bad input.

TEST_CASE("knights_challenge: bad parameters are refused with the reason", "[knights_challenge]") {
  REQUIRE_THROWS_WITH(make_game("knights_challenge(mode=ffa5)"),
                      Contains("mode") && Contains("expected one of"));
  REQUIRE_THROWS_WITH(make_game("knights_challenge(board_size=9)"),
                      Contains("board_size") && Contains("[10, 16]"));
  REQUIRE_THROWS_WITH(make_game("knights_challenge(board_size=17)"),
                      Contains("board_size") && Contains("[10, 16]"));
  REQUIRE_THROWS_WITH(make_game("knights_challenge(safe_squares=[f4,b2])"),
                      Contains("'b2' is in a camp"));
  REQUIRE_THROWS_WITH(make_game("knights_challenge(safe_squares=[f4,m5])"),
                      Contains("'m5' is not a square of the 12x12 board"));
  REQUIRE_THROWS_WITH(make_game("knights_challenge(safe_squares=[f4,i6,f4])"),
                      Contains("'f4' is listed twice"));
  REQUIRE_THROWS_WITH(make_game("knights_challenge(colour=red)"),
                      Contains("unknown parameter 'colour'"));
  // m5 is a square of the 14 x 14 board, and outside its camps.
  REQUIRE(make_game("knights_challenge(board_size=14,safe_squares=[m5])").is_safe(4 * 14 + 12));
}

TEST_CASE("knights_challenge: malformed state text is refused with the reason",
          "[knights_challenge]") {
  const KnightsChallenge game = make_game();
  const std::string good = position(game, "re5 bl4 yl12 ga12");
  REQUIRE_NOTHROW(game.deserialize(good));
  const auto with_board = [&](const std::string& board) {
    std::string text = "board=";
    text += board;
    text += good.substr(good.find(' '));
    return text;
  };
  const std::string board = board_text("re5 bl4 yl12 ga12");
  REQUIRE_THROWS_WITH(game.deserialize(with_board(board.substr(board.find('/') + 1))),
                      Contains("11 ranks, not 12"));
  std::string short_rank = board;
  short_rank.erase(0, 1);  // rank 12 loses a square
  REQUIRE_THROWS_WITH(game.deserialize(with_board(short_rank)),
                      Contains("rank 12 has 11 squares, not 12"));
  std::string letter = board;
  letter[0] = 'x';  // a12
  REQUIRE_THROWS_WITH(game.deserialize(with_board(letter)), Contains("unknown piece 'x' on a12"));

  const KnightsChallenge duel = make_game("knights_challenge(mode=duel)");
  REQUIRE_THROWS_WITH(at(duel, "re5 bl4 yl12"), Contains("blue is not in play"));
  REQUIRE_THROWS_WITH(at(duel, "re5 yl12", 'b'), Contains("to_move 'b' is not a colour in play"));
  REQUIRE_THROWS_WITH(at(game, "ra1 rb1 rc1 rd1 ra2 rb2 rc2 rd2 re5 bl4 yl12 ga12", 'r', "7,7,7,0"),
                      Contains("red has more than 8 knights"));
  REQUIRE_THROWS_WITH(at(game, "re5 bl4 yl12 ga12", 'r', "7,7,7,6"),
                      Contains("captures add up to 27 but 28 knights are missing"));
  REQUIRE_THROWS_WITH(at(game, "re5 bl4 yl12 ga12", 'r', "7,7,7"), Contains("captures"));
  // team4: red may not stand in yellow's camp.
  const KnightsChallenge team = make_game("knights_challenge(mode=team4)");
  REQUIRE_THROWS_WITH(at(team, "rj11 re5 bl4 yl12 ga12"),
                      Contains("red knight on j11, in its partner's camp"));
  // A mover with no legal move.
  std::string blocked(kRedBlocked);
  blocked += " bg6 yh8 gf8";
  REQUIRE_THROWS_WITH(at(game, blocked, 'r', "0,7,7,7"), Contains("red has no legal move"));
  REQUIRE_THROWS_WITH(game.deserialize("board=x"), Contains("cannot read state"));
}

TEST_CASE("knights_challenge: the text form round-trips in every mode", "[knights_challenge]") {
  for (const char* mode : {"ffa4", "ffa3", "duel", "alliance2", "team4"}) {
    std::string spec = "knights_challenge(mode=";
    spec += mode;
    spec += ",max_turns=300)";
    const KnightsChallenge game = make_game(spec);
    for (uint64_t seed = 1; seed <= 4; ++seed)
      random_game(game, seed, 400, [&](const State& s) {
        const std::string text = game.serialize(s);
        INFO(mode << ": " << text);
        const State t = game.deserialize(text);
        REQUIRE(game.serialize(t) == text);
        REQUIRE((t.end == s.end && t.reason == s.reason));
        REQUIRE(t.left_camp == s.left_camp);
        REQUIRE(game.current_player(t) == game.current_player(s));
        REQUIRE(legal_set(game, t) == legal_set(game, s));
        REQUIRE(tallies(game, t) == tallies(game, s));
        for (int player = 0; player < game.info().num_players; ++player)
          REQUIRE(observe(game, t, player) == observe(game, s, player));
      });
  }
}

}  // namespace
}  // namespace knightgym
