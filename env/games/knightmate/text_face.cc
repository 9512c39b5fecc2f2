// Knightmate's text face (env/core/game.h): UCI moves as actions, the board as text, the
// FEN and UCI position of a state, and the state's key=value form, read back with every
// field checked.
#include "env/games/knightmate/knightmate.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "env/core/key_values.h"
#include "env/games/knightmate/fen.h"
#include "util/text.h"

namespace knightgym {
namespace {

using namespace knightmate;

constexpr const char* kColorNames[2] = {"White", "Black"};

constexpr const char* kReasonNames[] = {
    "", "checkmate", "stalemate", "fifty-move rule", "threefold repetition", "bare royal knights"};

// Reads deserialize's moves field into `s`, read but for it: the moves must lead from an
// earlier position, by plain piece moves, through the positions of the keys field to
// the current one.
void read_moves(Knightmate::State& s, const std::vector<std::string_view>& moves,
                const KeyValues& fields) {
  const int count = static_cast<int>(moves.size());
  if (count == 0) return;
  const auto fail = [&](std::string_view move, const std::string& why) {
    fields.fail("move '" + std::string(move) + "' of the moves field " + why);
  };
  // Bounds first: each listed move advanced the halfmove clock and the turns.
  const int most = std::min({static_cast<int>(s.position.halfmove), s.turns, 100});
  if (count > most)
    fields.fail("expected at most " + std::to_string(most) +
                " moves (the smallest of the halfmove clock, turns and 100), got " +
                std::to_string(count));
  if (s.position.en_passant != kNoSquare)
    fields.fail(
        "lists moves, but the position has an en-passant square, so its last move "
        "was a pawn's double step, which the list cannot hold");

  // Take the moves back from the current position to the one they start from.
  std::vector<Move> parsed(moves.size());
  Position root = s.position;
  for (int i = count - 1; i >= 0; --i) {
    const std::string_view text = moves[i];
    const auto from = text.size() == 4 ? kGrid.parse(text.substr(0, 2)) : std::nullopt;
    const auto to = text.size() == 4 ? kGrid.parse(text.substr(2, 2)) : std::nullopt;
    if (!from || !to) fail(text, "is not a reversible UCI move (from and to squares, e.g. g1f3)");
    const Piece piece = root.board[*to];
    if (piece == kNoPiece || color_of(piece) == root.to_move() || root.board[*from] != kNoPiece)
      fail(text, "cannot be taken back: " + kGrid.name(*to) + " holds no piece of the side that " +
                     "moved, or " + kGrid.name(*from) + " is occupied, in " + to_fen(root));
    if (kind_of(piece) == kPawn) fail(text, "is a pawn move, which is not reversible");
    if (root.side == kWhite && root.fullmove <= 1)
      fail(text, "takes the game back before fullmove 1");
    parsed[i] = make_move(*from, *to);
    root.unplay_reversible(parsed[i]);
  }
  try {
    root = parse_fen(to_fen(root));
  } catch (const std::invalid_argument& error) {
    fields.fail(std::string("the moves start from an impossible position: ") + error.what());
  }

  // Play them forward with every check: legal, reversible, through the positions whose
  // keys the keys field holds, to the current position.
  Position p = root;
  for (int i = 0; i < count; ++i) {
    Move legal[kMaxMoves];
    const int legal_count = p.legal_moves(legal);
    if (std::find(legal, legal + legal_count, parsed[i]) == legal + legal_count)
      fail(moves[i], "is not a legal move in " + to_fen(p));
    const uint8_t castling = p.castling;
    const int turn = s.turns - count + i;
    if (p.key != s.keys[turn % Knightmate::kKeyHistory])
      fields.fail("the position before move '" + std::string(moves[i]) + "', " + to_fen(p) +
                  ", does not have the keys field's key for turn " + std::to_string(turn));
    p.play(parsed[i]);
    if (p.halfmove == 0 || p.castling != castling)
      fail(moves[i], "is not reversible: it captures or changes castling rights");
  }
  if (p.key != s.position.key || to_fen(p) != to_fen(s.position))
    fields.fail("the moves from " + to_fen(root) + " end in " + to_fen(p) + ", not in the FEN");
  for (int i = 0; i < count; ++i)
    s.moves[(s.turns - count + i) % Knightmate::kKeyHistory] = parsed[i];
  s.reversible_since = s.turns - count;
}

// The moves listed since turn reversible_since, oldest first, as UCI moves.
std::string uci_moves(const Knightmate::State& s, char separator) {
  std::string out;
  for (int turn = s.reversible_since; turn < s.turns; ++turn) {
    if (turn > s.reversible_since) out += separator;
    out += move_to_uci(s.moves[turn % Knightmate::kKeyHistory]);
  }
  return out;
}

}  // namespace

std::string Knightmate::action_to_string(const State& s, Action action) const {
  const Move move = decode_action(s.position, action);
  if (move != 0) return move_to_uci(move);
  // Not a move of one of the mover's pieces: name its squares all the same.
  const int flip = s.position.side == kWhite ? 0 : 56;
  const int from = action / kNumPlanes, plane = action % kNumPlanes;
  const int to = action_target(from, plane);
  if (to < 0) return "off-board(" + kGrid.name(from ^ flip) + "," + std::to_string(plane) + ")";
  return move_to_uci(make_move(from ^ flip, to ^ flip));
}

Action Knightmate::string_to_action(const State& s, std::string_view text) const {
  const auto fail = [&](const std::string& why) -> void {
    throw std::invalid_argument("knightmate: '" + excerpt(text) + "' " + why);
  };
  const bool well_formed =
      (text.size() == 4 || text.size() == 5) && kGrid.parse(text.substr(0, 2)) &&
      kGrid.parse(text.substr(2, 2)) &&
      (text.size() == 4 || std::string_view("qrbm").find(text[4]) != std::string_view::npos);
  if (!well_formed)
    fail(text.size() == 5 && text[4] == 'n'
             ? "promotes to a knight, which Knightmate does not have (use q, r, b or m)"
             : "is not a UCI move (from and to squares, then q, r, b or m for a promotion, "
               "e.g. e2e4, b7b8m, e1g1 to castle)");
  if (terminal(s)) fail("cannot be played: the game is over");
  Move moves[kMaxMoves];
  const int count = s.position.legal_moves(moves);
  for (int i = 0; i < count; ++i)
    if (move_to_uci(moves[i]) == text) return encode_move(moves[i], s.position.to_move());
  fail("is not a legal move in " + to_fen(s.position));
  return 0;
}

std::string Knightmate::render(const State& s) const {
  const Position& p = s.position;
  std::string out;
  for (int rank = 7; rank >= 0; --rank) {
    out += static_cast<char>('1' + rank);
    for (int file = 0; file < 8; ++file) {
      const Piece piece = p.board[kGrid.square(file, rank)];
      char cell[3] = {' ', '.', 0};
      if (piece != kNoPiece) {
        cell[1] = "pbrqmk"[kind_of(piece)];
        if (color_of(piece) == kWhite) cell[1] = static_cast<char>(cell[1] - 'a' + 'A');
      }
      out += cell;
    }
    out += '\n';
  }
  out += "  a b c d e f g h\n";
  out += "FEN " + to_fen(p) + "\n";
  char status[96];
  if (terminal(s)) {
    float values[2];
    returns(s, values);
    std::snprintf(
        status, sizeof status, "over after %d turns: %s, %s", s.turns,
        truncated(s) ? "truncated at max_turns" : kReasonNames[static_cast<int>(s.reason)],
        values[0] > 0   ? "White wins"
        : values[0] < 0 ? "Black wins"
                        : "draw");
  } else {
    std::snprintf(status, sizeof status, "turn %d of %d: %s to move%s", s.turns, params_.max_turns,
                  kColorNames[p.side], p.in_check() ? ", in check" : "");
  }
  return out + status;
}

std::string Knightmate::fen(const State& s) const { return to_fen(s.position); }

std::string Knightmate::uci_position(const State& s) const {
  Position root = s.position;
  for (int turn = s.turns - 1; turn >= s.reversible_since; --turn)
    root.unplay_reversible(s.moves[turn % kKeyHistory]);
  const std::string moves = uci_moves(s, ' ');
  return "fen " + to_fen(root) + (moves.empty() ? "" : " moves " + moves);
}

std::string Knightmate::serialize(const State& s) const {
  // The FEN, then what a FEN lacks: the turns played, the position keys the repetition
  // rule still looks back on (oldest first), the earlier placements the observation
  // stacks with their repetition counts (latest first), and the moves uci_position lists
  // (oldest first).
  std::string out = "fen=[" + to_fen(s.position) + "] turns=" + std::to_string(s.turns) + " keys=";
  const int reach = std::min<int>(s.position.halfmove, s.turns);
  for (int back = reach; back >= 1; --back) {
    char hex[20];
    std::snprintf(hex, sizeof hex, "%s%016llx", back == reach ? "" : ",",
                  static_cast<unsigned long long>(s.keys[(s.turns - back) % kKeyHistory]));
    out += hex;
  }
  out += " history=";
  for (int t = 1; t < params_.history && t <= s.turns; ++t) {
    const Snapshot& past = s.snapshots[(s.turns - t) % kMaxHistory];
    std::array<Piece, 64> board{};
    for (int kind = 0; kind < kNumKinds; ++kind)
      for (const Color c : {kWhite, kBlack})
        for (Bitboard b = past.kinds[kind] & past.colors[c]; b;)
          board[pop_lsb(b)] = make_piece(c, Kind(kind));
    if (t > 1) out += ',';
    out += placement_to_string(board);
    out += ':';
    out += static_cast<char>('0' + past.repetitions);
  }
  return out + " moves=" + uci_moves(s, ',');
}

Knightmate::State Knightmate::deserialize(std::string_view text) const {
  // `moves` came later: a text without it lists no moves.
  const KeyValues fields(
      text, "knightmate: cannot read state: ", {"fen", "turns", "keys", "history"}, {"moves"});
  // An empty list is no items; "a,,b" has an empty one, which the item checks refuse.
  const auto items = [](std::string_view list) {
    return list.empty() ? std::vector<std::string_view>{} : split(list, ',');
  };
  State s{};
  try {
    s.position = parse_fen(fields.get("fen"));
  } catch (const std::invalid_argument& error) {
    fields.fail(error.what());
  }
  s.turns = fields.integer("turns", 0, params_.max_turns);

  const std::vector<std::string_view> keys = items(fields.get("keys"));
  const int expected_keys = std::min<int>(s.position.halfmove, s.turns);
  if (static_cast<int>(keys.size()) != expected_keys)
    fields.fail("expected " + std::to_string(expected_keys) +
                " keys (the smaller of the halfmove clock and turns), got " +
                std::to_string(keys.size()));
  for (size_t i = 0; i < keys.size(); ++i) {
    uint64_t key = 0;
    const auto [key_end, key_error] =
        std::from_chars(keys[i].data(), keys[i].data() + keys[i].size(), key, 16);
    if (key_error != std::errc() || key_end != keys[i].data() + keys[i].size())
      fields.fail("key '" + std::string(keys[i]) + "' is not hexadecimal");
    s.keys[(s.turns - static_cast<int>(keys.size() - i)) % kKeyHistory] = key;
    add_to_filter(s.key_filter, key);
  }
  s.keys[s.turns % kKeyHistory] = s.position.key;

  const std::vector<std::string_view> history = items(fields.get("history"));
  if (static_cast<int>(history.size()) != std::min(params_.history - 1, s.turns))
    fields.fail("expected " + std::to_string(std::min(params_.history - 1, s.turns)) +
                " earlier positions, got " + std::to_string(history.size()));
  for (size_t t = 1; t <= history.size(); ++t) {
    const std::string_view item = history[t - 1];
    if (item.size() < 3 || item[item.size() - 2] != ':' || item.back() < '0' || item.back() > '2')
      fields.fail("history item '" + std::string(item) + "' is not PLACEMENT:REPETITIONS (0-2)");
    Position past{};
    try {
      const auto board = parse_placement(item.substr(0, item.size() - 2));
      for (int square = 0; square < 64; ++square)
        if (board[square] != kNoPiece) past.put(board[square], square);
    } catch (const std::invalid_argument& e) {
      fields.fail(e.what());
    }
    s.snapshots[(s.turns - static_cast<int>(t)) % kMaxHistory] = snapshot(past, item.back() - '0');
  }

  s.reversible_since = s.turns;
  if (fields.has("moves")) read_moves(s, items(fields.get("moves")), fields);
  settle(s);
  return s;
}

}  // namespace knightgym
