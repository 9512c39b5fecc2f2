#include "env/games/tailten/tailten.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace knightgym {
namespace {

using namespace tailten;
using Phase = Tailten::Phase;

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
