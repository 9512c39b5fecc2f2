#include "env/games/tailten/tailten.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>

#include "env/core/key_values.h"
#include "util/text.h"

namespace knightgym {
namespace {

using namespace tailten;
using Phase = Tailten::Phase;

constexpr char kPlayerLetters[2] = {'r', 'b'};
constexpr const char* kPlayerNames[2] = {"Red", "Blue"};
// The phase field of the text form: a running game's phase, else how it ended.
constexpr const char* kPhaseNames[] = {"opening", "battle", "last_turn"};
constexpr const char* kOverName = "over";
constexpr const char* kTruncatedName = "truncated";

Squares vacant(const Tailten::State& s) { return kHills & ~(s.forts[0] | s.forts[1]); }

}  // namespace

Tailten::Params Tailten::read_params(ParamReader& reader) {
  Params params;
  params.first_player =
      reader.get_int("first_player", 0, 0, 1, "the player who builds first: 0 Red, 1 Blue");
  params.ringforts = reader.get_int("ringforts", 30, 1, kNumHills, "each player's supply");
  params.max_turns = reader.get_int("max_turns", 200, 1, 10000, "turns before truncation");
  return params;
}

void Tailten::init(State& s, Rng&) const {
  s = State{};
  s.phase = Phase::kOpening;
  settle(s, params_.first_player);
}

Tailten::Squares Tailten::opening_builds(const State& s, int player) const {
  if (supply(s, player) == 0) return 0;
  const Squares own = s.forts[player];
  if (!own) return vacant(s);  // the first ringfort goes anywhere
  Squares leaps = 0, too_close = 0;
  for (Squares b = own; b; b &= b - 1) {
    const int square = std::countr_zero(b);
    leaps |= kLeapTargets[square];
    too_close |= kTooClose[square];
  }
  return vacant(s) & leaps & ~too_close;
}

Tailten::Squares Tailten::battle_turns(const State& s, int player, bool* capturing) const {
  *capturing = false;
  if (supply(s, player) == 0) return 0;  // a capture, too, puts a ringfort from the supply
  const Squares own = s.forts[player], enemy = s.forts[1 - player];
  // Isolated (no own neighbour) and besieged (no neighbour that is not the mover's).
  const Squares captures = enemy & ~adjacent_to(enemy) & ~adjacent_to(kHills & ~own);
  if (captures) {
    *capturing = true;
    return captures;
  }
  const Squares next_to_own = vacant(s) & adjacent_to(own);
  return next_to_own ? next_to_own : vacant(s);  // else afresh, anywhere
}

void Tailten::settle(State& s, int player) const {
  s.to_move = static_cast<uint8_t>(player);
  s.capturing = 0;
  if (s.phase == Phase::kOpening) {
    s.legal = opening_builds(s, player);
    if (s.legal) return;
    s.phase = Phase::kBattle;  // for both players, from this turn on
  }
  bool capturing = false;
  s.legal = battle_turns(s, player, &capturing);
  if (!s.legal) {  // out: the other player has one more turn, if it has one
    s.to_move = static_cast<uint8_t>(1 - player);
    s.legal = battle_turns(s, 1 - player, &capturing);
    if (s.legal)
      s.phase = Phase::kLastTurn;
    else
      s.end = End::kRules;
  }
  s.capturing = capturing;
}

void Tailten::apply(State& s, Action action) const {
  check_apply(*this, s, action);
  const int player = s.to_move;
  const Squares bit = square_bit(kSquareOfHill[action]);
  if (s.capturing) s.forts[1 - player] ^= bit;  // it goes back to its owner's supply
  s.forts[player] |= bit;
  ++s.turns;
  // After the last turn the game is over by the rules; else the next turn, or the cap.
  const bool last_turn = s.phase == Phase::kLastTurn;
  if (!last_turn) settle(s, 1 - player);
  if (last_turn)
    s.end = End::kRules;
  else if (!over(s.end) && s.turns >= params_.max_turns)
    s.end = End::kTruncated;
  if (over(s.end)) {  // a finished game keeps no phase: kBattle stands for it
    s.phase = Phase::kBattle;
    s.legal = 0;
    s.capturing = 0;
  }
}

Tailten::Score Tailten::score(const State& s) const {
  Score score{};
  for (int p = 0; p < 2; ++p) {
    score.kingdoms[p] = count_groups(s.forts[p]);
    score.territory[p] = std::popcount(s.forts[p]);
  }
  // Fewer kingdoms wins; with as many, more territory; the winner scores 2 + the margin.
  int margin = score.kingdoms[1] - score.kingdoms[0];
  if (margin == 0) margin = score.territory[0] - score.territory[1];
  score.winner = margin > 0 ? 0 : margin < 0 ? 1 : -1;
  if (score.winner >= 0) score.match_points[score.winner] = 2 + std::abs(margin);
  return score;
}

void Tailten::legal_mask(const State& s, uint8_t* mask) const {
  std::memset(mask, 0, kNumActions);
  for (Squares b = s.legal; b; b &= b - 1) mask[kHillOfSquare[std::countr_zero(b)]] = 1;
}

void Tailten::observe(const State& s, int player, float* out) const {
  constexpr int kArea = kNumSquares;
  std::memset(out, 0, sizeof(float) * kNumPlanes * kArea);
  const auto set = [&](int plane, Squares squares) {
    for (; squares; squares &= squares - 1) out[plane * kArea + std::countr_zero(squares)] = 1.0f;
  };
  const auto fill = [&](int plane, float value) { std::fill_n(out + plane * kArea, kArea, value); };
  set(kPlaneOwn, s.forts[player]);
  set(kPlaneEnemy, s.forts[1 - player]);
  set(kPlaneVacant, vacant(s));
  set(kPlaneHills, kHills);
  if (!over(s.end)) fill(kPlaneOpening + static_cast<int>(s.phase), 1.0f);
  if (s.capturing) set(kPlaneCaptures, s.legal);
  const float ringforts = static_cast<float>(params_.ringforts);
  fill(kPlaneOwnSupply, static_cast<float>(supply(s, player)) / ringforts);
  fill(kPlaneEnemySupply, static_cast<float>(supply(s, 1 - player)) / ringforts);
  if (!terminal(s) && s.to_move == player) fill(kPlaneObserverToMove, 1.0f);
  fill(kPlaneProgress, static_cast<float>(s.turns) / static_cast<float>(params_.max_turns));
}

std::string Tailten::action_to_string(const State&, Action action) const {
  return kGrid.name(kSquareOfHill[action]);
}

Action Tailten::string_to_action(const State& s, std::string_view text) const {
  const auto fail = [&](const std::string& why) {
    throw std::invalid_argument("tailten: move '" + excerpt(text) + "' " + why);
  };
  if (terminal(s)) fail("cannot be played: the game is over");
  const std::optional<int> square = kGrid.parse(text);
  if (!square || kHillOfSquare[*square] < 0)
    fail("is not a hill (a1, g1, a7 and g7 are corners, not hills)");
  if (!(s.legal & square_bit(*square)))
    fail(std::string("is not a legal turn of ") + kPlayerNames[s.to_move] + " here");
  return kHillOfSquare[*square];
}

std::string Tailten::render(const State& s) const {
  std::string out;
  for (int rank = kSize - 1; rank >= 0; --rank) {
    out += static_cast<char>('1' + rank);
    for (int file = 0; file < kSize; ++file) {
      const int square = kGrid.square(file, rank);
      out += ' ';
      out += kHillOfSquare[square] < 0         ? ' '
             : s.forts[0] & square_bit(square) ? 'R'
             : s.forts[1] & square_bit(square) ? 'B'
                                               : '.';
    }
    out += '\n';
  }
  out += "  a b c d e f g\n";
  const Score score = this->score(s);
  out += "kingdoms " + std::to_string(score.kingdoms[0]) + "-" + std::to_string(score.kingdoms[1]) +
         ", territory " + std::to_string(score.territory[0]) + "-" +
         std::to_string(score.territory[1]) + "; ";
  if (terminal(s)) {
    out += "over after " + std::to_string(s.turns) + " turns";
    if (truncated(s)) out += " (truncated)";
    out += score.winner < 0 ? std::string(": a draw")
                            : std::string(": ") + kPlayerNames[score.winner] + " wins " +
                                  std::to_string(score.match_points[score.winner]) + " points";
  } else {
    out += std::string(kPhaseNames[static_cast<int>(s.phase)]) + ", " + kPlayerNames[s.to_move] +
           " to move" + (s.capturing ? ", must capture" : "");
  }
  return out;
}

// "board=ROWS to_move=P phase=NAME turns=N": ROWS rank 7 first, '/' between ranks, '-'
// for a corner, '.' for a vacant hill, r and b for the players' ringforts.
std::string Tailten::serialize(const State& s) const {
  std::string out = "board=";
  for (int rank = kSize - 1; rank >= 0; --rank) {
    for (int file = 0; file < kSize; ++file) {
      const int square = kGrid.square(file, rank);
      out += kHillOfSquare[square] < 0         ? '-'
             : s.forts[0] & square_bit(square) ? 'r'
             : s.forts[1] & square_bit(square) ? 'b'
                                               : '.';
    }
    if (rank) out += '/';
  }
  out += " to_move=";
  out += kPlayerLetters[s.to_move];
  out += " phase=";
  out += truncated(s)  ? kTruncatedName
         : over(s.end) ? kOverName
                       : kPhaseNames[static_cast<int>(s.phase)];
  out += " turns=" + std::to_string(s.turns);
  return out;
}

Tailten::State Tailten::deserialize(std::string_view text) const {
  const KeyValues fields(text,
                         "tailten: cannot read state: ", {"board", "to_move", "phase", "turns"});
  State s{};
  const std::string_view board = fields.get("board");
  if (board.size() != kSize * (kSize + 1) - 1)
    fields.fail("board must be 7 ranks of 7 squares separated by '/'");
  for (int row = 0; row < kSize; ++row) {
    const int rank = kSize - 1 - row;
    if (row && board[static_cast<size_t>(row * (kSize + 1) - 1)] != '/')
      fields.fail("board must be 7 ranks of 7 squares separated by '/'");
    for (int file = 0; file < kSize; ++file) {
      const int square = kGrid.square(file, rank);
      const char c = board[static_cast<size_t>(row * (kSize + 1) + file)];
      const bool hill = kHillOfSquare[square] >= 0;
      const std::string where = kGrid.name(square);
      if (!hill && c != '-') fields.fail("the corner " + where + " must be '-'");
      if (hill && c == '-') fields.fail("the hill " + where + " must be '.', 'r' or 'b'");
      if (c == 'r' || c == 'b')
        s.forts[c == 'b'] |= square_bit(square);
      else if (hill && c != '.')
        fields.fail(std::string("unknown mark '") + c + "' on " + where);
    }
  }
  for (int p = 0; p < 2; ++p)
    if (std::popcount(s.forts[p]) > params_.ringforts)
      fields.fail(std::string(kPlayerNames[p]) + " has more ringforts than its supply of " +
                  std::to_string(params_.ringforts));
  const std::string_view mover = fields.get("to_move");
  if (mover != "r" && mover != "b") fields.fail("to_move must be r or b");
  s.to_move = mover == "b";
  s.turns = static_cast<int16_t>(fields.integer("turns", 0, params_.max_turns));
  const std::string_view phase = fields.get("phase");
  const auto* found = std::find(std::begin(kPhaseNames), std::end(kPhaseNames), phase);
  s.end = phase == kTruncatedName ? End::kTruncated
          : phase == kOverName    ? End::kRules
                                  : End::kRunning;
  if (found == std::end(kPhaseNames) && !over(s.end))
    fields.fail("unknown phase '" + std::string(phase) + "'");
  s.phase = over(s.end) ? Phase::kBattle : Phase(found - std::begin(kPhaseNames));
  if (truncated(s) && s.turns < params_.max_turns)
    fields.fail("phase truncated needs turns = max_turns (" + std::to_string(params_.max_turns) +
                ")");
  if (!over(s.end) && s.turns >= params_.max_turns)
    fields.fail("turns reached max_turns: the game would be over");
  bool capturing = false;
  if (s.phase == Phase::kOpening) {
    s.legal = opening_builds(s, s.to_move);
    if (!s.legal) fields.fail("the mover has no opening build: the phase would be battle");
  } else if (!over(s.end)) {
    s.legal = battle_turns(s, s.to_move, &capturing);
    if (!s.legal) fields.fail("the mover has no legal turn");
  }
  s.capturing = capturing;
  return s;
}

const char* Tailten::broken_invariant(const State& s) const {
  if (s.forts[0] & s.forts[1]) return "a hill with two ringforts";
  for (int p = 0; p < 2; ++p) {
    if (s.forts[p] & ~kHills) return "a ringfort off the hills";
    if (std::popcount(s.forts[p]) > params_.ringforts) return "more ringforts than a supply";
  }
  if (s.turns > params_.max_turns) return "turns out of range";
  return nullptr;
}

}  // namespace knightgym
