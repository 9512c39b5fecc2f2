#include "env/games/knightmate/fen.h"

#include <cctype>
#include <charconv>
#include <stdexcept>
#include <vector>

#include "util/text.h"

namespace knightgym::knightmate {
namespace {

constexpr std::string_view kLetters = "pbrqmk";  // by Kind
constexpr const char* kColorNames[2] = {"White", "Black"};

char piece_letter(Piece p) {
  const char letter = kLetters[kind_of(p)];
  return color_of(p) == kWhite ? static_cast<char>(letter - 'a' + 'A') : letter;
}

[[noreturn]] void fail(std::string_view fen, const std::string& why) {
  throw std::invalid_argument("knightmate: invalid FEN '" + std::string(fen) + "': " + why);
}

// The placement field; `what` prefixes its errors.
std::array<Piece, 64> read_placement(std::string_view text, std::string_view what) {
  const auto error = [&](const std::string& why) -> void {
    throw std::invalid_argument(std::string(what) + why);
  };
  std::array<Piece, 64> board{};
  const std::vector<std::string_view> ranks = split(text, '/');
  if (ranks.size() != 8)
    error("the placement has " + std::to_string(ranks.size()) + " ranks, expected 8");
  for (int i = 0; i < 8; ++i) {
    const int rank = 7 - i;
    int file = 0;
    for (const char c : ranks[i]) {
      if (c >= '1' && c <= '8') {
        file += c - '0';
      } else if (c == 'n' || c == 'N') {
        error(std::string("letter '") + c +
              "' is not a Knightmate piece: there is no ordinary knight (the royal knight is "
              "K/k, the commoner M/m)");
      } else if (const size_t kind = kLetters.find(static_cast<char>(c | 0x20));
                 std::isalpha(static_cast<unsigned char>(c)) && kind != std::string_view::npos) {
        if (file < 8)
          board[kGrid.square(file, rank)] =
              make_piece((c >= 'a') ? kBlack : kWhite, Kind(static_cast<int>(kind)));
        ++file;
      } else {
        error(std::string("unknown letter '") + c + "' (pieces are P B R Q M K, digits 1-8)");
      }
    }
    if (file != 8)
      error("rank " + std::to_string(rank + 1) + " ('" + std::string(ranks[i]) + "') has " +
            std::to_string(file) + " squares, expected 8");
  }
  return board;
}

int read_counter(std::string_view fen, std::string_view field, std::string_view name) {
  int value = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (error != std::errc() || end != field.data() + field.size() || value < 0 || value > 65535)
    fail(fen, std::string(name) + " '" + std::string(field) + "' is not a number in [0, 65535]");
  return value;
}

}  // namespace

std::array<Piece, 64> parse_placement(std::string_view text) {
  return read_placement(text, "knightmate: invalid placement '" + excerpt(text) + "': ");
}

std::string placement_to_string(const std::array<Piece, 64>& board) {
  std::string out;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const Piece p = board[kGrid.square(file, rank)];
      if (p == kNoPiece) {
        ++empty;
        continue;
      }
      if (empty) out += static_cast<char>('0' + empty);
      empty = 0;
      out += piece_letter(p);
    }
    if (empty) out += static_cast<char>('0' + empty);
    if (rank) out += '/';
  }
  return out;
}

Position parse_fen(std::string_view fen) {
  const std::vector<std::string_view> fields = split_words(fen);
  if (fields.size() < 2 || fields.size() > 6)
    fail(fen, "expected 2 to 6 fields (placement, side, castling, en passant, clocks), got " +
                  std::to_string(fields.size()));

  Position p{};
  const std::array<Piece, 64> board =
      read_placement(fields[0], "knightmate: invalid FEN '" + std::string(fen) + "': ");
  for (int square = 0; square < 64; ++square)
    if (board[square] != kNoPiece) p.put(board[square], square);
  for (const Color c : {kWhite, kBlack}) {
    const int royals = std::popcount(p.pieces(c, kRoyal));
    if (royals != 1)
      fail(fen, std::string(kColorNames[c]) + " has " + std::to_string(royals) +
                    " royal knights, expected exactly one");
    if (std::popcount(p.colors[c]) > 16 || std::popcount(p.pieces(c, kPawn)) > 8)
      fail(fen, std::string(kColorNames[c]) + " has more than 16 pieces or more than 8 pawns");
  }
  if (p.kinds[kPawn] & (kRank1 | kRank8))
    fail(fen, "a pawn stands on " + kGrid.name(lsb(p.kinds[kPawn] & (kRank1 | kRank8))) +
                  ": pawns cannot be on the first or last rank");

  if (fields[1] != "w" && fields[1] != "b")
    fail(fen, "side to move '" + std::string(fields[1]) + "' is not 'w' or 'b'");
  p.side = fields[1] == "w" ? kWhite : kBlack;

  const std::string_view castling = fields.size() > 2 ? fields[2] : "-";
  if (castling != "-") {
    struct Right {
      char letter;
      uint8_t bit;
      Color color;
      int royal, rook;
    };
    constexpr Right kRights[4] = {{'K', kWhiteShort, kWhite, 4, 7},
                                  {'Q', kWhiteLong, kWhite, 4, 0},
                                  {'k', kBlackShort, kBlack, 60, 63},
                                  {'q', kBlackLong, kBlack, 60, 56}};
    for (const char c : castling) {
      const Right* right = nullptr;
      for (const Right& r : kRights)
        if (r.letter == c) right = &r;
      if (!right)
        fail(fen, std::string("castling field '") + std::string(castling) + "' has '" + c +
                      "' (expected '-' or letters from KQkq)");
      if (p.castling & right->bit)
        fail(fen, std::string("castling right '") + c + "' is given twice");
      if (p.board[right->royal] != make_piece(right->color, kRoyal) ||
          p.board[right->rook] != make_piece(right->color, kRook))
        fail(fen, std::string("castling right '") + c + "' needs the royal knight on " +
                      kGrid.name(right->royal) + " and a rook on " + kGrid.name(right->rook));
      p.castling |= right->bit;
    }
  }
  p.key ^= zobrist::kKeys.castling[p.castling];

  p.en_passant = kNoSquare;
  const std::string_view en_passant = fields.size() > 3 ? fields[3] : "-";
  if (en_passant != "-") {
    const auto square = kGrid.parse(en_passant);
    if (!square) fail(fen, "en-passant field '" + std::string(en_passant) + "' is not a square");
    const Color us = p.to_move();
    const int up = us == kWhite ? 8 : -8;
    if (kGrid.rank_of(*square) != (us == kWhite ? 5 : 2) ||
        p.board[*square - up] != make_piece(~us, kPawn) || p.board[*square] != kNoPiece ||
        p.board[*square + up] != kNoPiece)
      fail(fen, "impossible en-passant square " + std::string(en_passant) + ": no " +
                    kColorNames[~us] + " pawn can just have passed it with a double step");
    if (kPawnAttacks[~us][*square] & p.pieces(us, kPawn)) {
      p.en_passant = static_cast<uint8_t>(*square);
      p.key ^= zobrist::kKeys.en_passant[kGrid.file_of(*square)];
    }
  }
  p.halfmove =
      static_cast<uint16_t>(fields.size() > 4 ? read_counter(fen, fields[4], "halfmove clock") : 0);
  p.fullmove = static_cast<uint16_t>(
      std::max(1, fields.size() > 5 ? read_counter(fen, fields[5], "fullmove number") : 1));
  if (p.side == kBlack) p.key ^= zobrist::kKeys.black_to_move;

  const Color waiting = ~p.to_move();
  if (p.attackers_to(p.royal(waiting), p.occupied()) & p.colors[p.to_move()])
    fail(fen, std::string(kColorNames[waiting]) + " is not to move but its royal knight on " +
                  kGrid.name(p.royal(waiting)) + " is in check");
  p.refresh();
  return p;
}

std::string to_fen(const Position& p) {
  std::string fen = placement_to_string(p.board);
  fen += p.side == kWhite ? " w " : " b ";
  if (!p.castling) fen += '-';
  for (const auto& [bit, letter] : {std::pair{kWhiteShort, 'K'}, std::pair{kWhiteLong, 'Q'},
                                    std::pair{kBlackShort, 'k'}, std::pair{kBlackLong, 'q'}})
    if (p.castling & bit) fen += letter;
  fen += ' ';
  fen += p.en_passant == kNoSquare ? "-" : kGrid.name(p.en_passant);
  fen += ' ';
  fen += std::to_string(p.halfmove);
  fen += ' ';
  fen += std::to_string(p.fullmove);
  return fen;
}

std::string move_to_uci(Move m) {
  std::string text = kGrid.name(move_from(m)) + kGrid.name(move_to(m));
  if (is_promotion(m)) text += kLetters[promotion_kind(m)];
  return text;
}

}  // namespace knightgym::knightmate
