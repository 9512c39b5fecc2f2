// Knightmate, one test per rule of docs/rules/knightmate.md. Positions are set up from FEN;
// every expected move list below was reasoned out from the rules (the comment says why) and
// checked against Fairy-Stockfish's `knightmate` (go perft 1), and every perft count above
// depth 1 on a position of our own is Fairy-Stockfish's count.
#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <initializer_list>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "env/core/rng.h"
#include "env/games/knightmate/action_encoding.h"
#include "env/games/knightmate/fen.h"
#include "env/games/knightmate/knightmate.h"
#include "env/games/knightmate/perft.h"
#include "env/games/knightmate/position.h"
#include "env/registry/registry.h"
#include "tests/cpp/env/games/game_test_helpers.h"

namespace knightgym {
namespace {

using namespace knightmate;
using namespace testing;
using Catch::Contains;
using Reason = Knightmate::Reason;
using State = Knightmate::State;

// ---------------------------------------------------------------------------------------
// Positions and moves.

// The legal moves as UCI text, sorted.
Strings moves(const Position& p) {
  Move list[kMaxMoves];
  const int count = p.legal_moves(list);
  Strings out;
  for (int i = 0; i < count; ++i) out.push_back(move_to_uci(list[i]));
  return sorted(out);
}
Strings moves(std::string_view fen) { return moves(parse_fen(fen)); }

// The legal moves of the piece on `square`.
Strings moves_from(const Position& p, std::string_view square) {
  Strings out;
  for (const std::string& move : moves(p))
    if (move.compare(0, 2, square) == 0) out.push_back(move);
  return out;
}

// The legal castlings (the royal knight's two-square step from e1 or e8).
Strings castlings(const Position& p) {
  Strings out;
  for (const std::string& move : moves(p))
    if (move == "e1g1" || move == "e1c1" || move == "e8g8" || move == "e8c8") out.push_back(move);
  return out;
}

Move find_move(const Position& p, std::string_view uci) {
  Move list[kMaxMoves];
  const int count = p.legal_moves(list);
  for (int i = 0; i < count; ++i)
    if (move_to_uci(list[i]) == uci) return list[i];
  FAIL("move " << uci << " is not legal in " << to_fen(p));
  return 0;
}

// The position after the given legal moves.
Position after(std::string_view fen, std::initializer_list<std::string_view> line) {
  Position p = parse_fen(fen);
  for (const std::string_view uci : line) p.play(find_move(p, uci));
  return p;
}

// The colour-mirrored FEN: ranks in reverse order, each letter's case swapped, the other
// side to move, castling rights and en-passant square mirrored alike.
std::string mirror_fen(std::string_view fen) {
  std::istringstream in{std::string(fen)};
  std::string placement, side, castling = "-", en_passant = "-", halfmove = "0", fullmove = "1";
  in >> placement >> side >> castling >> en_passant >> halfmove >> fullmove;
  const auto swap_case = [](std::string text) {
    for (char& c : text)
      c = static_cast<char>(std::isupper(static_cast<unsigned char>(c))
                                ? std::tolower(static_cast<unsigned char>(c))
                                : std::toupper(static_cast<unsigned char>(c)));
    return text;
  };
  Strings ranks;
  std::istringstream placement_in(placement);
  for (std::string rank; std::getline(placement_in, rank, '/');) ranks.push_back(rank);
  std::string mirrored;
  for (auto it = ranks.rbegin(); it != ranks.rend(); ++it) {
    if (!mirrored.empty()) mirrored += '/';
    mirrored += swap_case(*it);
  }
  if (en_passant != "-") en_passant[1] = static_cast<char>('9' - (en_passant[1] - '0'));
  return mirrored + (side == "w" ? " b " : " w ") + (castling == "-" ? "-" : swap_case(castling)) +
         " " + en_passant + " " + halfmove + " " + fullmove;
}

// A UCI move on the colour-mirrored board: every rank r becomes 9 - r.
std::string mirror_uci(std::string uci) {
  for (const size_t i : {size_t{1}, size_t{3}}) uci[i] = static_cast<char>('9' - (uci[i] - '0'));
  return uci;
}

Strings mirror_all(const Strings& list) {
  Strings out;
  for (const std::string& uci : list) out.push_back(mirror_uci(uci));
  return sorted(out);
}

// Requires `expected` as the legal moves of `fen` and their mirrors in its mirrored twin.
void require_moves(std::string_view fen, const Strings& expected) {
  INFO("FEN " << fen);
  REQUIRE(moves(fen) == sorted(expected));
  INFO("mirrored " << mirror_fen(fen));
  REQUIRE(moves(mirror_fen(fen)) == mirror_all(expected));
}

// Likewise for the castlings alone.
void require_castlings(std::string_view fen, const Strings& expected) {
  INFO("FEN " << fen);
  REQUIRE(castlings(parse_fen(fen)) == sorted(expected));
  INFO("mirrored " << mirror_fen(fen));
  REQUIRE(castlings(parse_fen(mirror_fen(fen))) == mirror_all(expected));
}

void require_fen_rejected(std::string_view fen, const std::string& why) {
  INFO("FEN " << fen);
  REQUIRE_THROWS_AS(parse_fen(fen), std::invalid_argument);
  REQUIRE_THROWS_WITH(parse_fen(fen), Contains("invalid FEN") && Contains(why));
}

// ---------------------------------------------------------------------------------------
// The game.

Knightmate make_game(std::string_view fen = kStartFen, int history = 1, int max_turns = 512) {
  Knightmate::Params params;
  params.start = parse_fen(fen);
  params.history = history;
  params.max_turns = max_turns;
  return Knightmate(params);
}

// The value of `plane` on `square` of the observer's frame (a1 = 0; for Black the ranks
// are mirrored, so its own back rank is rank 1 too).
float at(const std::vector<float>& obs, int plane, std::string_view square) {
  const auto parsed = kGrid.parse(square);
  REQUIRE(parsed);
  return obs[static_cast<size_t>(plane * 64 + *parsed)];
}

// The squares of `plane` that are set, by name in the observer's frame.
Strings squares_of(const std::vector<float>& obs, int plane) {
  Strings out;
  for (int square = 0; square < 64; ++square)
    if (obs[static_cast<size_t>(plane * 64 + square)] != 0.0f) out.push_back(kGrid.name(square));
  return sorted(out);
}

// Plane numbers: the observer's and the opponent's pieces of a kind in the current
// position, and a constant plane after `history` stacked positions.
int own(Kind kind) { return Knightmate::kPlaneOwnPieces + static_cast<int>(kind); }
int opponent(Kind kind) { return Knightmate::kPlaneOpponentPieces + static_cast<int>(kind); }
int constant(Knightmate::ConstantPlane plane, int history = 1) {
  return Knightmate::kPlanesPerPosition * history + static_cast<int>(plane);
}

bool plane_is(const std::vector<float>& obs, int plane, float value) {
  const auto begin = obs.begin() + plane * 64;
  return std::all_of(begin, begin + 64, [value](float v) { return v == Approx(value); });
}

std::vector<uint8_t> mask(const Knightmate& game, const State& s) {
  std::vector<uint8_t> out(Knightmate::kNumActions);
  game.legal_mask(s, out.data());
  return out;
}

// Positions from seeded random games: from the start and from set-ups where castling,
// en passant and promotions come early.
std::vector<Position> random_positions(int count, uint64_t seed) {
  constexpr std::string_view kStarts[] = {
      kStartFen,
      "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
      "r3k2r/ppp1qppp/2m1bm2/3pP3/8/2M1BM2/PPP1QPPP/R3K2R w KQkq d6 0 9",
      "4k3/P1p5/8/1P6/8/8/p5P1/4K3 b - - 0 1",
  };
  Rng rng(seed);
  std::vector<Position> out;
  for (size_t game = 0; out.size() < static_cast<size_t>(count); ++game) {
    Position p = parse_fen(kStarts[game % std::size(kStarts)]);
    for (int ply = 0; ply < 120 && out.size() < static_cast<size_t>(count); ++ply) {
      Move list[kMaxMoves];
      const int n = p.legal_moves(list);
      // Stop where the game would be over: no move, bare royal knights, fifty moves.
      if (n == 0 || std::popcount(p.occupied()) == 2 || p.halfmove >= 100) break;
      if (rng.below(3) == 0) out.push_back(p);
      p.play(list[rng.below(static_cast<uint32_t>(n))]);
    }
  }
  return out;
}

constexpr std::string_view kCastlingFen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
// White plays g1h1: the rook checks along the h-file, and Black's royal knight on h8 has
// only f7 and g6, both its own pawns; nothing can block or capture.
constexpr std::string_view kMateInOne = "7k/5p2/6p1/8/8/8/8/4K1R1 w - - 0 1";
// The start without castling rights: the royal knights shuffle e1d3 e8d6 d3e1 d6e8 back to it.
constexpr std::string_view kNoRightsStart = "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w - - 0 1";

// ---------------------------------------------------------------------------------------
// Move generation.

TEST_CASE("perft from the start matches the reference counts", "[knightmate]") {
  const Position start = parse_fen(kStartFen);
  REQUIRE(perft(start, 1) == 18);
  REQUIRE(perft(start, 2) == 324);
  REQUIRE(perft(start, 3) == 6765);
  REQUIRE(perft(start, 4) == 139774);
  REQUIRE(perft(start, 5) == 3249033);
  REQUIRE(to_fen(Position::start()) == kStartFen);
}

TEST_CASE("perft on set-up positions matches Fairy-Stockfish", "[knightmate]") {
  struct Case {
    std::string_view fen;
    uint64_t depth2, depth3;
  };
  // Counts from Fairy-Stockfish's knightmate (go perft 2 and 3).
  constexpr Case kCases[] = {
      {kCastlingFen, 521, 12310},
      {"r3k2r/ppp1qppp/2m1bm2/3pP3/8/2M1BM2/PPP1QPPP/R3K2R w KQkq d6 0 9", 1618, 69780},
      {"4k3/8/8/2Pp4/4K3/8/8/8 w - d6 0 2", 21, 127},
      {"r1r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1", 203, 2182},
      {"6bk/8/8/3pP3/8/1K6/8/8 w - d6 0 1", 40, 206},
  };
  for (const Case& c : kCases) {
    INFO("FEN " << c.fen);
    const Position p = parse_fen(c.fen);
    REQUIRE(perft(p, 2) == c.depth2);
    REQUIRE(perft(p, 3) == c.depth3);
    // The colour-mirrored position has the same tree.
    REQUIRE(perft(parse_fen(mirror_fen(c.fen)), 3) == c.depth3);
  }
}

TEST_CASE("the royal knight castles on both wings, for both colours", "[knightmate]") {
  // Nothing attacks rank 1 or rank 8 (the rooks look along the a- and h-files), so both
  // castlings stand beside the four leaps.
  REQUIRE(moves_from(parse_fen(kCastlingFen), "e1") ==
          Strings{"e1c1", "e1c2", "e1d3", "e1f3", "e1g1", "e1g2"});
  require_castlings(kCastlingFen, {"e1g1", "e1c1"});

  REQUIRE(to_fen(after(kCastlingFen, {"e1g1"})) == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
  REQUIRE(to_fen(after(kCastlingFen, {"e1c1"})) == "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
  constexpr std::string_view kBlackToMove = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
  REQUIRE(moves_from(parse_fen(kBlackToMove), "e8") ==
          Strings{"e8c7", "e8c8", "e8d6", "e8f6", "e8g7", "e8g8"});
  REQUIRE(to_fen(after(kBlackToMove, {"e8g8"})) == "r4rk1/8/8/8/8/8/8/R3K2R w KQ - 1 2");
  REQUIRE(to_fen(after(kBlackToMove, {"e8c8"})) == "2kr3r/8/8/8/8/8/8/R3K2R w KQ - 1 2");
}

TEST_CASE("no castling out of check", "[knightmate]") {
  // The bishop on b4 checks along c3-d2; no white piece can block or capture it, so the
  // four leaps (none attacked) are all that is left.
  require_moves("r3k2r/8/8/8/1b6/8/8/R3K2R w KQkq - 0 1", {"e1c2", "e1d3", "e1f3", "e1g2"});
}

TEST_CASE("no castling across an attacked f1 or d1", "[knightmate]") {
  require_castlings("r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1", {"e1c1"});  // rook f8 hits f1
  require_castlings("3rk2r/8/8/8/8/8/8/R3K2R w KQk - 0 1", {"e1g1"});  // rook d8 hits d1
}

TEST_CASE("no castling onto an attacked g1 or c1", "[knightmate]") {
  require_castlings("r3k1r1/8/8/8/8/8/8/R3K2R w KQq - 0 1", {"e1c1"});  // rook g8 hits g1
  require_castlings("2r1k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1", {"e1g1"});  // rook c8 hits c1
}

TEST_CASE("no castling with a piece between the royal knight and the rook", "[knightmate]") {
  require_castlings("r3k2r/8/8/8/8/8/8/RM2K2R w KQkq - 0 1", {"e1g1"});  // commoner on b1
  require_castlings("r3k2r/8/8/8/8/8/8/R3KB1R w KQkq - 0 1", {"e1c1"});  // bishop on f1
  require_castlings("r3k2r/8/8/8/8/8/8/R3K1MR w KQkq - 0 1", {"e1c1"});  // commoner on g1
}

TEST_CASE("long castling is allowed when only b1 is attacked", "[knightmate]") {
  // The rook on b8 attacks b1, which the royal knight neither passes nor lands on.
  require_castlings("1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1", {"e1g1", "e1c1"});
}

TEST_CASE("castling rights go with royal and rook moves and rook captures", "[knightmate]") {
  REQUIRE(to_fen(after(kCastlingFen, {"e1d3"})) == "r3k2r/8/8/8/8/3K4/8/R6R b kq - 1 1");
  REQUIRE(to_fen(after(kCastlingFen, {"h1h2"})) == "r3k2r/8/8/8/8/8/7R/R3K3 b Qkq - 1 1");
  REQUIRE(to_fen(after(kCastlingFen, {"a1a2"})) == "r3k2r/8/8/8/8/8/R7/4K2R b Kkq - 1 1");
  // Rxa8 gives up White's long castling and takes Black's.
  REQUIRE(to_fen(after(kCastlingFen, {"a1a8"})) == "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
  REQUIRE(to_fen(after("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", {"h8h1"})) ==
          "r3k3/8/8/8/8/8/8/R3K2r w Qq - 0 2");
  // Coming home does not bring a right back.
  REQUIRE(to_fen(after(kCastlingFen, {"h1h2", "h8h7", "h2h1"})) ==
          "r3k3/7r/8/8/8/8/8/R3K2R b Qq - 3 2");
  const Position home = after(kCastlingFen, {"e1d3", "e8d6", "d3e1", "d6e8"});
  REQUIRE(to_fen(home) == "r3k2r/8/8/8/8/8/8/R3K2R w - - 4 3");
  REQUIRE(castlings(home).empty());
}

TEST_CASE("en passant captures the pawn that just stepped two squares", "[knightmate]") {
  const Position stepped = after("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", {"d7d5"});
  REQUIRE(to_fen(stepped) == "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
  REQUIRE(moves(stepped) == sorted({"e5d6", "e5e6", "e1c2", "e1g2", "e1d3", "e1f3"}));
  REQUIRE(to_fen(after(to_fen(stepped), {"e5d6"})) == "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2");
  // The right lasts one move.
  REQUIRE(moves_from(after(to_fen(stepped), {"e1c2", "e8g7"}), "e5") == Strings{"e5e6"});
  // A double step that no pawn can take en passant leaves no en-passant square.
  REQUIRE(to_fen(after("4k3/3p4/8/8/8/8/8/4K3 b - - 0 1", {"d7d5"})) ==
          "4k3/8/8/3p4/8/8/8/4K3 w - - 0 2");
}

TEST_CASE("en passant is illegal when the two vanishing pawns open a rank", "[knightmate]") {
  // exd6 would leave a5-h5 empty and the rook on h5 would attack the royal knight on a5
  // (c4 is the d5 pawn's).
  require_moves("7k/8/8/K2pP2r/8/8/8/8 w - d6 0 1", {"e5e6", "a5b7", "a5b3", "a5c6"});
}

TEST_CASE("en passant is illegal when the captured pawn shields a diagonal", "[knightmate]") {
  // The d5 pawn stands between the bishop on g8 and the royal knight on b3.
  require_moves("6bk/8/8/3pP3/8/1K6/8/8 w - d6 0 1",
                {"e5e6", "b3a1", "b3c1", "b3d2", "b3d4", "b3a5", "b3c5"});
}

TEST_CASE("en passant may capture a pawn that gives check", "[knightmate]") {
  // d7d5 checks the royal knight on e4. The royal may not leap to d6 or f6 (Black's royal
  // knight attacks them); the one other answer is cxd6, taking the checker.
  const Position p = after("4k3/3p4/8/2P5/4K3/8/8/8 b - - 0 1", {"d7d5"});
  REQUIRE(p.in_check());
  REQUIRE(to_fen(p) == "4k3/8/8/2Pp4/4K3/8/8/8 w - d6 0 2");
  require_moves(to_fen(p), {"c5d6", "e4c3", "e4d2", "e4f2", "e4g3", "e4g5"});
  REQUIRE(to_fen(after(to_fen(p), {"c5d6"})) == "4k3/8/3P4/8/4K3/8/8/8 b - - 0 2");
}

TEST_CASE("pawns promote to queen, rook, bishop or commoner, also capturing", "[knightmate]") {
  constexpr std::string_view kFen = "r1r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
  // The rook on c8 attacks c2, so the royal knight has d3, f3 and g2.
  require_moves(kFen, {"b7a8q", "b7a8r", "b7a8b", "b7a8m", "b7b8q", "b7b8r", "b7b8b", "b7b8m",
                       "b7c8q", "b7c8r", "b7c8b", "b7c8m", "e1d3", "e1f3", "e1g2"});
  REQUIRE(to_fen(after(kFen, {"b7b8m"})) == "rMr1k3/8/8/8/8/8/8/4K3 b - - 0 1");
  REQUIRE(to_fen(after(kFen, {"b7b8b"})) == "rBr1k3/8/8/8/8/8/8/4K3 b - - 0 1");
  REQUIRE(to_fen(after(kFen, {"b7a8r"})) == "R1r1k3/8/8/8/8/8/8/4K3 b - - 0 1");
  const Position queen = after(kFen, {"b7c8q"});
  REQUIRE(to_fen(queen) == "r1Q1k3/8/8/8/8/8/8/4K3 b - - 0 1");
  REQUIRE(queen.in_check());

  // The game names the same moves and encodes them in the AlphaZero planes: queen-like
  // (plane 0 = one step north) for b7b8q, under-promotion planes 64 + 3 * piece + direction
  // (rook 0, bishop 1, commoner 2; direction 0 towards a, 1 straight, 2 towards h).
  const Knightmate game = make_game(kFen);
  const State s = new_state(game);
  const int b7 = 49;
  REQUIRE(game.string_to_action(s, "b7b8q") == b7 * 73 + 0);
  REQUIRE(game.string_to_action(s, "b7a8r") == b7 * 73 + 64);
  REQUIRE(game.string_to_action(s, "b7c8b") == b7 * 73 + 64 + 3 + 2);
  REQUIRE(game.string_to_action(s, "b7b8m") == b7 * 73 + 64 + 6 + 1);
  REQUIRE(game.action_to_string(s, b7 * 73 + 64 + 6 + 1) == "b7b8m");
  // Black's b2b1m is the same action in the mover's frame.
  const Knightmate mirrored = make_game(mirror_fen(kFen));
  REQUIRE(mirrored.string_to_action(new_state(mirrored), "b2b1m") == b7 * 73 + 64 + 6 + 1);
}

TEST_CASE("a pinned rook moves only along the pin line", "[knightmate]") {
  // The rook on e4 shields e1 from the rook on e8: it may go up to e8 or down to e2.
  require_moves("4r2k/8/8/8/4R3/8/8/4K3 w - - 0 1",
                {"e4e2", "e4e3", "e4e5", "e4e6", "e4e7", "e4e8", "e1c2", "e1d3", "e1f3", "e1g2"});
}

TEST_CASE("a pinned commoner moves only along the pin line", "[knightmate]") {
  // Of the commoner's eight steps only e2 and e4 stay on the e-file.
  require_moves("4r2k/8/8/8/8/4M3/8/4K3 w - - 0 1",
                {"e3e2", "e3e4", "e1c2", "e1d3", "e1f3", "e1g2"});
}

TEST_CASE("a pinned pawn moves only along the pin line", "[knightmate]") {
  // Pinned on a diagonal by the bishop on c3: no push, but it may take the pinner.
  require_moves("7k/8/8/8/8/2b5/3P4/4K3 w - - 0 1", {"d2c3", "e1c2", "e1d3", "e1f3", "e1g2"});
  // Pinned on the e-file: it may push, but not take the bishop on d4.
  require_moves("4r2k/8/8/8/3b4/4P3/8/4K3 w - - 0 1", {"e3e4", "e1c2", "e1d3", "e1f3", "e1g2"});
}

TEST_CASE("an enemy commoner next to the royal knight gives check", "[knightmate]") {
  // The commoner on d2 attacks e1, c2 and d3. The royal knight cannot take it (it only
  // leaps) and must go to f3 or g2.
  constexpr std::string_view kFen = "4k3/8/8/8/8/8/3m4/4K3 w - - 0 1";
  const Position p = parse_fen(kFen);
  REQUIRE(p.in_check());
  REQUIRE(p.checkers == square_bb(*kGrid.parse("d2")));
  require_moves(kFen, {"e1f3", "e1g2"});
  // Another piece may take it.
  require_moves("4k3/8/8/B7/8/8/3m4/4K3 w - - 0 1", {"a5d2", "e1f3", "e1g2"});
}

TEST_CASE("a commoner is not royal: it may step onto attacked squares", "[knightmate]") {
  // The rook on c8 attacks c3, c4 and c5; the commoner may go there all the same.
  require_moves(
      "2r1k3/8/8/8/3M4/8/8/4K3 w - - 0 1",
      {"d4c3", "d4c4", "d4c5", "d4d3", "d4d5", "d4e3", "d4e4", "d4e5", "e1d3", "e1f3", "e1g2"});
}

TEST_CASE("royal knights never stand a leap apart but may stand side by side", "[knightmate]") {
  // The royal knight on e5 attacks d3 and f3.
  require_moves("8/8/8/4k3/8/8/8/4K3 w - - 0 1", {"e1c2", "e1g2"});
  // On e4 it attacks none of e1's leaps: e1d3 lands beside it.
  constexpr std::string_view kBeside = "8/8/8/8/4k3/8/8/4K3 w - - 0 1";
  require_moves(kBeside, {"e1c2", "e1d3", "e1f3", "e1g2"});
  // Now d3 attacks f2 and c5 in turn.
  REQUIRE(moves(after(kBeside, {"e1d3"})) ==
          sorted({"e4c3", "e4d2", "e4d6", "e4f6", "e4g3", "e4g5"}));
  require_fen_rejected("8/8/8/8/8/3k4/8/4K3 w - - 0 1",
                       "Black is not to move but its royal knight on d3 is in check");
}

TEST_CASE("in double check only the royal knight moves", "[knightmate]") {
  // Checked by the rook on e8 and the bishop on b4: the rook on b1 could take the bishop
  // in single check, here it has no move.
  constexpr std::string_view kFen = "4r2k/8/8/8/1b6/8/8/1R2K3 w - - 0 1";
  REQUIRE(std::popcount(parse_fen(kFen).checkers) == 2);
  require_moves(kFen, {"e1c2", "e1d3", "e1f3", "e1g2"});
}

// ---------------------------------------------------------------------------------------
// The end of the game.

TEST_CASE("checkmate wins for the mating side", "[knightmate]") {
  const Knightmate game = make_game(kMateInOne);
  State s = new_state(game);
  REQUIRE_FALSE(game.terminal(s));
  play(game, s, {"g1h1"});
  REQUIRE(game.terminal(s));
  REQUIRE_FALSE(game.truncated(s));
  REQUIRE(s.reason == Reason::kCheckmate);
  REQUIRE(game.current_player(s) == kTerminalPlayer);
  REQUIRE(s.position.to_move() == kBlack);  // the mated side is to move
  REQUIRE(s.position.in_check());
  REQUIRE(returns(game, s) == std::vector<float>{1.0f, -1.0f});
  REQUIRE(legal(game, s).empty());
  const std::vector<uint8_t> none = mask(game, s);
  REQUIRE(std::count(none.begin(), none.end(), 1) == 0);

  // The mirror: Black mates along the h-file.
  const Knightmate black = make_game(mirror_fen(kMateInOne));
  State t = new_state(black);
  play(black, t, {"g8h8"});
  REQUIRE(t.reason == Reason::kCheckmate);
  REQUIRE(t.position.to_move() == kWhite);
  REQUIRE(returns(black, t) == std::vector<float>{-1.0f, 1.0f});

  // A game set up in a mate is over at once.
  const Knightmate mated = make_game(to_fen(s.position));
  REQUIRE(new_state(mated).reason == Reason::kCheckmate);
}

TEST_CASE("stalemate is a draw", "[knightmate]") {
  // After a2a3 Black's pawns are blocked, its royal knight's leaps f7 and g6 hold its own
  // pawns, and nothing attacks h8.
  const Knightmate game = make_game("7k/5p2/5Pp1/6P1/p7/8/P7/4K3 w - - 0 1");
  State s = new_state(game);
  play(game, s, {"a2a3"});
  REQUIRE(game.terminal(s));
  REQUIRE_FALSE(game.truncated(s));
  REQUIRE(s.reason == Reason::kStalemate);
  REQUIRE_FALSE(s.position.in_check());
  REQUIRE(returns(game, s) == std::vector<float>{0.0f, 0.0f});
}

TEST_CASE("the fifty-move rule draws at 100 plies without capture or pawn move", "[knightmate]") {
  const Knightmate game = make_game("4k3/7p/8/8/8/8/p6P/R3K3 w - - 99 80");
  const State start = new_state(game);
  REQUIRE_FALSE(game.terminal(start));

  State quiet = start;
  play(game, quiet, {"e1f3"});
  REQUIRE(quiet.position.halfmove == 100);
  REQUIRE(game.terminal(quiet));
  REQUIRE_FALSE(game.truncated(quiet));
  REQUIRE(quiet.reason == Reason::kFiftyMoves);
  REQUIRE(returns(game, quiet) == std::vector<float>{0.0f, 0.0f});

  State capture = start;
  play(game, capture, {"a1a2"});
  REQUIRE(capture.position.halfmove == 0);
  REQUIRE_FALSE(game.terminal(capture));

  State pawn = start;
  play(game, pawn, {"h2h3"});
  REQUIRE(pawn.position.halfmove == 0);
  REQUIRE_FALSE(game.terminal(pawn));
}

TEST_CASE("a mate on the hundredth ply wins over the fifty-move rule", "[knightmate]") {
  const Knightmate game = make_game("7k/5p2/6p1/8/8/8/8/4K1R1 w - - 99 80");
  State s = new_state(game);
  play(game, s, {"g1h1"});
  REQUIRE(s.position.halfmove == 100);
  REQUIRE(s.reason == Reason::kCheckmate);
  REQUIRE(returns(game, s) == std::vector<float>{1.0f, -1.0f});
}

TEST_CASE("the third occurrence of a position draws by repetition", "[knightmate]") {
  const Knightmate game = make_game(kNoRightsStart);
  State s = new_state(game);
  REQUIRE(s.repetitions == 0);
  play(game, s, {"e1d3", "e8d6", "d3e1", "d6e8"});
  // The second occurrence: the game goes on, the repetition planes say "once before".
  REQUIRE_FALSE(game.terminal(s));
  REQUIRE(s.repetitions == 1);
  std::vector<float> obs = observe(game, s, 0);
  REQUIRE(plane_is(obs, Knightmate::kPlaneRepeatedOnce, 1.0f));
  REQUIRE(plane_is(obs, Knightmate::kPlaneRepeatedTwice, 0.0f));

  play(game, s, {"e1d3", "e8d6", "d3e1"});
  REQUIRE_FALSE(game.terminal(s));
  play(game, s, {"d6e8"});
  REQUIRE(game.terminal(s));
  REQUIRE_FALSE(game.truncated(s));
  REQUIRE(s.reason == Reason::kRepetition);
  REQUIRE(s.repetitions == 2);
  REQUIRE(returns(game, s) == std::vector<float>{0.0f, 0.0f});
  obs = observe(game, s, 0);
  REQUIRE(plane_is(obs, Knightmate::kPlaneRepeatedOnce, 1.0f));
  REQUIRE(plane_is(obs, Knightmate::kPlaneRepeatedTwice, 1.0f));
}

TEST_CASE("positions that differ in castling rights are not repetitions", "[knightmate]") {
  // From the real start, e1d3 gives up White's rights and e8d6 Black's. The start placement
  // recurs at plies 4 and 8 without rights, so ply 8 is its second occurrence, not its
  // third; likewise ply 9 (royal on d3) differs from ply 1 by Black's rights. The position
  // after ply 2, already without rights, recurs at plies 6 and 10: ply 10 ends the game.
  const Knightmate game = make_game();
  State s = new_state(game);
  play(game, s, {"e1d3", "e8d6", "d3e1", "d6e8"});
  REQUIRE(s.repetitions == 0);
  play(game, s, {"e1d3", "e8d6", "d3e1", "d6e8"});
  REQUIRE(s.repetitions == 1);
  REQUIRE_FALSE(game.terminal(s));
  play(game, s, {"e1d3"});
  REQUIRE(s.repetitions == 1);
  REQUIRE_FALSE(game.terminal(s));
  play(game, s, {"e8d6"});
  REQUIRE(s.turns == 10);
  REQUIRE(s.reason == Reason::kRepetition);
}

TEST_CASE("repetition counts agree with a plain scan of the game's keys", "[knightmate]") {
  // The key filter skips only scans that would find nothing: along random games with few
  // pieces, where positions recur often, the count matches a scan of every earlier key.
  const Knightmate game = make_game("m3k3/8/8/8/8/8/8/M3K3 w - - 0 1");
  Rng rng(7);
  int repetition_ends = 0;
  for (int g = 0; g < 200; ++g) {
    State s = new_state(game);
    while (!game.terminal(s)) {
      Action actions[kMaxMoves];
      game.apply(s, actions[rng.below(static_cast<uint32_t>(game.legal_actions(s, actions)))]);
      const int reach = std::min<int>(s.position.halfmove, s.turns);
      int earlier = 0;
      for (int back = 2; back <= reach; back += 2)
        earlier += s.keys[(s.turns - back) % Knightmate::kKeyHistory] == s.position.key;
      REQUIRE(s.repetitions == std::min(earlier, 2));
    }
    repetition_ends += s.reason == Reason::kRepetition;
  }
  REQUIRE(repetition_ends > 0);
}

TEST_CASE("bare royal knights draw", "[knightmate]") {
  const Knightmate game = make_game("4k3/8/8/8/8/3p4/8/4K3 w - - 0 1");
  State s = new_state(game);
  REQUIRE_FALSE(game.terminal(s));
  play(game, s, {"e1d3"});  // takes the last other piece
  REQUIRE(game.terminal(s));
  REQUIRE_FALSE(game.truncated(s));
  REQUIRE(s.reason == Reason::kBareRoyals);
  REQUIRE(returns(game, s) == std::vector<float>{0.0f, 0.0f});
}

TEST_CASE("max_turns truncates, but a mate on the last ply is a mate", "[knightmate]") {
  const Knightmate game = make_game(kStartFen, 1, 4);
  REQUIRE(game.info().max_game_length == 4);
  State s = new_state(game);
  play(game, s, {"e2e4", "e7e5", "d2d4"});
  REQUIRE_FALSE(game.terminal(s));
  play(game, s, {"d7d5"});
  REQUIRE(game.terminal(s));
  REQUIRE(game.truncated(s));
  REQUIRE(s.end == End::kTruncated);
  REQUIRE(game.current_player(s) == kTerminalPlayer);
  REQUIRE(returns(game, s) == std::vector<float>{0.0f, 0.0f});

  const Knightmate one_ply = make_game(kMateInOne, 1, 1);
  State mate = new_state(one_ply);
  play(one_ply, mate, {"g1h1"});
  REQUIRE_FALSE(one_ply.truncated(mate));
  REQUIRE(mate.reason == Reason::kCheckmate);
  REQUIRE(returns(one_ply, mate) == std::vector<float>{1.0f, -1.0f});
  State other = new_state(one_ply);
  play(one_ply, other, {"g1g2"});
  REQUIRE(one_ply.truncated(other));
  REQUIRE(returns(one_ply, other) == std::vector<float>{0.0f, 0.0f});
}

TEST_CASE("the registry loads a game from a FEN", "[knightmate]") {
  const auto game = load_game("knightmate(fen=" + std::string(kMateInOne) + ")");
  const auto state = game->new_initial_state(0);
  state->apply_action(state->string_to_action("g1h1"));
  REQUIRE(state->is_terminal());
  REQUIRE(state->returns() == std::vector<float>{1.0f, -1.0f});
  REQUIRE_THROWS_WITH(load_game("knightmate(fen=8/8/8/8/8/8/8/8 w - - 0 1)"),
                      Contains("parameter 'fen'") && Contains("royal knights"));
}

// ---------------------------------------------------------------------------------------
// FEN.

TEST_CASE("FEN round-trips through parse_fen and to_fen", "[knightmate]") {
  for (const std::string_view fen : {
           kStartFen,
           std::string_view("r3k2r/ppp1qppp/2m1bm2/3pP3/8/2M1BM2/PPP1QPPP/R3K2R w KQkq d6 0 9"),
           std::string_view("4k3/P1p5/8/1P6/8/8/p5P1/4K3 b - - 0 1"),
           std::string_view("r3k2r/8/8/8/8/8/8/R3K2R b Kq - 17 42"),
           std::string_view("4k3/8/8/2Pp4/4K3/8/8/8 w - d6 0 2"),
           std::string_view("rMr1k3/8/8/8/8/8/8/4K3 b - - 0 1"),
           std::string_view("8/8/8/4k3/8/8/8/4K3 w - - 99 300"),
       }) {
    INFO("FEN " << fen);
    REQUIRE(to_fen(parse_fen(fen)) == fen);
    REQUIRE(parse_fen(to_fen(parse_fen(fen))).key == parse_fen(fen).key);
  }
  // The counters may be left out.
  REQUIRE(to_fen(parse_fen("4k3/8/8/8/8/8/8/4K3 w")) == "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

TEST_CASE("FEN errors name the problem", "[knightmate]") {
  require_fen_rejected("rmbqkbmx/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1",
                       "unknown letter 'x'");
  require_fen_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1",
                       "no ordinary knight");
  require_fen_rejected("rmbqkbm/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1",
                       "has 7 squares, expected 8");
  require_fen_rejected("rmbqkbmr/pppppppp/9/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1",
                       "unknown letter '9'");
  require_fen_rejected("rmbqkbmr/ppppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1",
                       "has 9 squares, expected 8");
  require_fen_rejected("rmbqkbmr/pppppppp/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1",
                       "has 7 ranks, expected 8");
  require_fen_rejected("rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQ1BMR w kq - 0 1",
                       "White has 0 royal knights");
  require_fen_rejected("rmbkkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQ - 0 1",
                       "Black has 2 royal knights");
  require_fen_rejected("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "a pawn stands on a1");
  require_fen_rejected("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "a pawn stands on a8");
  require_fen_rejected("4k3/8/8/8/8/8/8/4K3 w K - 0 1",
                       "castling right 'K' needs the royal knight on e1 and a rook on h1");
  require_fen_rejected("4k3/8/8/8/8/8/8/3K3R w K - 0 1",
                       "castling right 'K' needs the royal knight on e1 and a rook on h1");
  require_fen_rejected("4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1", "impossible en-passant square d3");
  require_fen_rejected("4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1",
                       "impossible en-passant square d6: no Black pawn");
  require_fen_rejected("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
                       "Black is not to move but its royal knight on e8 is in check");
}

TEST_CASE("an en-passant square no pawn can capture on is dropped", "[knightmate]") {
  const Position p = parse_fen("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1");
  REQUIRE(p.en_passant == kNoSquare);
  REQUIRE(to_fen(p) == "4k3/8/8/3p4/8/8/8/4K3 w - - 0 1");
  REQUIRE(p.key == parse_fen("4k3/8/8/3p4/8/8/8/4K3 w - - 0 1").key);
}

// ---------------------------------------------------------------------------------------
// Actions.

TEST_CASE("legal actions encode and decode the legal moves one to one", "[knightmate]") {
  const Knightmate game = make_game();
  REQUIRE(Knightmate::kNumActions == 4672);
  REQUIRE(game.info().num_actions == 4672);
  int promotions = 0, castles = 0, en_passants = 0;
  for (const Position& p : random_positions(300, 11)) {
    INFO("FEN " << to_fen(p));
    const State s = game.state_from_position(p);
    Move list[kMaxMoves];
    const int count = p.legal_moves(list);
    const std::vector<Action> actions = legal(game, s);
    REQUIRE(static_cast<int>(actions.size()) == count);
    REQUIRE(std::set<Action>(actions.begin(), actions.end()).size() == actions.size());
    for (int i = 0; i < count; ++i) {
      const Move m = list[i];
      const Action a = encode_move(m, p.to_move());
      INFO("move " << move_to_uci(m));
      REQUIRE(a == actions[static_cast<size_t>(i)]);
      REQUIRE(a >= 0);
      REQUIRE(a < kNumActions);
      REQUIRE(decode_action(p, a) == m);
      REQUIRE(game.action_to_string(s, a) == move_to_uci(m));
      REQUIRE(game.string_to_action(s, move_to_uci(m)) == a);
      promotions += is_promotion(m);
      castles += move_flag(m) == kCastling;
      en_passants += move_flag(m) == kEnPassant;
    }
    const std::vector<uint8_t> allowed = mask(game, s);
    REQUIRE(std::count(allowed.begin(), allowed.end(), 1) == count);
    for (const Action a : actions) REQUIRE(allowed[static_cast<size_t>(a)] == 1);
  }
  // The sample reaches every kind of special move.
  REQUIRE(promotions > 0);
  REQUIRE(castles > 0);
  REQUIRE(en_passants > 0);
}

TEST_CASE("the move sets hold exactly the legal moves, each once", "[knightmate]") {
  // Positions with pins, checks, promotions, en passant and castling among them.
  std::vector<Position> positions = random_positions(600, 12);
  for (std::string_view fen :
       {kCastlingFen, kMateInOne, std::string_view{"4k3/8/8/2Pp4/4K3/8/8/8 w - d6 0 2"},
        std::string_view{"r1r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1"}})
    positions.push_back(parse_fen(fen));
  int promotions = 0, castles = 0, en_passants = 0;
  for (const Position& p : positions) {
    INFO("FEN " << to_fen(p));
    Move list[kMaxMoves];
    const int count = p.legal_moves(list);
    MoveSets sets;
    p.legal_move_sets(sets);
    REQUIRE(sets.count() == count);
    std::multiset<Move> from_sets, from_list(list, list + count);
    for (int i = 0; i < sets.count(); ++i) {
      const Move m = sets.move(i);
      from_sets.insert(m);
      promotions += is_promotion(m);
      castles += move_flag(m) == kCastling;
      en_passants += move_flag(m) == kEnPassant;
    }
    REQUIRE(from_sets == from_list);
  }
  REQUIRE(promotions > 0);
  REQUIRE(castles > 0);
  REQUIRE(en_passants > 0);
}

TEST_CASE("sample_action draws every legal action and nothing else", "[knightmate]") {
  const Knightmate game = make_game();
  Rng rng(5);
  for (const Position& p : random_positions(40, 13)) {
    INFO("FEN " << to_fen(p));
    const State s = game.state_from_position(p);
    const std::vector<Action> actions = legal(game, s);
    const std::set<Action> legal_set(actions.begin(), actions.end());
    // 40 draws per action miss a given one with probability (1 - 1/n)^(40 n) < e^-40.
    std::set<Action> drawn;
    for (size_t draw = 0; draw < 40 * actions.size(); ++draw) {
      const Action a = game.sample_action(s, rng);
      REQUIRE(legal_set.count(a) == 1);
      drawn.insert(a);
    }
    REQUIRE(drawn == legal_set);
  }
}

TEST_CASE("actions are in the mover's frame", "[knightmate]") {
  // e2e4 and, for Black, e7e5 are both "from e2, two squares north": 12 * 73 + 1.
  const Knightmate game = make_game();
  State s = new_state(game);
  REQUIRE(game.string_to_action(s, "e2e4") == 12 * 73 + 1);
  play(game, s, {"e2e4"});
  REQUIRE(game.string_to_action(s, "e7e5") == 12 * 73 + 1);
  // Castling is the royal knight's two-square step east (plane 2 * 7 + 1), a leap of
  // (-1, +2) is knight plane 63.
  const State castle = game.state_from_position(parse_fen(kCastlingFen));
  REQUIRE(game.string_to_action(castle, "e1g1") == 4 * 73 + 15);
  REQUIRE(game.string_to_action(castle, "e1d3") == 4 * 73 + 63);

  // A position and its colour-mirrored twin have the same legal actions, and the side to
  // move sees the same observation but for the plane that names its colour.
  for (const Position& p : random_positions(150, 5)) {
    const std::string fen = to_fen(p);
    INFO("FEN " << fen << ", mirrored " << mirror_fen(fen));
    const State ours = game.state_from_position(p);
    const State theirs = game.state_from_position(parse_fen(mirror_fen(fen)));
    std::vector<Action> a = legal(game, ours), b = legal(game, theirs);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    REQUIRE(a == b);
    std::vector<float> mine = observe(game, ours, p.side);
    std::vector<float> twin = observe(game, theirs, p.side ^ 1);
    const int colour = constant(Knightmate::kPlaneObserverIsBlack);
    REQUIRE(plane_is(mine, colour, p.side == kBlack ? 1.0f : 0.0f));
    REQUIRE(plane_is(twin, colour, p.side == kBlack ? 0.0f : 1.0f));
    std::fill_n(mine.begin() + colour * 64, 64, 0.0f);
    std::fill_n(twin.begin() + colour * 64, 64, 0.0f);
    REQUIRE(mine == twin);
  }
}

TEST_CASE("string_to_action rejects malformed, knight-promoting and illegal moves",
          "[knightmate]") {
  const Knightmate game = make_game("r1r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
  const State s = new_state(game);
  for (const std::string_view text : {"", "e2", "e2e", "e2e4x", "i2i4", "e9e1", "e1 g2"}) {
    INFO("text '" << text << "'");
    REQUIRE_THROWS_WITH(game.string_to_action(s, text), Contains("is not a UCI move"));
  }
  REQUIRE_THROWS_WITH(game.string_to_action(s, "b7b8n"), Contains("promotes to a knight"));
  REQUIRE_THROWS_WITH(game.string_to_action(s, "e1e2"), Contains("is not a legal move"));
  REQUIRE_THROWS_WITH(game.string_to_action(s, "b7b8"), Contains("is not a legal move"));
  REQUIRE_THROWS_WITH(game.string_to_action(s, "e1c2"), Contains("is not a legal move"));

  const Knightmate mate = make_game(kMateInOne);
  State over = new_state(mate);
  play(mate, over, {"g1h1"});
  REQUIRE_THROWS_WITH(mate.string_to_action(over, "h8g6"), Contains("the game is over"));
}

// ---------------------------------------------------------------------------------------
// Observation.

TEST_CASE("the observation has 14 planes per position and 8 more", "[knightmate]") {
  REQUIRE(make_game().info().observation_shape == Shape{22, 8, 8});
  REQUIRE(make_game(kStartFen, 3).info().observation_shape == Shape{50, 8, 8});
  REQUIRE(make_game(kStartFen, 8).info().observation_shape == Shape{120, 8, 8});
}

TEST_CASE("piece planes show the observer's pieces first, in its own frame", "[knightmate]") {
  const Knightmate game = make_game();
  State s = new_state(game);
  const std::vector<float> white = observe(game, s, 0);
  const Strings own_pawns{"a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"};
  const Strings their_pawns{"a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7"};
  REQUIRE(squares_of(white, own(kPawn)) == own_pawns);
  REQUIRE(squares_of(white, own(kCommoner)) == Strings{"b1", "g1"});
  REQUIRE(squares_of(white, own(kRoyal)) == Strings{"e1"});
  REQUIRE(squares_of(white, own(kQueen)) == Strings{"d1"});
  REQUIRE(squares_of(white, opponent(kPawn)) == their_pawns);
  REQUIRE(squares_of(white, opponent(kRoyal)) == Strings{"e8"});
  // The start is symmetric, so Black, with the ranks mirrored, sees the same.
  const std::vector<float> black = observe(game, s, 1);
  for (int plane = 0; plane < Knightmate::kPlanesPerPosition; ++plane)
    REQUIRE(squares_of(black, plane) == squares_of(white, plane));

  play(game, s, {"e2e4"});
  const std::vector<float> after_white = observe(game, s, 0);
  REQUIRE(at(after_white, own(kPawn), "e4") == 1.0f);
  REQUIRE(at(after_white, own(kPawn), "e2") == 0.0f);
  const std::vector<float> after_black = observe(game, s, 1);
  REQUIRE(at(after_black, opponent(kPawn), "e5") == 1.0f);
  REQUIRE(at(after_black, opponent(kPawn), "e7") == 0.0f);
  REQUIRE(squares_of(after_black, own(kPawn)) == own_pawns);

  REQUIRE(plane_is(after_white, constant(Knightmate::kPlaneObserverIsBlack), 0.0f));
  REQUIRE(plane_is(after_black, constant(Knightmate::kPlaneObserverIsBlack), 1.0f));
  REQUIRE(plane_is(after_white, constant(Knightmate::kPlaneObserverToMove), 0.0f));
  REQUIRE(plane_is(after_black, constant(Knightmate::kPlaneObserverToMove), 1.0f));
  REQUIRE(plane_is(after_black, constant(Knightmate::kPlaneProgress), 1.0f / 512.0f));
}

TEST_CASE("castling planes show each side's rights from the observer's side", "[knightmate]") {
  const Knightmate game = make_game("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1");
  const State s = new_state(game);
  const std::vector<float> white = observe(game, s, 0), black = observe(game, s, 1);
  REQUIRE(plane_is(white, constant(Knightmate::kPlaneOwnShortCastling), 1.0f));
  REQUIRE(plane_is(white, constant(Knightmate::kPlaneOwnLongCastling), 0.0f));
  REQUIRE(plane_is(white, constant(Knightmate::kPlaneOpponentShortCastling), 0.0f));
  REQUIRE(plane_is(white, constant(Knightmate::kPlaneOpponentLongCastling), 1.0f));
  REQUIRE(plane_is(black, constant(Knightmate::kPlaneOwnShortCastling), 0.0f));
  REQUIRE(plane_is(black, constant(Knightmate::kPlaneOwnLongCastling), 1.0f));
  REQUIRE(plane_is(black, constant(Knightmate::kPlaneOpponentShortCastling), 1.0f));
  REQUIRE(plane_is(black, constant(Knightmate::kPlaneOpponentLongCastling), 0.0f));
}

TEST_CASE("the no-progress plane is the halfmove clock over 100", "[knightmate]") {
  const Knightmate game = make_game("4k3/7p/8/8/8/8/p6P/R3K3 w - - 37 80");
  State s = new_state(game);
  const int plane = constant(Knightmate::kPlaneNoProgress);
  REQUIRE(plane_is(observe(game, s, 0), plane, 0.37f));
  play(game, s, {"e1f3"});
  REQUIRE(plane_is(observe(game, s, 1), plane, 0.38f));
  play(game, s, {"h7h6"});
  REQUIRE(plane_is(observe(game, s, 0), plane, 0.0f));
}

TEST_CASE("history=2 stacks the previous position after the current one", "[knightmate]") {
  const Knightmate game = make_game(kStartFen, 2);
  State s = new_state(game);
  const int previous = Knightmate::kPlanesPerPosition;
  const std::vector<float> first = observe(game, s, 0);
  for (int plane = previous; plane < 2 * previous; ++plane) REQUIRE(plane_is(first, plane, 0.0f));
  REQUIRE(plane_is(first, constant(Knightmate::kPlaneObserverToMove, 2), 1.0f));

  play(game, s, {"e2e4"});
  const std::vector<float> black = observe(game, s, 1);
  // Now: White's pawn on e4 (e5 in Black's frame); before: on e2 (e7 in Black's frame).
  REQUIRE(at(black, opponent(kPawn), "e5") == 1.0f);
  REQUIRE(at(black, opponent(kPawn), "e7") == 0.0f);
  REQUIRE(at(black, previous + opponent(kPawn), "e7") == 1.0f);
  REQUIRE(at(black, previous + opponent(kPawn), "e5") == 0.0f);
  // The previous position is the start as Black sees it.
  const std::vector<float> start_for_black = observe(game, new_state(game), 1);
  for (int plane = 0; plane < previous; ++plane)
    REQUIRE(squares_of(black, previous + plane) == squares_of(start_for_black, plane));
}

// ---------------------------------------------------------------------------------------
// The game for a UCI engine: uci_position.

// "fen FEN" and, if any, " moves M1 M2 ...".
std::string uci_text(std::string_view fen, const Strings& moves = {}) {
  std::string out = "fen " + std::string(fen);
  if (!moves.empty()) out += " moves";
  for (const std::string& move : moves) out += " " + move;
  return out;
}

// The states that uci_position's text describes, as a UCI engine builds them: the root
// FEN, then one state after each move, checked legal on the way.
std::vector<State> replay_uci(const Knightmate& game, const std::string& text) {
  std::istringstream in(text);
  std::string word, fen;
  in >> word;
  REQUIRE(word == "fen");
  while (in >> word && word != "moves") fen += (fen.empty() ? "" : " ") + word;
  std::vector<State> states{game.state_from_position(parse_fen(fen))};
  while (in >> word) {
    State next = states.back();
    game.apply(next, game.string_to_action(next, word));  // throws unless legal
    states.push_back(next);
  }
  return states;
}

TEST_CASE("uci_position lists the moves since the last capture or pawn move", "[knightmate]") {
  const Knightmate game = make_game();
  State s = new_state(game);
  REQUIRE(game.uci_position(s) == uci_text(kStartFen));
  play(game, s, {"e2e4"});
  REQUIRE(game.uci_position(s) == uci_text(game.fen(s)));
  play(game, s, {"e7e5"});
  const std::string root = game.fen(s);
  play(game, s, {"f1c4", "f8c5", "c4e2"});
  REQUIRE(game.uci_position(s) == uci_text(root, {"f1c4", "f8c5", "c4e2"}));
  REQUIRE(s.reversible_since == 2);
  play(game, s, {"c5f2"});  // a capture starts the list again
  REQUIRE(game.uci_position(s) == uci_text(game.fen(s)));
  REQUIRE(s.reversible_since == s.turns);
}

TEST_CASE("uci_position starts again after castling and after a lost castling right",
          "[knightmate]") {
  const Knightmate game = make_game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  State s = new_state(game);
  play(game, s, {"e1g1"});  // castling
  REQUIRE(game.uci_position(s) == uci_text(game.fen(s)));
  play(game, s, {"a8b8"});  // Black loses its long castling
  const std::string root = game.fen(s);
  REQUIRE(root == "1r2k2r/8/8/8/8/8/8/R4RK1 w k - 2 2");
  REQUIRE(game.uci_position(s) == uci_text(root));
  play(game, s, {"f1f2"});  // White has no rights left to lose: the list keeps it
  REQUIRE(game.uci_position(s) == uci_text(root, {"f1f2"}));
  play(game, s, {"h8h7"});  // Black loses its short castling
  REQUIRE(game.uci_position(s) == uci_text(game.fen(s)));
  const std::string no_rights = game.fen(s);
  play(game, s, {"f2f1", "h7h8"});
  REQUIRE(game.uci_position(s) == uci_text(no_rights, {"f2f1", "h7h8"}));
}

TEST_CASE("uci_position starts after a move from a position with an en-passant square",
          "[knightmate]") {
  // After e2e4 Black's d4 pawn could take en passant on e3. Black's royal move from that
  // position is reversible, but taking it back from the position after it could not
  // restore the en-passant square, so the list starts after it, at an exact FEN.
  const Knightmate game = make_game("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
  State s = new_state(game);
  play(game, s, {"e2e4"});
  REQUIRE(game.fen(s) == "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
  REQUIRE(game.uci_position(s) == uci_text(game.fen(s)));
  play(game, s, {"e8f6"});
  REQUIRE(game.uci_position(s) == uci_text("8/8/5k2/8/3pP3/8/8/4K3 w - - 1 2"));
  play(game, s, {"e1f3", "f6e8"});
  REQUIRE(game.uci_position(s) == uci_text("8/8/5k2/8/3pP3/8/8/4K3 w - - 1 2", {"e1f3", "f6e8"}));
}

TEST_CASE("uci_position shows the engine every position a repetition reaches", "[knightmate]") {
  // Royal knights shuffling out and back: the list runs from the start, so the engine
  // sees that d6e8 would bring the start position round a third time.
  const Knightmate game = make_game(kNoRightsStart);
  State s = new_state(game);
  play(game, s, {"e1d3", "e8d6", "d3e1", "d6e8", "e1d3", "e8d6", "d3e1"});
  const Strings line = {"e1d3", "e8d6", "d3e1", "d6e8", "e1d3", "e8d6", "d3e1"};
  REQUIRE(game.uci_position(s) == uci_text(kNoRightsStart, line));
  const std::vector<State> seen = replay_uci(game, game.uci_position(s));
  REQUIRE(game.serialize(seen.back()) == game.serialize(s));
  play(game, s, {"d6e8"});
  REQUIRE(s.reason == Reason::kRepetition);
  Strings all = line;
  all.push_back("d6e8");
  REQUIRE(game.uci_position(s) == uci_text(kNoRightsStart, all));
}

TEST_CASE("uci_position replays to the current state along random games", "[knightmate]") {
  // From every kind of start (castling, en passant, promotions, few pieces where positions
  // recur), after every ply: the listed moves are legal from the root FEN, which has no
  // en-passant square unless the list is empty, and arrive at the current state with
  // its repetition count, so the engine sees every earlier occurrence; a deserialized
  // copy lists the same moves.
  const std::string_view starts[] = {
      kStartFen, "r3k2r/ppp1qppp/2m1bm2/3pP3/8/2M1BM2/PPP1QPPP/R3K2R w KQkq d6 0 9",
      "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1", "m3k3/8/8/8/8/8/8/M3K3 w - - 0 1",
      "4k3/8/8/8/8/8/8/1Q2K3 b - - 40 1"};
  Rng rng(11);
  int longest = 0;
  for (const std::string_view start : starts) {
    const Knightmate game = make_game(start);
    for (int g = 0; g < 20; ++g) {
      State s = new_state(game);
      while (!game.terminal(s)) {
        game.apply(s, game.sample_action(s, rng));
        const std::string text = game.uci_position(s);
        INFO(text);
        const std::vector<State> seen = replay_uci(game, text);
        REQUIRE(static_cast<int>(seen.size()) - 1 == s.turns - s.reversible_since);
        if (seen.size() > 1) REQUIRE(seen.front().position.en_passant == kNoSquare);
        REQUIRE(to_fen(seen.back().position) == to_fen(s.position));
        REQUIRE(seen.back().repetitions == s.repetitions);
        REQUIRE(seen.back().reason == s.reason);
        REQUIRE(game.uci_position(game.deserialize(game.serialize(s))) == text);
        longest = std::max(longest, s.turns - s.reversible_since);
      }
    }
  }
  REQUIRE(longest >= 60);  // long lists, up to the fifty-move rule, were seen
}

// ---------------------------------------------------------------------------------------
// Serialization.

TEST_CASE("a Knightmate state round-trips through serialize and deserialize", "[knightmate]") {
  const auto require_round_trip = [](const Knightmate& game, const State& s) {
    const std::string text = game.serialize(s);
    INFO("serialized " << text);
    const State back = game.deserialize(text);
    REQUIRE(game.serialize(back) == text);
    REQUIRE((back.end == s.end && back.reason == s.reason));
    REQUIRE(back.repetitions == s.repetitions);
    REQUIRE(back.turns == s.turns);
    REQUIRE(game.uci_position(back) == game.uci_position(s));
    REQUIRE(mask(game, back) == mask(game, s));
    for (int player = 0; player < 2; ++player)
      REQUIRE(observe(game, back, player) == observe(game, s, player));
    return back;
  };

  const Knightmate plain = make_game();
  State s = new_state(plain);
  require_round_trip(plain, s);
  play(plain, s, {"e2e4", "d7d5", "e4e5", "f7f5"});  // leaves an en-passant square on f6
  REQUIRE(s.position.en_passant == *kGrid.parse("f6"));
  require_round_trip(plain, s);

  // Three positions stacked, and repetitions: after 5 plies e1d3 recurs.
  const Knightmate game = make_game(kNoRightsStart, 3);
  State t = new_state(game);
  play(game, t, {"e1d3", "e8d6", "d3e1", "d6e8", "e1d3"});
  REQUIRE(t.repetitions == 1);
  State back = require_round_trip(game, t);
  // The restored state plays on as the original does: the third occurrence still ends it.
  play(game, t, {"e8d6", "d3e1", "d6e8"});
  play(game, back, {"e8d6", "d3e1", "d6e8"});
  REQUIRE(t.reason == Reason::kRepetition);
  REQUIRE(back.reason == Reason::kRepetition);
  REQUIRE(game.serialize(back) == game.serialize(t));
  require_round_trip(game, t);  // a finished game too
}

TEST_CASE("a Knightmate text without moves, from before the field, still reads", "[knightmate]") {
  const Knightmate game = make_game(kNoRightsStart, 2);
  State s = new_state(game);
  play(game, s, {"e1d3", "e8d6", "d3e1", "d6e8", "e1d3"});
  const std::string text = game.serialize(s);
  REQUIRE(text.ends_with(" moves=e1d3,e8d6,d3e1,d6e8,e1d3"));
  const std::string old = text.substr(0, text.find(" moves="));
  for (const std::string& without : {old, old + " moves="}) {
    INFO(without);
    const State back = game.deserialize(without);
    // The same state, but for the list, which starts at its current turn.
    REQUIRE(back.reversible_since == back.turns);
    REQUIRE(game.uci_position(back) == uci_text(game.fen(s)));
    REQUIRE(game.serialize(back) == old + " moves=");
    REQUIRE(back.repetitions == 1);
    REQUIRE(observe(game, back, 0) == observe(game, s, 0));
  }
}

TEST_CASE("deserialize rejects a moves field that does not lead to the position", "[knightmate]") {
  const Knightmate game = make_game(kNoRightsStart);
  State s = new_state(game);
  play(game, s, {"e1d3", "e8d6"});
  const std::string text = game.serialize(s);
  REQUIRE(text.ends_with(" moves=e1d3,e8d6"));
  const std::string base = text.substr(0, text.find(" moves="));
  // A later start is fine: the list may leave out its first moves.
  REQUIRE(game.uci_position(game.deserialize(base + " moves=e8d6")) ==
          uci_text("rmbqkbmr/pppppppp/8/8/8/3K4/PPPPPPPP/RMBQ1BMR b - - 1 1", {"e8d6"}));

  require_state_rejected(game, text + " moves=", "expected one field 'moves'");
  require_state_rejected(game, base + " moves=e1d3,e8d6,d3e1",
                         "expected at most 2 moves (the smallest of the halfmove clock, turns "
                         "and 100), got 3");
  require_state_rejected(game, base + " moves=e1d3,zz",
                         "move 'zz' of the moves field is not a reversible UCI move");
  require_state_rejected(game, base + " moves=e1d3,e8d6m",
                         "move 'e8d6m' of the moves field is not a reversible UCI move");
  require_state_rejected(game, base + " moves=e1d3,", "move '' of the moves field");
  // The side to move is White: the last move was Black's.
  require_state_rejected(game, base + " moves=e8d6,e1d3",
                         "move 'e1d3' of the moves field cannot be taken back");
  require_state_rejected(game, base + " moves=e1d3,e8d7",
                         "move 'e8d7' of the moves field is a pawn move");
  // The keys field must hold the positions the moves pass through.
  const size_t keys = text.find("keys=") + 5;
  std::string wrong_key = text;
  wrong_key.replace(keys, 16, "0000000000000000");
  require_state_rejected(game, wrong_key, "does not have the keys field's key for turn 0");

  // Hand-made texts.
  const auto state = [](std::string_view fen, std::string_view moves) {
    return "fen=[" + std::string(fen) + "] turns=1 keys=0 history= moves=" + std::string(moves);
  };
  // Unmade, f1c4 puts the bishop back behind its pawns.
  require_state_rejected(game,
                         state("rmbqkbmr/pppppppp/8/8/2B5/8/PPPPPPPP/RMBQK1MR b - - 1 1", "f1c4"),
                         "move 'f1c4' of the moves field is not a legal move in "
                         "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w - - 0 1");
  require_state_rejected(game,
                         state("rmbqkbmr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RMBQKBMR b - e3 1 1", "g1g2"),
                         "the position has an en-passant square");
  require_state_rejected(game, state("4k3/8/8/8/8/8/8/1Q2K3 w - - 1 1", "d6e8"),
                         "move 'd6e8' of the moves field takes the game back before fullmove 1");
  // Unmade, b8b1 leaves Black in check with White to move.
  require_state_rejected(game, state("7k/8/8/8/8/8/8/1R2K3 b - - 1 1", "b8b1"),
                         "the moves start from an impossible position");
}

TEST_CASE("deserialize rejects malformed text", "[knightmate]") {
  const Knightmate game = make_game();
  const std::string start = "fen=[" + std::string(kStartFen) + "]";
  require_state_rejected(game, "nonsense", "field 'nonsense' has no '='");
  require_state_rejected(game, start + " turns=0", "expected one field 'keys'");
  require_state_rejected(game, start + " score=0 keys= history=", "unknown field 'score'");
  require_state_rejected(
      game, "fen=[" + std::string(kStartFen) + " turns=0 keys= history=", "no closing ']'");
  require_state_rejected(game, "fen=[8/8/8 w] turns=0 keys= history=", "has 3 ranks");
  require_state_rejected(game, start + " turns=x keys= history=", "turns 'x' is not an integer");
  require_state_rejected(game, start + " turns=-1 keys= history=", "turns '-1' is not an integer");
  const std::string clock2 = "fen=[rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 2 2]";
  require_state_rejected(game, clock2 + " turns=2 keys=0123 history=", "expected 2 keys");
  require_state_rejected(game,
                         clock2 + " turns=2 keys=0123,zz history=", "key 'zz' is not hexadecimal");

  const Knightmate stacked = make_game(kStartFen, 2);
  const std::string one =
      "fen=[rmbqkbmr/pppppppp/8/8/4P3/8/PPPP1PPP/RMBQKBMR b KQkq - 0 1] turns=1 keys=";
  require_state_rejected(stacked, one + " history=", "expected 1 earlier positions, got 0");
  require_state_rejected(stacked, one + " history=nonsense", "is not PLACEMENT:REPETITIONS");
  require_state_rejected(stacked, one + " history=8/8/8:0", "has 3 ranks");
  // The well-formed text is accepted.
  const State s =
      stacked.deserialize(one + " history=" + placement_to_string(Position::start().board) + ":0");
  REQUIRE(s.turns == 1);
}

}  // namespace
}  // namespace knightgym
