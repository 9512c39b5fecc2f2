#include "env/games/knightmate/knightmate.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "env/games/knightmate/fen.h"

namespace knightgym {
namespace {

using namespace knightmate;

bool filter_holds(const std::array<uint64_t, 4>& filter, uint64_t key) {
  return filter[key >> 62] & uint64_t{1} << ((key >> 56) & 63);
}

}  // namespace

Knightmate::Params Knightmate::read_params(ParamReader& reader) {
  Params params;
  const std::string fen = reader.get_string(
      "fen", "startpos", "the position each episode starts from: startpos or a FEN");
  if (fen != "startpos") {
    try {
      params.start = parse_fen(fen);
    } catch (const std::invalid_argument& error) {
      reader.fail("fen", error.what());
    }
  }
  params.history = reader.get_int("history", 1, 1, kMaxHistory,
                                  "positions stacked in the observation, the current one first");
  params.max_turns = reader.get_int("max_turns", 512, 1, 100000,
                                    "turns (one player's move, a ply) before truncation");
  return params;
}

Knightmate::Snapshot Knightmate::snapshot(const Position& p, int repetitions) {
  return {p.colors, p.kinds, static_cast<uint8_t>(repetitions)};
}

void Knightmate::init(State& s, Rng&) const { s = state_from_position(params_.start); }

Knightmate::State Knightmate::state_from_position(const Position& position) const {
  State s{};
  s.position = position;
  s.keys[0] = position.key;
  settle(s);
  return s;
}

void Knightmate::play(State& s, Move move) const {
  const uint8_t castling = s.position.castling;
  const bool en_passant = s.position.en_passant != kNoSquare;
  s.moves[s.turns % kKeyHistory] = move;
  s.position.play(move);
  ++s.turns;
  if (s.position.halfmove == 0 || s.position.castling != castling || en_passant)
    s.reversible_since = s.turns;
  s.keys[s.turns % kKeyHistory] = s.position.key;
  settle(s);
}

void Knightmate::settle(State& s) const {
  const Position& p = s.position;
  const int reach = std::min<int>(p.halfmove, s.turns);
  if (reach == 0) s.key_filter = {};
  int repetitions = 0;
  if (filter_holds(s.key_filter, p.key))
    for (int back = 4; back <= reach; back += 2)
      repetitions += s.keys[static_cast<unsigned>(s.turns - back) % kKeyHistory] == p.key;
  add_to_filter(s.key_filter, p.key);
  s.repetitions = static_cast<uint8_t>(std::min(repetitions, 2));
  if (params_.history > 1) s.snapshots[s.turns % kMaxHistory] = snapshot(p, s.repetitions);

  if (!p.has_legal_move())
    s.reason = p.in_check() ? Reason::kCheckmate : Reason::kStalemate;
  else if (p.halfmove >= 100)
    s.reason = Reason::kFiftyMoves;
  else if (repetitions >= 2)
    s.reason = Reason::kRepetition;
  else if (std::popcount(p.occupied()) == 2)
    s.reason = Reason::kBareRoyals;
  else
    s.reason = Reason::kNone;
  s.end = s.reason != Reason::kNone      ? End::kRules
          : s.turns >= params_.max_turns ? End::kTruncated
                                         : End::kRunning;
}

void Knightmate::legal_mask(const State& s, uint8_t* mask) const {
  std::memset(mask, 0, kNumActions);
  if (terminal(s)) return;
  Action actions[kMaxMoves];
  const int count = s.position.legal_actions(actions);
  for (int i = 0; i < count; ++i) mask[actions[i]] = 1;
}

void Knightmate::observe(const State& s, int player, float* out) const {
  constexpr int kArea = 64;
  const int planes = kPlanesPerPosition * params_.history + kNumConstantPlanes;
  std::memset(out, 0, sizeof(float) * kArea * planes);
  const Color own = Color(player);
  const int flip = own == kWhite ? 0 : 56;

  const auto write_position = [&](const auto& colors, const auto& kinds, int repetitions,
                                  float* planes_out) {
    for (int kind = 0; kind < kNumKinds; ++kind) {
      for (Bitboard b = kinds[kind] & colors[own]; b;)
        planes_out[(kPlaneOwnPieces + kind) * kArea + (pop_lsb(b) ^ flip)] = 1.0f;
      for (Bitboard b = kinds[kind] & colors[~own]; b;)
        planes_out[(kPlaneOpponentPieces + kind) * kArea + (pop_lsb(b) ^ flip)] = 1.0f;
    }
    if (repetitions >= 1) std::fill_n(planes_out + kPlaneRepeatedOnce * kArea, kArea, 1.0f);
    if (repetitions >= 2) std::fill_n(planes_out + kPlaneRepeatedTwice * kArea, kArea, 1.0f);
  };
  const Position& p = s.position;
  write_position(p.colors, p.kinds, s.repetitions, out);
  for (int t = 1; t < params_.history && t <= s.turns; ++t) {
    const Snapshot& past = s.snapshots[(s.turns - t) % kMaxHistory];
    write_position(past.colors, past.kinds, past.repetitions, out + t * kPlanesPerPosition * kArea);
  }

  float* constants = out + kPlanesPerPosition * params_.history * kArea;
  const auto fill = [&](int plane, float value) {
    std::fill_n(constants + plane * kArea, kArea, value);
  };
  const uint8_t own_short = own == kWhite ? kWhiteShort : kBlackShort;
  const uint8_t own_long = own == kWhite ? kWhiteLong : kBlackLong;
  const uint8_t opponent_short = own == kWhite ? kBlackShort : kWhiteShort;
  const uint8_t opponent_long = own == kWhite ? kBlackLong : kWhiteLong;
  fill(kPlaneObserverIsBlack, own == kBlack);
  fill(kPlaneObserverToMove, p.side == own);
  fill(kPlaneOwnShortCastling, (p.castling & own_short) != 0);
  fill(kPlaneOwnLongCastling, (p.castling & own_long) != 0);
  fill(kPlaneOpponentShortCastling, (p.castling & opponent_short) != 0);
  fill(kPlaneOpponentLongCastling, (p.castling & opponent_long) != 0);
  fill(kPlaneNoProgress, static_cast<float>(std::min<int>(p.halfmove, 100)) / 100.0f);
  fill(kPlaneProgress, static_cast<float>(s.turns) / static_cast<float>(params_.max_turns));
}

const char* Knightmate::broken_invariant(const State& s) const {
  const Position& p = s.position;
  if (p.colors[kWhite] & p.colors[kBlack]) return "a square of both colours";
  Bitboard kinds = 0;
  for (const Bitboard k : p.kinds) kinds |= k;
  if (kinds != p.occupied()) return "the kinds and the colours cover different squares";
  for (const Color c : {kWhite, kBlack})
    if (std::popcount(p.pieces(c, kRoyal)) != 1) return "not one royal knight a side";
  for (int square = 0; square < 64; ++square)
    if ((p.board[square] != kNoPiece) != ((p.occupied() >> square) & 1))
      return "the board array and the bitboards disagree";
  if (s.turns > params_.max_turns) return "turns out of range";
  if (s.reversible_since < 0 || s.turns - s.reversible_since < 0 ||
      s.turns - s.reversible_since > std::min<int>(p.halfmove, 100))
    return "the moves listed for UCI out of range";
  return nullptr;
}

}  // namespace knightgym
