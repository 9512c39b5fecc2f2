// Knights Double-Duel, one test per rule and per extension of the rules file
// (docs/rules/double_duel.md) and per decision the project fixed. Positions are built from
// text (DoubleDuel::deserialize); every expected option set and resulting state below was
// reasoned out by hand from the rules, the comment next to it says why.
#include <algorithm>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "env/games/double_duel/double_duel.h"
#include "tests/cpp/env/games/game_test_helpers.h"

namespace knightgym {
namespace {

using namespace testing;
using Catch::Contains;
using State = DoubleDuel::State;
using Params = DoubleDuel::Params;

constexpr int kArea = DoubleDuel::kNumFields;

// ---------------------------------------------------------------------------------------
// Positions.

std::string name_of(int field) {
  std::string out(1, static_cast<char>('a' + field % 6));
  out += static_cast<char>('1' + field / 6);
  return out;
}

// Every field name but the listed ones, sorted.
Strings all_fields_except(const Strings& excluded) {
  Strings out;
  for (int field = 0; field < kArea; ++field)
    if (std::find(excluded.begin(), excluded.end(), name_of(field)) == excluded.end())
      out.push_back(name_of(field));
  return sorted(out);
}

// The 36-character board of the text form from pieces such as "Nb1 Dc1 pd5": the piece
// character (N/n knight, P/p one pawn, D/d two pawns, upper case White) and its field.
std::string board_text(std::string_view pieces) {
  std::string board(kArea, '.');
  std::istringstream in{std::string(pieces)};
  for (std::string item; in >> item;) {
    REQUIRE(item.size() == 3);
    const int field = (item[2] - '1') * 6 + (item[1] - 'a');
    REQUIRE(field >= 0);
    REQUIRE(field < kArea);
    REQUIRE(board[field] == '.');
    board[field] = item[0];
  }
  return board;
}

int pawns_on(const std::string& board, bool white) {
  int count = 0;
  for (const char c : board) {
    if (c == (white ? 'P' : 'p')) count += 1;
    if (c == (white ? 'D' : 'd')) count += 2;
  }
  return count;
}

// The full text form of a position: the pieces, and key=value overrides of the defaults
// (White to decide its step 1 at turn 0, no rights). The reserves default to the pawns
// missing from the board.
std::string position(std::string_view pieces, std::string_view overrides = "") {
  const std::string board = board_text(pieces);
  std::vector<std::pair<std::string, std::string>> items = {
      {"board", board},
      {"reserve", std::to_string(8 - pawns_on(board, true)) + "," +
                      std::to_string(8 - pawns_on(board, false))},
      {"rights", "-,-"},
      {"turns", "0"},
      {"to_move", "0"},
      {"phase", "knight"},
      {"selected", "-"},
      {"vacated", "-"},
      {"free_step", "0"},
      {"free_moves", "0"},
      {"winner", "-"},
      {"end", "running"}};
  std::istringstream in{std::string(overrides)};
  for (std::string item; in >> item;) {
    const size_t eq = item.find('=');
    REQUIRE(eq != std::string::npos);
    const std::string key = item.substr(0, eq);
    auto found = std::find_if(items.begin(), items.end(),
                              [&](const auto& entry) { return entry.first == key; });
    REQUIRE(found != items.end());
    found->second = item.substr(eq + 1);
  }
  std::string out;
  for (const auto& [key, value] : items) {
    if (!out.empty()) out += ' ';
    out += key;
    out += '=';
    out += value;
  }
  return out;
}

State at(const DoubleDuel& game, std::string_view pieces, std::string_view overrides = "") {
  return game.deserialize(position(pieces, overrides));
}

// ---------------------------------------------------------------------------------------
// The text form and the parameters.

// The value of one key of the text form.
std::string value_of(const DoubleDuel& game, const State& s, std::string_view key) {
  const std::string text = game.serialize(s);
  std::string prefix(key);
  prefix += '=';
  size_t pos = 0;
  if (text.compare(0, prefix.size(), prefix) != 0) {
    std::string needle(1, ' ');
    needle += prefix;
    pos = text.find(needle);
    REQUIRE(pos != std::string::npos);
    ++pos;
  }
  const size_t end = std::min(text.find(' ', pos), text.size());
  return text.substr(pos + prefix.size(), end - pos - prefix.size());
}

Params with(bool neighbor_attack, bool switch_move, bool single_pawn_blocks,
            bool double_free_pawn_moves, int max_turns = 200) {
  Params params;
  params.neighbor_attack = neighbor_attack;
  params.switch_move = switch_move;
  params.single_pawn_blocks = single_pawn_blocks;
  params.double_free_pawn_moves = double_free_pawn_moves;
  params.max_turns = max_turns;
  return params;
}

const Params kPlain = with(false, false, false, false);
const Params kNeighborAttack = with(true, false, false, false);
const Params kSwitchMove = with(false, true, false, false);
const Params kSinglePawnBlocks = with(false, false, true, false);
const Params kDoubleFree = with(false, false, false, true);

// ---------------------------------------------------------------------------------------
// Observations.

// The fields (observer's frame names) where a plane holds 1; every other entry must be 0.
Strings ones(const std::vector<float>& obs, int plane) {
  Strings out;
  for (int field = 0; field < kArea; ++field) {
    const float v = obs[static_cast<size_t>(plane * kArea + field)];
    INFO("plane " << plane << " field " << name_of(field));
    REQUIRE((v == 0.0f || v == 1.0f));
    if (v == 1.0f) out.push_back(name_of(field));
  }
  return sorted(out);
}

// The value of a constant plane (all its entries must agree).
float constant(const std::vector<float>& obs, int plane) {
  const float first = obs[static_cast<size_t>(plane * kArea)];
  for (int field = 1; field < kArea; ++field) {
    INFO("plane " << plane << " field " << name_of(field));
    REQUIRE(obs[static_cast<size_t>(plane * kArea + field)] == first);
  }
  return first;
}

int phase_plane(DoubleDuel::Phase phase) {
  return static_cast<int>(DoubleDuel::kPlanePhase) + static_cast<int>(phase);
}

constexpr std::string_view kBlackHome = "da6 nb6 dc6 dd6 ne6 df6";

std::string with_black_home(std::string_view white) {
  return std::string(white) + " " + std::string(kBlackHome);
}

// ---------------------------------------------------------------------------------------
// The start and the decision sequence.

TEST_CASE("double_duel: start position and the first decisions", "[double_duel]") {
  const DoubleDuel game(kPlain);
  State s = new_state(game);
  REQUIRE(game.serialize(s) == position("Da1 Nb1 Dc1 Dd1 Ne1 Df1 da6 nb6 dc6 dd6 ne6 df6"));
  REQUIRE(game.current_player(s) == 0);
  REQUIRE_FALSE(game.terminal(s));

  // Step 1: both knights can leap (b1: a3 c3 d2; e1: c2 d3 f3).
  REQUIRE(legal_names(game, s) == Strings{"b1", "e1"});
  uint8_t mask[DoubleDuel::kNumActions];
  game.legal_mask(s, mask);
  for (int a = 0; a < DoubleDuel::kNumActions; ++a) REQUIRE(mask[a] == (a == 1 || a == 4));

  play(game, s, {"b1"});
  REQUIRE(legal_names(game, s) == Strings{"a3", "c3", "d2"});
  play(game, s, {"c3"});
  // Step 2: no reserve, four fields of two pawns (priority b).
  REQUIRE(legal_names(game, s) == Strings{"a1", "c1", "d1", "f1"});
  play(game, s, {"a1"});
  REQUIRE(game.serialize(s) == position("Pa1 Pb1 Dc1 Dd1 Ne1 Df1 Nc3 " + std::string(kBlackHome),
                                        "phase=free_pawn vacated=b1 free_step=1"));
  // Step 3: every pawn but the one just put on b1.
  REQUIRE(legal_names(game, s) == Strings{"a1", "c1", "d1", "f1"});
  play(game, s, {"d1", "d2"});
  REQUIRE(
      game.serialize(s) ==
      position("Pa1 Pb1 Dc1 Pd1 Ne1 Df1 Pd2 Nc3 " + std::string(kBlackHome), "turns=1 to_move=1"));

  // Black decides in its own frame: b6 and e6 are actions 1 and 4.
  REQUIRE(game.current_player(s) == 1);
  REQUIRE(legal_names(game, s) == Strings{"b6", "e6"});
  Action actions[DoubleDuel::kMaxActions];
  REQUIRE(game.legal_actions(s, actions) == 2);
  REQUIRE(actions[0] == 1);
  REQUIRE(actions[1] == 4);
  play(game, s, {"b6"});
  REQUIRE(legal_names(game, s) == Strings{"a4", "c4", "d5"});
}

TEST_CASE("double_duel: knight leaps land on empty fields, enemy knights and single pawns",
          "[double_duel]") {
  const DoubleDuel game(kPlain);
  // c3 leaps to a2 (empty), a4 (own pawn), b1 (empty), b5 (enemy knight), d1 (one enemy
  // pawn), d5 (two enemy pawns), e2 (two own pawns), e4 (empty). The knight on a1 leaps only
  // onto own pieces (b3, c2), so it is not offered.
  const State s = at(game, "Na1 Nc3 Pb3 Dc2 Pa4 De2 nb5 ne6 pd1 dd5");
  REQUIRE(legal_names(game, s) == Strings{"c3"});
  State t = s;
  play(game, t, {"c3"});
  REQUIRE(legal_names(game, t) == Strings{"a2", "b1", "b5", "d1", "e4"});
  REQUIRE(game.knight_targets(s, 0, 0) == 0);
}

TEST_CASE("double_duel: capturing a single pawn sends it to the reserve and skips step 3",
          "[double_duel]") {
  const DoubleDuel game(kPlain);
  // Black has all 8 pawns on the board; d1 holds one of them.
  State s = at(game, "Nc3 Nf1 Da1 Dc1 De1 Df2 pd1 da6 nb6 dc6 dd6 ne6 pf6");
  play(game, s, {"c3", "d1"});
  REQUIRE(value_of(game, s, "reserve") == "0,1");
  // Step 2 from the fields of two pawns.
  REQUIRE(legal_names(game, s) == Strings{"a1", "c1", "e1", "f2"});
  play(game, s, {"a1"});
  // No step 3: Black moves next.
  REQUIRE(game.serialize(s) == position("Nd1 Nf1 Pa1 Dc1 De1 Df2 Pc3 da6 nb6 dc6 dd6 ne6 pf6",
                                        "reserve=0,1 turns=1 to_move=1"));
}

TEST_CASE("double_duel: step 2 takes a reserve pawn first", "[double_duel]") {
  const DoubleDuel game(kPlain);
  // White captures the pawn on d1; Black then has one pawn in reserve and fields of two
  // pawns (a6, c6, d6) and must re-enter the reserve pawn.
  State s = at(game, "Nc3 Nf1 Da1 Dc1 De1 Df2 pd1 da6 nb6 dc6 dd6 ne6 pf6");
  play(game, s, {"c3", "d1", "a1"});
  play(game, s, {"b6", "c4"});
  REQUIRE(legal_names(game, s) == Strings{"reserve"});
  play(game, s, {"reserve"});
  REQUIRE(value_of(game, s, "reserve") == "0,0");
  REQUIRE(value_of(game, s, "board") ==
          board_text("Nd1 Nf1 Pa1 Dc1 De1 Df2 Pc3 nc4 da6 pb6 dc6 dd6 ne6 pf6"));
  // b6 landed on an empty field, so step 3 follows, without the b6 pawn.
  REQUIRE(value_of(game, s, "phase") == "free_pawn");
  REQUIRE(legal_names(game, s) == Strings{"a6", "c6", "d6", "f6"});

  // White with two pawns in reserve and fields of two pawns likewise.
  State w = at(game, "Nb1 Da1 Dc1 Df1 nb6 ne6", "reserve=2,8");
  play(game, w, {"b1", "c3"});
  REQUIRE(legal_names(game, w) == Strings{"reserve"});
  play(game, w, {"reserve"});
  REQUIRE(game.serialize(w) == position("Pb1 Da1 Dc1 Df1 Nc3 nb6 ne6",
                                        "reserve=1,8 phase=free_pawn vacated=b1 "
                                        "free_step=1"));
}

TEST_CASE("double_duel: step 2 prefers fields of two pawns over single pawns", "[double_duel]") {
  const DoubleDuel game(kPlain);
  // Priority b: a1 and f1 hold two pawns, c2 d2 e2 b3 one each.
  State s = at(game, "Da1 Ne1 Df1 Pc2 Pd2 Pe2 Pb3 nb6 ne6");
  play(game, s, {"e1", "d3"});
  REQUIRE(legal_names(game, s) == Strings{"a1", "f1"});
  play(game, s, {"f1"});
  REQUIRE(value_of(game, s, "board") == board_text("Da1 Pe1 Pf1 Pc2 Pd2 Pe2 Pb3 Nd3 nb6 ne6"));

  // Priority c: no reserve and no field of two pawns, so any single pawn.
  State c = at(game, "Pa1 Nb1 Pc1 Pd1 Pf1 Pa2 Pb2 Pc2 Pe2 nb6 ne6");
  play(game, c, {"b1", "a3"});
  REQUIRE(legal_names(game, c) == Strings{"a1", "a2", "b2", "c1", "c2", "d1", "e2", "f1"});
  play(game, c, {"e2"});
  REQUIRE(value_of(game, c, "board") == board_text("Pa1 Pb1 Pc1 Pd1 Pf1 Pa2 Pb2 Pc2 Na3 nb6 ne6"));
}

TEST_CASE("double_duel: step 3 follows a leap onto an empty field", "[double_duel]") {
  const DoubleDuel game(kPlain);
  State s = new_state(game);
  play(game, s, {"e1", "f3", "c1"});
  REQUIRE(value_of(game, s, "phase") == "free_pawn");
  REQUIRE(value_of(game, s, "free_step") == "1");
  REQUIRE(legal_names(game, s) == Strings{"a1", "c1", "d1", "f1"});
  play(game, s, {"a1", "a5"});
  REQUIRE(
      game.serialize(s) ==
      position("Pa1 Nb1 Pc1 Dd1 Pe1 Df1 Nf3 Pa5 " + std::string(kBlackHome), "turns=1 to_move=1"));
}

TEST_CASE("double_duel: step 3 follows the capture of a knight", "[double_duel]") {
  const DoubleDuel game(kPlain);
  State s = at(game, "Da1 Dc1 Dd1 Df1 Nc3 nb5 ne6 dd6", "reserve=0,6");
  play(game, s, {"c3", "b5"});
  REQUIRE(value_of(game, s, "board") == board_text("Da1 Dc1 Dd1 Df1 Nb5 ne6 dd6"));
  REQUIRE(value_of(game, s, "reserve") == "0,6");  // a knight does not go to the reserve
  play(game, s, {"d1"});
  REQUIRE(value_of(game, s, "phase") == "free_pawn");
  REQUIRE(legal_names(game, s) == Strings{"a1", "c1", "d1", "f1"});
  play(game, s, {"f1", "f4"});
  REQUIRE(game.serialize(s) ==
          position("Da1 Dc1 Pd1 Pf1 Pc3 Pf4 Nb5 ne6 dd6", "reserve=0,6 turns=1 to_move=1"));
}

TEST_CASE("double_duel: the step-2 pawn cannot move in step 3", "[double_duel]") {
  const DoubleDuel game(kPlain);
  // The reserve pawn goes to b1; only the a1 pawn may move in step 3.
  State s = at(game, "Pa1 Nb1 nb6 ne6");
  play(game, s, {"b1", "c3", "reserve"});
  REQUIRE(legal_names(game, s) == Strings{"a1"});

  // A vacated field holding the step-2 pawn and another pawn gives the other one.
  State two = at(game, "Db1 Nc3 nb6 ne6", "phase=free_pawn vacated=b1 free_step=1");
  REQUIRE(legal_names(game, two) == Strings{"b1"});
  play(game, two, {"b1", "b2"});
  REQUIRE(game.serialize(two) == position("Pb1 Pb2 Nc3 nb6 ne6", "turns=1 to_move=1"));
}

TEST_CASE("double_duel: step 3 destinations are empty fields or one own pawn", "[double_duel]") {
  const DoubleDuel game(kPlain);
  State s = at(game, "Da1 Nb1 Dc1 Pd1 Ne1 Pf1 Pa2 pa4 pc5 dd5 nb6 dc6 dd6 ne6");
  play(game, s, {"b1", "c3", "reserve"});
  REQUIRE(legal_names(game, s) == Strings{"a1", "a2", "c1", "d1", "f1"});
  play(game, s, {"c1"});
  // Not: c1 itself, a1 (two own pawns), the knights e1 c3 b6 e6, the enemy pawns a4 (one),
  // c5 (one), d5 c6 d6 (two). The vacated b1 (the step-2 pawn) and the single pawns d1 f1
  // a2 may take it.
  REQUIRE(legal_names(game, s) ==
          all_fields_except({"c1", "a1", "e1", "c3", "b6", "e6", "a4", "c5", "d5", "c6", "d6"}));
  play(game, s, {"b1"});
  REQUIRE(game.serialize(s) ==
          position("Da1 Db1 Pc1 Pd1 Ne1 Pf1 Pa2 Nc3 pa4 pc5 dd5 nb6 dc6 dd6 ne6",
                   "reserve=0,0 turns=1 to_move=1"));
}

TEST_CASE("double_duel: step 3 is skipped when no pawn can move", "[double_duel]") {
  // All White pawns are in reserve: after step 2 the only pawn on the board is the step-2
  // pawn. With double_free_pawn_moves there is no lone `stop` either.
  for (const Params& params : {kPlain, kDoubleFree}) {
    const DoubleDuel game(params);
    State s = at(game, "Nb1 nb6 ne6");
    play(game, s, {"b1", "c3", "reserve"});
    REQUIRE(game.serialize(s) == position("Pb1 Nc3 nb6 ne6", "reserve=7,8 turns=1 to_move=1"));
    REQUIRE(legal_names(game, s) == Strings{"b6", "e6"});
  }
}

// ---------------------------------------------------------------------------------------
// The end of the game.

TEST_CASE("double_duel: a player without a knight loses", "[double_duel]") {
  const DoubleDuel game(kPlain);
  State s = at(game, "Da1 Dc1 Dd1 Df1 ne6", "to_move=1");
  REQUIRE_FALSE(game.terminal(s));
  play(game, s, {"e6", "d4", "reserve"});
  REQUIRE(game.terminal(s));
  REQUIRE_FALSE(game.truncated(s));
  REQUIRE(game.current_player(s) == kTerminalPlayer);
  REQUIRE(legal_names(game, s).empty());
  REQUIRE(game.serialize(s) == position("Da1 Dc1 Dd1 Df1 nd4 pe6", "turns=1 winner=1 end=rules"));
  REQUIRE(returns(game, s) == std::vector<float>{-1.0f, 1.0f});
}

TEST_CASE("double_duel: a player whose knights cannot leap loses; a switch saves it",
          "[double_duel]") {
  // a1 leaps only to b3 (one own pawn) and c2 (two own pawns), f1 only to d2 (one own pawn)
  // and e3 (two own pawns).
  const std::string pieces = "Na1 Nf1 Pb3 Dc2 Pd2 De3 ne6";
  {
    const DoubleDuel game(kPlain);
    State s = at(game, pieces, "to_move=1");
    play(game, s, {"e6", "d4", "reserve"});
    REQUIRE(game.terminal(s));
    REQUIRE(game.serialize(s) ==
            position("Na1 Nf1 Pb3 Dc2 Pd2 De3 nd4 pe6", "turns=1 winner=1 end=rules"));
    REQUIRE(returns(game, s) == std::vector<float>{-1.0f, 1.0f});
  }
  {
    const DoubleDuel game(kSwitchMove);
    State s = at(game, pieces, "to_move=1");
    play(game, s, {"e6", "d4", "reserve"});
    REQUIRE_FALSE(game.terminal(s));
    REQUIRE(game.current_player(s) == 0);
    REQUIRE(legal_names(game, s) == Strings{"a1", "f1"});
    play(game, s, {"a1"});
    REQUIRE(legal_names(game, s) == Strings{"c2"});
  }
}

TEST_CASE("double_duel: capturing the last enemy knight completes the turn, then it wins",
          "[double_duel]") {
  const DoubleDuel game(kPlain);
  State s = at(game, "Da1 Dc1 Dd1 Df1 Nc3 nb5");
  play(game, s, {"c3", "b5"});
  // The turn goes on: step 2, then step 3 (a knight was captured).
  REQUIRE_FALSE(game.terminal(s));
  REQUIRE(game.current_player(s) == 0);
  REQUIRE(legal_names(game, s) == Strings{"a1", "c1", "d1", "f1"});
  play(game, s, {"d1"});
  REQUIRE_FALSE(game.terminal(s));
  REQUIRE(legal_names(game, s) == Strings{"a1", "c1", "d1", "f1"});
  play(game, s, {"a1", "a2"});
  REQUIRE(game.terminal(s));
  REQUIRE_FALSE(game.truncated(s));
  REQUIRE(game.serialize(s) ==
          position("Pa1 Dc1 Pd1 Df1 Pa2 Pc3 Nb5", "turns=1 to_move=1 winner=0 end=rules"));
  REQUIRE(returns(game, s) == std::vector<float>{1.0f, -1.0f});
}

TEST_CASE("double_duel: max_turns truncates as a draw", "[double_duel]") {
  const DoubleDuel game(with(false, false, false, false, 2));
  State s = new_state(game);
  play(game, s, {"b1", "c3", "a1", "d1", "d2"});
  REQUIRE_FALSE(game.terminal(s));
  play(game, s, {"b6", "c4", "a6", "d6", "d5"});
  REQUIRE(game.terminal(s));
  REQUIRE(game.truncated(s));
  REQUIRE(game.current_player(s) == kTerminalPlayer);
  REQUIRE(legal_names(game, s).empty());
  REQUIRE(game.serialize(s) ==
          position("Pa1 Pb1 Dc1 Pd1 Ne1 Df1 Pd2 Nc3 nc4 pd5 pa6 pb6 dc6 pd6 ne6 df6",
                   "turns=2 end=truncated"));
  REQUIRE(returns(game, s) == std::vector<float>{0.0f, 0.0f});
}

TEST_CASE("double_duel: a natural loss on the cap turn is a win, not a truncation",
          "[double_duel]") {
  const DoubleDuel game(with(false, false, false, false, 1));
  State s = at(game, "Da1 Dc1 Dd1 Df1 Nc3 nb5");
  play(game, s, {"c3", "b5", "d1", "a1", "a2"});
  REQUIRE(game.terminal(s));
  REQUIRE_FALSE(game.truncated(s));
  REQUIRE(value_of(game, s, "winner") == "0");
  REQUIRE(value_of(game, s, "end") == "rules");
  REQUIRE(returns(game, s) == std::vector<float>{1.0f, -1.0f});

  // The same cap without a natural end: a draw.
  State d = at(game, "Da1 Dc1 Dd1 Df1 Nc3 nb5 ne6");
  play(game, d, {"c3", "b5", "d1", "a1", "a2"});
  REQUIRE(game.terminal(d));
  REQUIRE(game.truncated(d));
  REQUIRE(returns(game, d) == std::vector<float>{0.0f, 0.0f});
}

// ---------------------------------------------------------------------------------------
// Extension 1: neighbor_attack.

TEST_CASE("double_duel: neighbor_attack right on a knight that stayed; steps 2 and 3 follow",
          "[double_duel]") {
  const DoubleDuel game(kNeighborAttack);
  State s = at(game, "Pa1 Nb1 nb4 nd4");
  play(game, s, {"b1"});
  REQUIRE(legal_names(game, s) == Strings{"a3", "c3", "d2"});
  // c3 is next to both b4 and d4: one move, rights against both.
  play(game, s, {"c3", "reserve", "a1", "a2"});
  REQUIRE(game.serialize(s) ==
          position("Pb1 Pa2 Nc3 nb4 nd4", "rights=c3:b4d4,- turns=1 to_move=1"));
  // Black moves b4 to d3, again next to c3 (Black now holds a right against c3).
  play(game, s, {"b4", "d3", "reserve"});
  REQUIRE(game.serialize(s) == position("Pb1 Pa2 Nc3 nd3 pb4 nd4", "rights=c3:b4d4,d3:c3 turns=2"));
  // The leaps a4 b5 d1 d5 e2 e4, and the step onto d4, which stayed; not d3 (it moved).
  play(game, s, {"c3"});
  REQUIRE(legal_names(game, s) == Strings{"a4", "b5", "d1", "d4", "d5", "e2", "e4"});
  play(game, s, {"d4"});
  REQUIRE(value_of(game, s, "board") == board_text("Pb1 Pa2 nd3 pb4 Nd4"));
  // Step 2, then step 3 (a knight was captured).
  REQUIRE(legal_names(game, s) == Strings{"reserve"});
  play(game, s, {"reserve"});
  REQUIRE(value_of(game, s, "phase") == "free_pawn");
  REQUIRE(legal_names(game, s) == Strings{"a2", "b1"});
  play(game, s, {"b1", "b2"});
  REQUIRE(value_of(game, s, "board") == board_text("Pa2 Pb2 Pc3 nd3 pb4 Nd4"));
  // The attack is a step 1 like any other: it made a right against d3.
  REQUIRE(value_of(game, s, "rights").substr(0, 6) == "d4:d3,");
  REQUIRE(value_of(game, s, "to_move") == "1");
  // Black's right was against c3, which has left: d3 may leap (b2 holds one White pawn) but
  // not step onto d4 or c3.
  play(game, s, {"d3"});
  REQUIRE(legal_names(game, s) == Strings{"b2", "c1", "c5", "e1", "e5", "f2", "f4"});
}

TEST_CASE("double_duel: neighbor_attack is not offered without the extension", "[double_duel]") {
  const DoubleDuel game(kPlain);
  State s = at(game, "Pa1 Nb1 nb4 nd4");
  play(game, s, {"b1", "c3", "reserve", "a1", "a2"});
  REQUIRE(value_of(game, s, "rights") == "-,-");
  play(game, s, {"b4", "d3", "reserve"});
  REQUIRE(value_of(game, s, "rights") == "-,-");
  play(game, s, {"c3"});
  REQUIRE(legal_names(game, s) == Strings{"a4", "b5", "d1", "d5", "e2", "e4"});
}

TEST_CASE("double_duel: neighbor_attack right lapses after the player's next turn",
          "[double_duel]") {
  const DoubleDuel game(kNeighborAttack);
  State s = at(game, "Nb1 Nf1 nd4 nf6");
  play(game, s, {"b1", "c3", "reserve"});
  REQUIRE(value_of(game, s, "rights") == "c3:d4,-");
  play(game, s, {"f6", "e4", "reserve"});
  // In the very next turn the right is there ...
  State used = s;
  play(game, used, {"c3"});
  REQUIRE(legal_names(game, used) == Strings{"a2", "a4", "b5", "d1", "d4", "d5", "e2", "e4"});
  // ... but White moves the other knight, next to no enemy knight: the newest step 1
  // replaces the rights.
  play(game, s, {"f1", "d2", "reserve", "b1", "b2"});
  REQUIRE(game.serialize(s) ==
          position("Pf1 Pb2 Nd2 Nc3 nd4 ne4 pf6", "reserve=6,7 turns=3 to_move=1"));
  play(game, s, {"e4", "c5", "reserve", "f6", "f5"});
  REQUIRE(value_of(game, s, "board") == board_text("Pf1 Pb2 Nd2 Nc3 nd4 pe4 nc5 pf5"));
  // d4 never moved, yet the right is gone.
  play(game, s, {"c3"});
  REQUIRE(legal_names(game, s) == Strings{"a2", "a4", "b1", "b5", "d1", "d5", "e2", "e4"});
}

TEST_CASE("double_duel: neighbor_attack right lapses when the attacking knight is captured",
          "[double_duel]") {
  const DoubleDuel game(kNeighborAttack);
  State s = at(game, "Nb1 Nf1 na4 nd4");
  play(game, s, {"b1", "c3", "reserve"});
  REQUIRE(value_of(game, s, "rights") == "c3:d4,-");
  play(game, s, {"a4"});
  REQUIRE(legal_names(game, s) == Strings{"b2", "b6", "c3", "c5"});
  play(game, s, {"c3", "reserve"});
  REQUIRE(value_of(game, s, "board") == board_text("Pb1 Nf1 nc3 pa4 nd4"));
  REQUIRE(value_of(game, s, "to_move") == "0");
  // Only f1 is left, with its leaps d2 and e3; nothing reaches d4.
  REQUIRE(legal_names(game, s) == Strings{"f1"});
  play(game, s, {"f1"});
  REQUIRE(legal_names(game, s) == Strings{"d2", "e3"});
}

TEST_CASE("double_duel: neighbor_attack right lapses when the enemy knight moves",
          "[double_duel]") {
  const DoubleDuel game(kNeighborAttack);
  State s = at(game, "Nb1 nd4 nf6");
  play(game, s, {"b1", "c3", "reserve"});
  REQUIRE(value_of(game, s, "rights") == "c3:d4,-");
  // d4 leaps to b3, still next to c3.
  play(game, s, {"d4", "b3", "reserve"});
  REQUIRE(value_of(game, s, "board") == board_text("Pb1 nb3 Nc3 pd4 nf6"));
  play(game, s, {"c3"});
  REQUIRE(legal_names(game, s) == Strings{"a2", "a4", "b5", "d1", "d5", "e2", "e4"});
}

TEST_CASE("double_duel: a switch creates neighbor_attack rights", "[double_duel]") {
  const DoubleDuel game(with(true, true, false, false));
  State s = at(game, "Nb1 Dc3 nd4 nf6", "reserve=6,8");
  play(game, s, {"b1", "c3"});
  REQUIRE(game.serialize(s) ==
          position("Pb1 Nc3 nd4 nf6", "reserve=7,8 rights=c3:d4,- turns=1 to_move=1"));
  play(game, s, {"f6", "e4", "reserve"});
  play(game, s, {"c3"});
  REQUIRE(legal_names(game, s) == Strings{"a2", "a4", "b5", "d1", "d4", "d5", "e2", "e4"});
}

// ---------------------------------------------------------------------------------------
// Extension 2: switch_move.

TEST_CASE("double_duel: switch_move", "[double_duel]") {
  const std::string pieces = "Da1 Nb1 Dd1 Df1 Dc3 nb6 ne6";
  {
    const DoubleDuel game(kSwitchMove);
    State s = at(game, pieces);
    play(game, s, {"b1"});
    REQUIRE(legal_names(game, s) == Strings{"a3", "c3", "d2"});
    play(game, s, {"c3"});
    // One pawn to b1, one to the reserve; no step 2 or 3: Black moves.
    REQUIRE(game.serialize(s) ==
            position("Da1 Pb1 Dd1 Df1 Nc3 nb6 ne6", "reserve=1,8 turns=1 to_move=1"));
    REQUIRE(legal_names(game, s) == Strings{"b6", "e6"});
  }
  {
    const DoubleDuel game(kPlain);
    State s = at(game, pieces);
    play(game, s, {"b1"});
    REQUIRE(legal_names(game, s) == Strings{"a3", "d2"});
  }
}

// ---------------------------------------------------------------------------------------
// Extension 3: single_pawn_blocks.

TEST_CASE("double_duel: single_pawn_blocks closes single enemy pawns, not knights",
          "[double_duel]") {
  // c3 leaps to a2 a4 d1 (one Black pawn each), b5 (Black knight), d5 (two Black pawns),
  // b1 e2 e4 (empty).
  const std::string pieces = "Nc3 pa2 pa4 nb5 pd1 dd5 ne6";
  {
    const DoubleDuel game(kSinglePawnBlocks);
    State s = at(game, pieces);
    play(game, s, {"c3"});
    REQUIRE(legal_names(game, s) == Strings{"b1", "b5", "e2", "e4"});
    play(game, s, {"b5", "reserve"});
    REQUIRE(value_of(game, s, "board") == board_text("Pc3 pa2 pa4 Nb5 pd1 dd5 ne6"));
  }
  {
    const DoubleDuel game(kPlain);
    State s = at(game, pieces);
    play(game, s, {"c3"});
    REQUIRE(legal_names(game, s) == Strings{"a2", "a4", "b1", "b5", "d1", "e2", "e4"});
  }
  // A knight hemmed in by single enemy pawns (a1: b3, c2) has no step 1 with the extension.
  const std::string hemmed = "Na1 pb3 pc2 pf5 ne6";
  {
    const DoubleDuel game(kSinglePawnBlocks);
    State s = at(game, hemmed, "to_move=1");
    play(game, s, {"e6", "d4", "reserve"});
    REQUIRE(legal_names(game, s) == Strings{"b3", "c2", "f5"});
    play(game, s, {"f5", "f4"});
    REQUIRE(game.terminal(s));
    REQUIRE(value_of(game, s, "winner") == "1");
  }
  {
    const DoubleDuel game(kPlain);
    State s = at(game, hemmed, "to_move=1");
    play(game, s, {"e6", "d4", "reserve", "f5", "f4"});
    REQUIRE_FALSE(game.terminal(s));
    play(game, s, {"a1"});
    REQUIRE(legal_names(game, s) == Strings{"b3", "c2"});
  }
}

// ---------------------------------------------------------------------------------------
// Extension 4: double_free_pawn_moves.

TEST_CASE("double_duel: double_free_pawn_moves offers a second step 3 or stop", "[double_duel]") {
  const DoubleDuel game(kDoubleFree);
  State s = new_state(game);
  play(game, s, {"b1", "c3", "a1", "d1", "d2"});
  REQUIRE(value_of(game, s, "phase") == "second_free_pawn");
  REQUIRE(value_of(game, s, "to_move") == "0");
  // Not b1 (the step-2 pawn); d2 (the first step-3 pawn) may move again.
  REQUIRE(legal_names(game, s) == Strings{"a1", "c1", "d1", "d2", "f1", "stop"});

  SECTION("a second step 3") {
    play(game, s, {"d2", "d3"});
    REQUIRE(game.serialize(s) ==
            position("Pa1 Pb1 Dc1 Pd1 Ne1 Df1 Nc3 Pd3 " + std::string(kBlackHome),
                     "turns=1 to_move=1"));
  }
  SECTION("stop ends the turn") {
    play(game, s, {"stop"});
    REQUIRE(game.serialize(s) ==
            position("Pa1 Pb1 Dc1 Pd1 Ne1 Df1 Pd2 Nc3 " + std::string(kBlackHome),
                     "turns=1 to_move=1"));
  }
}

TEST_CASE("double_duel: double_free_pawn_moves lets the vacated field give its other pawn",
          "[double_duel]") {
  const DoubleDuel game(kDoubleFree);
  State s = new_state(game);
  // The first step 3 brings the a1 pawn to b1, beside the step-2 pawn.
  play(game, s, {"b1", "c3", "a1", "a1", "b1"});
  REQUIRE(value_of(game, s, "board") == board_text(with_black_home("Db1 Dc1 Dd1 Ne1 Df1 Nc3")));
  REQUIRE(legal_names(game, s) == Strings{"b1", "c1", "d1", "f1", "stop"});
  play(game, s, {"b1", "b2"});
  REQUIRE(game.serialize(s) ==
          position(with_black_home("Pb1 Dc1 Dd1 Ne1 Df1 Pb2 Nc3"), "turns=1 to_move=1"));
}

TEST_CASE("double_duel: no second step 3 without double_free_pawn_moves", "[double_duel]") {
  const DoubleDuel game(kPlain);
  State s = new_state(game);
  play(game, s, {"b1", "c3", "a1", "d1", "d2"});
  REQUIRE(game.serialize(s) ==
          position(with_black_home("Pa1 Pb1 Dc1 Pd1 Ne1 Df1 Pd2 Nc3"), "turns=1 to_move=1"));
  REQUIRE(legal_names(game, s) == Strings{"b6", "e6"});
}

// ---------------------------------------------------------------------------------------
// Text forms and observations.

TEST_CASE("double_duel: serialize and deserialize round trip", "[double_duel]") {
  const DoubleDuel game(with(true, true, false, true));
  State s = new_state(game);
  REQUIRE(game.serialize(s) ==
          "board=DNDDND........................dnddnd reserve=0,0 rights=-,- turns=0 to_move=0 "
          "phase=knight selected=- vacated=- free_step=0 free_moves=0 winner=- "
          "end=running");
  // Every state along a few turns survives the round trip, with the same decisions.
  for (const std::string_view decision : {"b1", "c3", "a1", "d1", "d2", "d2", "e2", "e6", "d4",
                                          "c6", "f6", "f5", "stop", "e1", "d3", "c1"}) {
    const std::string text = game.serialize(s);
    const State back = game.deserialize(text);
    REQUIRE(game.serialize(back) == text);
    REQUIRE(legal_names(game, back) == legal_names(game, s));
    play(game, s, {decision});
  }
  // White's e1 knight went to d3, next to d4 (a right); Black's d4 holds one against c3.
  REQUIRE(game.serialize(s) ==
          "board="
          "PPPPPD"
          "....P."
          "..NN.."
          "...n.."
          ".....p"
          "dnpdpp"
          " reserve=0,0 rights=d3:d4,d4:c3 turns=2 to_move=0 phase=free_pawn selected=- "
          "vacated=e1 free_step=1 free_moves=0 winner=- end=running");
  const std::string text = game.serialize(s);
  REQUIRE(game.serialize(game.deserialize(text)) == text);
}

TEST_CASE("double_duel: deserialize names the problem", "[double_duel]") {
  const DoubleDuel game(kPlain);
  const std::string good = position(with_black_home("Da1 Nb1 Dc1 Dd1 Ne1 Df1"));
  REQUIRE_NOTHROW(game.deserialize(good));

  std::string bad_char = good;
  bad_char[std::string("board=").size() + 10] = 'x';
  REQUIRE_THROWS_AS(game.deserialize(bad_char), std::invalid_argument);
  REQUIRE_THROWS_WITH(game.deserialize(bad_char), Contains("board character 'x'"));

  const std::string seven = position(with_black_home("Da1 Nb1 Dc1 Dd1 Ne1 Pf1"), "reserve=0,0");
  REQUIRE_THROWS_AS(game.deserialize(seven), std::invalid_argument);
  REQUIRE_THROWS_WITH(game.deserialize(seven), Contains("White has 7 pawns on the board"));
  REQUIRE_THROWS_WITH(game.deserialize(seven), Contains("must make 8"));
  const std::string nine = position(with_black_home("Da1 Nb1 Dc1 Dd1 Ne1 Df1"), "reserve=0,1");
  REQUIRE_THROWS_WITH(game.deserialize(nine), Contains("Black has 8 pawns on the board and 1"));

  const std::string phase = position(with_black_home("Da1 Nb1 Dc1 Dd1 Ne1 Df1"), "phase=dance");
  REQUIRE_THROWS_AS(game.deserialize(phase), std::invalid_argument);
  REQUIRE_THROWS_WITH(game.deserialize(phase), Contains("phase 'dance' is unknown"));

  // A pawn's destination with no pawn of the mover on the selected field (found by the
  // state fuzzer: playing on from it made a ninth pawn).
  const std::string no_pawn = position(with_black_home("Da1 Nb1 Dc1 Dd1 Ne1 Df1"),
                                       "phase=free_target selected=d3 vacated=b1");
  REQUIRE_THROWS_WITH(game.deserialize(no_pawn),
                      Contains("the selected field holds no pawn of the mover that may move"));
}

TEST_CASE("double_duel: string_to_action reads fields, reserve and stop, and rejects junk",
          "[double_duel]") {
  const DoubleDuel game(kPlain);
  State s = new_state(game);
  REQUIRE(game.string_to_action(s, "a1") == 0);
  REQUIRE(game.string_to_action(s, "f6") == 35);
  REQUIRE(game.string_to_action(s, "reserve") == DoubleDuel::kReserve);
  REQUIRE(game.string_to_action(s, "stop") == DoubleDuel::kStop);
  REQUIRE(game.action_to_string(s, DoubleDuel::kReserve) == "reserve");
  REQUIRE(game.action_to_string(s, DoubleDuel::kStop) == "stop");
  for (const std::string_view junk :
       {"", "a", "g1", "a7", "a0", "a01", "A1", "b1 ", "1a", "reserves", "Stop", "pass"})
    REQUIRE_THROWS_AS(game.string_to_action(s, junk), std::invalid_argument);
  // Black's actions are in its mirrored frame; the strings stay absolute.
  play(game, s, {"b1", "c3", "a1", "d1", "d2"});
  REQUIRE(game.string_to_action(s, "b6") == 1);
  REQUIRE(game.string_to_action(s, "a1") == 30);
  for (int a = 0; a < DoubleDuel::kNumActions; ++a)
    REQUIRE(game.string_to_action(s, game.action_to_string(s, a)) == a);
}

TEST_CASE("double_duel: observation is from the observer's side", "[double_duel]") {
  const DoubleDuel game(with(true, false, true, false));
  // Black to decide where its e5 pawn goes (step 3, after b6-c4 and a fill onto b6) ...
  const State black = at(game, "Nb3 Ne3 Dc1 Pd2 nc4 ne6 pb6 dd6 pe5",
                         "to_move=1 phase=free_target selected=e5 vacated=b6 free_step=1 "
                         "turns=5 rights=-,c4:b3");
  // ... and the same position with the colours swapped and the ranks mirrored.
  const State white = at(game, "Nc3 Ne1 Pb1 Dd1 Pe2 nb4 ne4 dc6 pd5",
                         "to_move=0 phase=free_target selected=e2 vacated=b1 free_step=1 "
                         "turns=5 rights=c3:b4,-");
  REQUIRE(value_of(game, black, "reserve") == "5,4");
  REQUIRE(value_of(game, white, "reserve") == "4,5");
  const std::vector<float> obs = observe(game, black, 1);
  REQUIRE(obs == observe(game, white, 0));
  REQUIRE(observe(game, black, 0) == observe(game, white, 1));

  // Black's view, ranks flipped: its c4 knight is at c3, its e6 knight at e1.
  REQUIRE(ones(obs, DoubleDuel::kPlaneOwnKnights) == Strings{"c3", "e1"});
  REQUIRE(ones(obs, DoubleDuel::kPlaneOwnSinglePawns) == Strings{"b1", "e2"});
  REQUIRE(ones(obs, DoubleDuel::kPlaneOwnDoublePawns) == Strings{"d1"});
  REQUIRE(ones(obs, DoubleDuel::kPlaneOpponentKnights) == Strings{"b4", "e4"});
  REQUIRE(ones(obs, DoubleDuel::kPlaneOpponentSinglePawns) == Strings{"d5"});
  REQUIRE(ones(obs, DoubleDuel::kPlaneOpponentDoublePawns) == Strings{"c6"});
  REQUIRE(constant(obs, DoubleDuel::kPlaneOwnReserve) == 0.5f);
  REQUIRE(constant(obs, DoubleDuel::kPlaneOpponentReserve) == 0.625f);
  for (int phase = 0; phase < DoubleDuel::kNumPhases; ++phase)
    REQUIRE(constant(obs, phase_plane(static_cast<DoubleDuel::Phase>(phase))) ==
            (phase == DoubleDuel::kFreeTarget ? 1.0f : 0.0f));
  REQUIRE(ones(obs, DoubleDuel::kPlaneSelected) == Strings{"e2"});
  REQUIRE(ones(obs, DoubleDuel::kPlaneVacated) == Strings{"b1"});
  REQUIRE(constant(obs, DoubleDuel::kPlaneFreeStepFollows) == 1.0f);
  REQUIRE(constant(obs, DoubleDuel::kPlaneFreeMovesMade) == 0.0f);
  REQUIRE(ones(obs, DoubleDuel::kPlaneOwnAttackTargets) == Strings{"b4"});
  REQUIRE(ones(obs, DoubleDuel::kPlaneOwnAttacker) == Strings{"c3"});
  REQUIRE(ones(obs, DoubleDuel::kPlaneOpponentAttackTargets).empty());
  REQUIRE(ones(obs, DoubleDuel::kPlaneOpponentAttacker).empty());
  REQUIRE(constant(obs, DoubleDuel::kPlaneObserverToMove) == 1.0f);
  REQUIRE(constant(obs, DoubleDuel::kPlaneNeighborAttack) == 1.0f);
  REQUIRE(constant(obs, DoubleDuel::kPlaneSwitchMove) == 0.0f);
  REQUIRE(constant(obs, DoubleDuel::kPlaneSinglePawnBlocks) == 1.0f);
  REQUIRE(constant(obs, DoubleDuel::kPlaneDoubleFreePawnMoves) == 0.0f);
  REQUIRE(constant(obs, DoubleDuel::kPlaneProgress) == Approx(5.0 / 200.0));

  // White's view of the same position is unflipped.
  const std::vector<float> other = observe(game, black, 0);
  REQUIRE(ones(other, DoubleDuel::kPlaneOwnKnights) == Strings{"b3", "e3"});
  REQUIRE(ones(other, DoubleDuel::kPlaneOpponentKnights) == Strings{"c4", "e6"});
  REQUIRE(ones(other, DoubleDuel::kPlaneOpponentDoublePawns) == Strings{"d6"});
  REQUIRE(constant(other, DoubleDuel::kPlaneOwnReserve) == 0.625f);
  REQUIRE(constant(other, DoubleDuel::kPlaneOpponentReserve) == 0.5f);
  REQUIRE(ones(other, DoubleDuel::kPlaneOpponentAttackTargets) == Strings{"b3"});
  REQUIRE(ones(other, DoubleDuel::kPlaneOpponentAttacker) == Strings{"c4"});
  REQUIRE(constant(other, DoubleDuel::kPlaneObserverToMove) == 0.0f);

  // The flags follow the parameters.
  const DoubleDuel flipped(with(false, true, false, true));
  const std::vector<float> flags = observe(flipped, black, 1);
  REQUIRE(constant(flags, DoubleDuel::kPlaneNeighborAttack) == 0.0f);
  REQUIRE(constant(flags, DoubleDuel::kPlaneSwitchMove) == 1.0f);
  REQUIRE(constant(flags, DoubleDuel::kPlaneSinglePawnBlocks) == 0.0f);
  REQUIRE(constant(flags, DoubleDuel::kPlaneDoubleFreePawnMoves) == 1.0f);
}

}  // namespace
}  // namespace knightgym
