#include "env/games/knight_fight/knight_fight.h"

#include <algorithm>
#include <numeric>

namespace knightgym {
namespace {

using knight_fight::kGrid;
using knight_fight::kNumSquares;
using knight_fight::kSize;

}  // namespace

std::string KnightFight::parse_layout(std::string_view digits,
                                      std::array<uint8_t, kNumSquares>& layout) {
  if (digits.size() != 2 * kNumSquares)
    return "expected random, identity or 200 digits, got " + std::to_string(digits.size()) +
           " characters";
  std::array<int, kNumSquares> square_of;
  square_of.fill(-1);
  for (int square = 0; square < kNumSquares; ++square) {
    const char tens = digits[2 * square], ones = digits[2 * square + 1];
    for (int i : {2 * square, 2 * square + 1})
      if (digits[i] < '0' || digits[i] > '9')
        return "character " + std::to_string(i) + " ('" + digits[i] + "') is not a digit";
    const int number = (tens - '0') * 10 + (ones - '0');
    if (square_of[number] >= 0)
      return "number " + std::string{tens, ones} + " is on " + kGrid.name(square_of[number]) +
             " and " + kGrid.name(square);
    square_of[number] = square;
    layout[square] = static_cast<uint8_t>(number);
  }
  return {};
}

KnightFight::Params KnightFight::read_params(ParamReader& reader) {
  Params params;
  const std::string erase = reader.get_choice(
      "double_erase", "optional", {"optional", "forced", "off"},
      "after landing on a double, the mover may (optional) or must (forced) erase another "
      "usable double, or never does (off)");
  params.double_erase = erase == "optional" ? DoubleErase::kOptional
                        : erase == "forced" ? DoubleErase::kForced
                                            : DoubleErase::kOff;
  params.mirror_on_moves = reader.get_bool(
      "mirror_on_moves", true, "leaps, not only the two placements, erase the mirrored number");
  params.max_turns =
      reader.get_int("max_turns", 200, 1, 100000, "turns (placements and leaps) before truncation");
  const std::string layout = reader.get_string(
      "layout", "random",
      "the numbers: random (drawn from the seed), identity (square i holds i), or 200 digits "
      "giving the number of each square in the order a1, b1, ..., j1, a2, ..., j10");
  params.random_layout = layout == "random";
  if (layout == "identity") {
    std::iota(params.layout.begin(), params.layout.end(), uint8_t{0});
  } else if (!params.random_layout) {
    if (const std::string why = parse_layout(layout, params.layout); !why.empty())
      reader.fail("layout", why);
  }
  return params;
}

void KnightFight::index_layout(State& s) {
  s.doubles = 0;
  for (int square = 0; square < kNumSquares; ++square) {
    s.square_of[s.number[square]] = static_cast<uint8_t>(square);
    if (is_double(s.number[square])) s.doubles |= bit128(square);
  }
}

void KnightFight::init(State& s, Rng& rng) const {
  s = State{};
  if (params_.random_layout) {
    std::iota(s.number.begin(), s.number.end(), uint8_t{0});
    for (int i = kNumSquares - 1; i > 0; --i) std::swap(s.number[i], s.number[rng.below(i + 1)]);
  } else {
    s.number = params_.layout;
  }
  index_layout(s);
  s.usable = knight_fight::kAllSquares;
  s.knight = {-1, -1};
}

void KnightFight::observe(const State& s, int player, float* out) const {
  constexpr int kArea = kNumSquares;
  const bool flip = player == 1;
  const auto view = [flip](Bits128 b) { return flip ? knight_fight::flip_ranks(b) : b; };
  const auto knight_bit = [&](int p) { return s.knight[p] >= 0 ? bit128(s.knight[p]) : 0; };
  const auto fill = [&](int plane, float value) { std::fill_n(out + plane * kArea, kArea, value); };

  write_plane(view(knight_bit(player)), kArea, out + kPlaneOwnKnight * kArea);
  write_plane(view(knight_bit(1 - player)), kArea, out + kPlaneOpponentKnight * kArea);
  write_plane(view(s.usable), kArea, out + kPlaneUsable * kArea);
  float* numbers = out + kPlaneNumber * kArea;
  for (int rank = 0; rank < kSize; ++rank) {
    const uint8_t* row = &s.number[(flip ? kSize - 1 - rank : rank) * kSize];
    for (int file = 0; file < kSize; ++file)
      numbers[rank * kSize + file] = static_cast<float>(row[file]) * (1.0f / 99.0f);
  }
  write_plane(view(s.doubles), kArea, out + kPlaneDouble * kArea);
  write_plane(view(attacks(s, 1 - player)), kArea, out + kPlaneOpponentAttacks * kArea);
  write_plane(view(attacks(s, player)), kArea, out + kPlaneOwnAttacks * kArea);
  fill(kPlanePendingErase, s.pending_erase ? 1.0f : 0.0f);
  fill(kPlaneScoreDifference, static_cast<float>(s.score[player] - s.score[1 - player]) / 100.0f);
  fill(kPlaneProgress, static_cast<float>(s.turns) / static_cast<float>(params_.max_turns));
  const int erase = static_cast<int>(params_.double_erase);
  for (int k = 0; k < 3; ++k) fill(kPlaneDoubleErase + k, k == erase ? 1.0f : 0.0f);
  fill(kPlaneMirrorOnMoves, params_.mirror_on_moves ? 1.0f : 0.0f);
}

const char* KnightFight::broken_invariant(const State& s) const {
  for (int square = 0; square < kNumSquares; ++square)
    if (s.square_of[s.number[square]] != square) return "number and square_of disagree";
  for (int p = 0; p < 2; ++p) {
    if (s.knight[p] >= 0 && test128(s.usable, s.knight[p])) return "a knight on a usable square";
    if (s.score[p] < 0) return "a negative score";
  }
  if (s.knight[0] >= 0 && s.knight[0] == s.knight[1]) return "both knights on one square";
  if (s.turns > params_.max_turns || s.to_move > 1) return "turns or to_move out of range";
  if (s.pending_erase && (over(s.end) || s.knight[s.to_move] < 0))
    return "a pending erase without a game in progress";
  return nullptr;
}

}  // namespace knightgym
