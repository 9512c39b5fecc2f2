// Differential test of the Knights Double-Duel engine (env/games/double_duel) against an
// independent reference written here from the rules text (docs/rules/double_duel.md and
// the decisions the project fixed where the original text is open).
//
// What is checked: for each of the 16 combinations of the four extensions
// (neighbor_attack, switch_move, single_pawn_blocks, double_free_pawn_moves) random games
// are played, choosing uniformly among the ENGINE's legal actions. Every chosen action is
// applied to the engine and, as its string ("a1".."f6", "reserve", "stop"), to the
// reference. At every decision the engine's set of legal action strings must equal the
// reference's set, the player to decide must agree, and the engine's public board
// (knights, single and double pawns, reserves, turn count) must equal the reference's
// board. When the engine says the game is over the reference must say so too, with the
// same winner or truncated draw, and the engine's returns must follow from it.
// Games per combination: 10 * KNIGHTGYM_CONFORMANCE_GAMES (default 1000), at least 10.
//
// Why the reference is independent: it includes nothing from env/games/double_duel/ and
// shares no tables or helpers with the engine. It keeps a plain array of 36 cells (owner,
// knight id, pawn count), reserves, and per-knight bookkeeping (where each knight stands,
// whether it is alive, in which turn it last moved), and computes every option with plain
// loops over the 8 knight leaps, the 8 neighbours and the 36 fields, following the rules
// text literally. Neighbour-attack rights, in particular, are kept by knight identity
// ("K was not captured and E did not move since the right was made, and this is P's very
// next turn") rather than by fields as in the engine. Only the driver below uses the
// engine, through its public API; action strings are parsed by the reference's own code.
#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "env/core/rng.h"
#include "env/games/double_duel/double_duel.h"
#include "tests/cpp/env/games/game_test_helpers.h"
#include "tests/cpp/env/registry/conformance_specs.h"

namespace knightgym {
namespace {

// ---------------------------------------------------------------------------------------
// The reference: the rules, written out plainly. Nothing here uses the engine.
// ---------------------------------------------------------------------------------------
namespace reference {

constexpr int kSide = 6;
constexpr int kFields = kSide * kSide;
constexpr int kNobody = -1;
constexpr int kWhite = 0;
constexpr int kBlack = 1;
constexpr int kKnightsPerSide = 2;
constexpr int kPawnsPerSide = 8;
// Action tokens: 0..35 a field ((rank - 1) * 6 + file), then these two.
constexpr int kReserveToken = kFields;
constexpr int kStopToken = kFields + 1;
constexpr int kNumTokens = kFields + 2;

struct Options {
  bool neighbor_attack = false;
  bool switch_move = false;
  bool single_pawn_blocks = false;
  bool double_free_pawn_moves = false;
  int max_turns = 200;
};

// One field: empty (owner kNobody), one knight (knight = its id), or one or two pawns.
struct Cell {
  int owner = kNobody;
  int knight = -1;  // id 0..3 of the knight here (0, 1 White; 2, 3 Black), else -1
  int pawns = 0;    // 0, 1 or 2
};

int field_of(int rank, int file) { return rank * kSide + file; }
int rank_of(int field) { return field / kSide; }
int file_of(int field) { return field % kSide; }
bool on_board(int rank, int file) { return rank >= 0 && rank < kSide && file >= 0 && file < kSide; }

constexpr int kLeaps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                              {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};

bool are_neighbours(int a, int b) {
  const int dr = rank_of(a) - rank_of(b), df = file_of(a) - file_of(b);
  return a != b && dr >= -1 && dr <= 1 && df >= -1 && df <= 1;
}

std::string token_name(int token) {
  if (token == kReserveToken) return "reserve";
  if (token == kStopToken) return "stop";
  std::string name(2, ' ');
  name[0] = static_cast<char>('a' + file_of(token));
  name[1] = static_cast<char>('1' + rank_of(token));
  return name;
}

// The token of an action string, or -1 if it is none.
int parse_token(std::string_view text) {
  if (text == "reserve") return kReserveToken;
  if (text == "stop") return kStopToken;
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'f' || text[1] < '1' || text[1] > '6')
    return -1;
  return field_of(text[1] - '1', text[0] - 'a');
}

// What the mover decides next.
enum class Decision { kKnight, kKnightTarget, kFill, kFreePawn, kFreeTarget, kSecondFreePawn };

constexpr const char* kDecisionNames[] = {"knight",    "knight target", "fill",
                                          "free pawn", "free target",   "second free pawn"};

// Neighbour-attack rights made by one player's newest step 1.
struct Rights {
  int made_in_turn = -100;  // the turn (value of `turns`) of that step 1
  int attacker = -1;        // the knight K that made it
  int count = 0;
  int targets[kKnightsPerSide] = {-1, -1};  // the enemy knights E next to K's landing field
};

class Game {
 public:
  explicit Game(const Options& options) : options_(options) {
    // Home ranks: a 2 pawns, b knight, c 2 pawns, d 2 pawns, e knight, f 2 pawns.
    for (int player = kWhite; player <= kBlack; ++player) {
      const int rank = player == kWhite ? 0 : kSide - 1;
      for (int file = 0; file < kSide; ++file) {
        Cell& cell = board_[field_of(rank, file)];
        cell.owner = player;
        if (file == 1 || file == 4) {
          const int id = player * kKnightsPerSide + (file == 1 ? 0 : 1);
          cell.knight = id;
          knight_field_[id] = field_of(rank, file);
          knight_alive_[id] = true;
        } else {
          cell.pawns = 2;
        }
      }
    }
  }

  bool over() const { return over_; }
  bool truncated() const { return truncated_; }
  int winner() const { return winner_; }
  int to_move() const { return to_move_; }
  int turns() const { return turns_; }
  int reserve(int player) const { return reserve_[player]; }
  const Cell& cell(int field) const { return board_[field]; }
  Decision decision() const { return decision_; }
  int selected() const { return selected_; }

  // The legal actions: bit t = token t.
  uint64_t legal() const {
    uint64_t set = 0;
    if (over_) return set;
    const int me = to_move_;
    switch (decision_) {
      case Decision::kKnight:
        for (int field = 0; field < kFields; ++field)
          if (board_[field].owner == me && board_[field].knight >= 0 && knight_targets(field) != 0)
            set |= bit(field);
        return set;
      case Decision::kKnightTarget:
        return knight_targets(selected_);
      case Decision::kFill:
        return fill_sources();
      case Decision::kFreePawn:
        return free_sources();
      case Decision::kFreeTarget:
        return free_targets(selected_);
      case Decision::kSecondFreePawn:
        return free_sources() | bit(kStopToken);
    }
    return set;
  }

  // Applies the action named `text`; false (and nothing changes) if it is not legal here.
  bool apply(std::string_view text) {
    const int token = parse_token(text);
    if (token < 0 || !(legal() & bit(token))) return false;
    const int me = to_move_;
    switch (decision_) {
      case Decision::kKnight:
        selected_ = token;
        decision_ = Decision::kKnightTarget;
        return true;
      case Decision::kKnightTarget:
        knight_step(selected_, token);
        return true;
      case Decision::kFill:
        // Step 2: the pawn comes from the reserve or from the field named.
        if (token == kReserveToken)
          --reserve_[me];
        else
          take_pawn(token);
        put_pawn(vacated_, me);
        if (free_step_ && free_sources() != 0)
          decision_ = Decision::kFreePawn;
        else
          end_turn();
        return true;
      case Decision::kFreePawn:
        selected_ = token;
        decision_ = Decision::kFreeTarget;
        return true;
      case Decision::kSecondFreePawn:
        if (token == kStopToken) {
          end_turn();
          return true;
        }
        selected_ = token;
        decision_ = Decision::kFreeTarget;
        return true;
      case Decision::kFreeTarget:
        take_pawn(selected_);
        put_pawn(token, me);
        selected_ = -1;
        ++free_moves_;
        if (options_.double_free_pawn_moves && free_moves_ == 1 && free_sources() != 0)
          decision_ = Decision::kSecondFreePawn;
        else
          end_turn();
        return true;
    }
    return false;
  }

  // Pawns of `player` on the board and in reserve (always 8).
  int pawn_total(int player) const {
    int total = reserve_[player];
    for (const Cell& c : board_)
      if (c.owner == player) total += c.pawns;
    return total;
  }

  std::string describe() const {
    std::ostringstream out;
    out << "reference: turn " << turns_ << ", reserves " << reserve_[0] << "/" << reserve_[1]
        << ", to move " << to_move_ << ", decision " << kDecisionNames[static_cast<int>(decision_)]
        << ", selected " << (selected_ >= 0 ? token_name(selected_) : "-") << ", vacated "
        << (vacated_ >= 0 ? token_name(vacated_) : "-") << ", free step " << free_step_
        << ", free moves " << free_moves_ << "\n";
    for (int player = kWhite; player <= kBlack; ++player) {
      const Rights& r = rights_[player];
      out << "  rights of " << player << ": made in turn " << r.made_in_turn << " by knight "
          << r.attacker << " against";
      for (int i = 0; i < r.count; ++i) out << ' ' << r.targets[i];
      out << "\n";
    }
    for (int id = 0; id < 2 * kKnightsPerSide; ++id)
      out << "  knight " << id << ": "
          << (knight_alive_[id] ? token_name(knight_field_[id]) : std::string("captured"))
          << ", last moved in turn " << knight_moved_in_[id] << "\n";
    return out.str();
  }

 private:
  static uint64_t bit(int token) { return uint64_t{1} << token; }

  // Step 1 destinations of the knight on `from` (its owner is to move).
  uint64_t knight_targets(int from) const {
    const int me = to_move_, enemy = 1 - me;
    uint64_t set = 0;
    for (const auto& leap : kLeaps) {
      const int rank = rank_of(from) + leap[0], file = file_of(from) + leap[1];
      if (!on_board(rank, file)) continue;
      const int to = field_of(rank, file);
      const Cell& c = board_[to];
      if (c.owner == kNobody) {
        set |= bit(to);  // empty
      } else if (c.owner == enemy) {
        if (c.knight >= 0) set |= bit(to);  // an enemy knight: captured
        if (c.pawns == 1 && !options_.single_pawn_blocks) set |= bit(to);  // a single pawn
        // two enemy pawns: closed
      } else if (options_.switch_move && c.knight < 0 && c.pawns == 2) {
        set |= bit(to);  // two own pawns: the Switch-Move
      }
    }
    // Neighbour attack: the knight holding rights steps onto an enemy knight it may attack.
    if (options_.neighbor_attack) {
      const int id = board_[from].knight;
      for (int i = 0; i < rights_[me].count; ++i)
        if (right_holds(me, id, rights_[me].targets[i]))
          set |= bit(knight_field_[rights_[me].targets[i]]);
    }
    return set;
  }

  // Whether `player` may now attack enemy knight `target` with its knight `attacker`: the
  // right was made by this knight in the player's previous turn (this is its very next
  // turn), the knight was not captured since, and the target was neither captured nor moved
  // since the right was made.
  bool right_holds(int player, int attacker, int target) const {
    const Rights& r = rights_[player];
    return r.attacker == attacker && turns_ == r.made_in_turn + 2 && knight_alive_[attacker] &&
           knight_moved_in_[attacker] == r.made_in_turn && knight_alive_[target] &&
           knight_moved_in_[target] < r.made_in_turn &&
           are_neighbours(knight_field_[attacker], knight_field_[target]);
  }

  // Step 1 from `from` to `to` (a leap, a neighbour attack or a Switch-Move).
  void knight_step(int from, int to) {
    const int me = to_move_, enemy = 1 - me;
    const int id = board_[from].knight;
    const Cell target = board_[to];
    const bool is_switch = target.owner == me;  // only two own pawns can be there
    if (!is_switch) {
      if (target.knight >= 0) knight_alive_[target.knight] = false;  // out for good
      if (target.pawns == 1) ++reserve_[enemy];  // a captured pawn goes to its reserve
    }
    board_[to] = Cell{me, id, 0};
    board_[from] = Cell{};
    knight_field_[id] = to;
    knight_moved_in_[id] = turns_;
    vacated_ = from;
    selected_ = -1;
    // Rights: every enemy knight next to the landing field, for this player's next turn.
    Rights rights;
    if (options_.neighbor_attack) {
      rights.made_in_turn = turns_;
      rights.attacker = id;
      for (int e = enemy * kKnightsPerSide; e < (enemy + 1) * kKnightsPerSide; ++e)
        if (knight_alive_[e] && are_neighbours(to, knight_field_[e]))
          rights.targets[rights.count++] = e;
    }
    rights_[me] = rights;
    if (is_switch) {
      // One pawn to the field the knight left, the other to the reserve; no steps 2 and 3.
      put_pawn(from, me);
      ++reserve_[me];
      end_turn();
      return;
    }
    // Step 3 follows only if no pawn was captured (the field was empty or held a knight).
    free_step_ = target.pawns == 0;
    decision_ = Decision::kFill;
  }

  // Step 2 sources: the reserve, else fields of two own pawns, else of one own pawn.
  uint64_t fill_sources() const {
    const int me = to_move_;
    if (reserve_[me] > 0) return bit(kReserveToken);
    uint64_t doubles = 0, singles = 0;
    for (int field = 0; field < kFields; ++field) {
      const Cell& c = board_[field];
      if (c.owner != me || c.knight >= 0) continue;
      if (c.pawns == 2) doubles |= bit(field);
      if (c.pawns == 1) singles |= bit(field);
    }
    return doubles != 0 ? doubles : singles;
  }

  // Own pawns on `field` that step 3 may move: all but the step-2 pawn on the vacated field.
  int movable_pawns(int field) const {
    const Cell& c = board_[field];
    if (c.owner != to_move_ || c.knight >= 0) return 0;
    return c.pawns - (field == vacated_ ? 1 : 0);
  }

  // Step 3 destinations of a pawn on `from`: any other field, empty or with one own pawn.
  uint64_t free_targets(int from) const {
    uint64_t set = 0;
    for (int field = 0; field < kFields; ++field) {
      if (field == from) continue;
      const Cell& c = board_[field];
      if (c.owner == kNobody || (c.owner == to_move_ && c.knight < 0 && c.pawns == 1))
        set |= bit(field);
    }
    return set;
  }

  // Step 3 sources: fields with a movable own pawn that has a destination.
  uint64_t free_sources() const {
    uint64_t set = 0;
    for (int field = 0; field < kFields; ++field)
      if (movable_pawns(field) > 0 && free_targets(field) != 0) set |= bit(field);
    return set;
  }

  void take_pawn(int field) {
    Cell& c = board_[field];
    if (--c.pawns == 0) c = Cell{};
  }

  void put_pawn(int field, int player) {
    Cell& c = board_[field];
    c.owner = player;
    ++c.pawns;
  }

  // The turn ends; the other player loses at once without a legal step 1, else the cap.
  void end_turn() {
    ++turns_;
    to_move_ = 1 - to_move_;
    decision_ = Decision::kKnight;
    selected_ = vacated_ = -1;
    free_step_ = false;
    free_moves_ = 0;
    bool can_move = false;
    for (int field = 0; field < kFields; ++field)
      if (board_[field].owner == to_move_ && board_[field].knight >= 0 &&
          knight_targets(field) != 0)
        can_move = true;
    if (!can_move) {
      over_ = true;
      winner_ = 1 - to_move_;
    } else if (turns_ >= options_.max_turns) {
      over_ = true;
      truncated_ = true;
    }
  }

  Options options_;
  Cell board_[kFields];
  int reserve_[2] = {0, 0};
  int knight_field_[2 * kKnightsPerSide] = {-1, -1, -1, -1};
  bool knight_alive_[2 * kKnightsPerSide] = {false, false, false, false};
  int knight_moved_in_[2 * kKnightsPerSide] = {-100, -100, -100, -100};
  Rights rights_[2];
  int turns_ = 0;
  int to_move_ = kWhite;
  Decision decision_ = Decision::kKnight;
  int selected_ = -1;
  int vacated_ = -1;
  bool free_step_ = false;
  int free_moves_ = 0;
  bool over_ = false;
  bool truncated_ = false;
  int winner_ = kNobody;
};

}  // namespace reference

// ---------------------------------------------------------------------------------------
// The driver: plays the engine and the reference side by side.
// ---------------------------------------------------------------------------------------

using testing::joined;

std::vector<std::string> token_names(uint64_t set) {
  std::vector<std::string> names;
  for (int token = 0; token < reference::kNumTokens; ++token)
    if ((set >> token) & 1) names.push_back(reference::token_name(token));
  std::sort(names.begin(), names.end());
  return names;
}

// Whether the engine's public board equals the reference's.
bool same_board(const DoubleDuel::State& s, const reference::Game& ref) {
  for (int player = 0; player < 2; ++player) {
    if (s.reserve[player] != ref.reserve(player)) return false;
    uint64_t knights = 0, singles = 0, doubles = 0;
    for (int field = 0; field < reference::kFields; ++field) {
      const reference::Cell& c = ref.cell(field);
      if (c.owner != player) continue;
      if (c.knight >= 0) knights |= uint64_t{1} << field;
      if (c.pawns == 1) singles |= uint64_t{1} << field;
      if (c.pawns == 2) doubles |= uint64_t{1} << field;
    }
    if (s.knights[player] != knights || s.singles[player] != singles ||
        s.doubles[player] != doubles)
      return false;
  }
  return s.turns == ref.turns();
}

// Counts of what the games exercised, so a combination cannot pass vacuously.
struct Coverage {
  long decisions = 0;
  long wins = 0, draws = 0;
  long switches = 0, attacks = 0, pawn_captures = 0, reserve_fills = 0, second_free = 0, stops = 0;
};

void check_combination(bool neighbor_attack, bool switch_move, bool single_pawn_blocks,
                       bool double_free_pawn_moves) {
  DoubleDuel::Params params;
  params.neighbor_attack = neighbor_attack;
  params.switch_move = switch_move;
  params.single_pawn_blocks = single_pawn_blocks;
  params.double_free_pawn_moves = double_free_pawn_moves;
  reference::Options options;
  options.neighbor_attack = neighbor_attack;
  options.switch_move = switch_move;
  options.single_pawn_blocks = single_pawn_blocks;
  options.double_free_pawn_moves = double_free_pawn_moves;

  std::ostringstream name;
  name << "neighbor_attack=" << neighbor_attack << " switch_move=" << switch_move
       << " single_pawn_blocks=" << single_pawn_blocks
       << " double_free_pawn_moves=" << double_free_pawn_moves;
  const std::string combination = name.str();
  const uint64_t combination_seed = 0xdd00 + neighbor_attack * 8 + switch_move * 4 +
                                    single_pawn_blocks * 2 + double_free_pawn_moves * 1;

  const int games = std::max(10, 10 * testing::conformance_games());
  Coverage seen;
  Action actions[DoubleDuel::kMaxActions];
  std::string names[DoubleDuel::kMaxActions];
  int tokens[DoubleDuel::kMaxActions];

  for (int g = 0; g < games; ++g) {
    // Random games rarely last 200 turns: every fourth game has a short cap (1..40 turns),
    // so that truncation is exercised too.
    params.max_turns = g % 4 == 3 ? 1 + (g / 4) % 40 : 200;
    options.max_turns = params.max_turns;
    const DoubleDuel game(params);
    Rng rng(derive_seed(combination_seed, static_cast<uint64_t>(g)));
    DoubleDuel::State s;
    game.init(s, rng);
    reference::Game ref(options);
    for (int decision = 0;; ++decision) {
      // The full context is built only when something disagrees.
      const auto context = [&] {
        return combination + " max_turns=" + std::to_string(params.max_turns) + ", game " +
               std::to_string(g) + ", decision " + std::to_string(decision) +
               "\nengine: " + game.render(s) + ref.describe();
      };
      if (game.terminal(s)) {
        if (!ref.over() || ref.truncated() != game.truncated(s) ||
            (!ref.truncated() && ref.winner() != s.winner)) {
          INFO(context());
          INFO("reference over " << ref.over() << " truncated " << ref.truncated() << " winner "
                                 << ref.winner());
          REQUIRE(ref.over());
          REQUIRE(ref.truncated() == game.truncated(s));
          REQUIRE(ref.winner() == s.winner);
        }
        float returns[2];
        game.returns(s, returns);
        const float white = ref.truncated()                     ? 0.0f
                            : ref.winner() == reference::kWhite ? 1.0f
                                                                : -1.0f;
        if (returns[0] != white || returns[1] != -white) {
          INFO(context());
          REQUIRE(returns[0] == white);
          REQUIRE(returns[1] == -white);
        }
        if (ref.truncated())
          ++seen.draws;
        else
          ++seen.wins;
        break;
      }
      ++seen.decisions;
      const int n = game.legal_actions(s, actions);
      uint64_t engine_set = 0;
      bool parsed = true;
      for (int i = 0; i < n; ++i) {
        names[i] = game.action_to_string(s, actions[i]);
        tokens[i] = reference::parse_token(names[i]);
        if (tokens[i] < 0)
          parsed = false;
        else
          engine_set |= uint64_t{1} << tokens[i];
      }
      const uint64_t ref_set = ref.legal();
      // Duplicates in the engine's list show as a count above the set's size.
      if (!parsed || engine_set != ref_set || std::popcount(engine_set) != n || ref.over() ||
          game.current_player(s) != ref.to_move() || !same_board(s, ref) ||
          ref.pawn_total(0) != reference::kPawnsPerSide ||
          ref.pawn_total(1) != reference::kPawnsPerSide) {
        std::vector<std::string> engine_names(names, names + n);
        std::sort(engine_names.begin(), engine_names.end());
        INFO(context());
        INFO("engine actions:    " << joined(engine_names));
        INFO("reference actions: " << joined(token_names(ref_set)));
        REQUIRE_FALSE(ref.over());
        REQUIRE(engine_names == token_names(ref_set));
        REQUIRE(game.current_player(s) == ref.to_move());
        REQUIRE(same_board(s, ref));
        REQUIRE(ref.pawn_total(0) == reference::kPawnsPerSide);
        REQUIRE(ref.pawn_total(1) == reference::kPawnsPerSide);
      }

      const int k = static_cast<int>(rng.below(static_cast<uint32_t>(n)));
      // Coverage bookkeeping: what the chosen action does, seen from the reference's board.
      const int chosen = tokens[k];
      if (ref.decision() == reference::Decision::kKnightTarget) {
        const reference::Cell& c = ref.cell(chosen);
        if (c.owner == ref.to_move()) ++seen.switches;
        if (c.owner != ref.to_move() && c.pawns == 1) ++seen.pawn_captures;
        if (c.knight >= 0 && reference::are_neighbours(ref.selected(), chosen)) ++seen.attacks;
      }
      if (chosen == reference::kReserveToken) ++seen.reserve_fills;
      if (ref.decision() == reference::Decision::kSecondFreePawn) {
        if (chosen == reference::kStopToken)
          ++seen.stops;
        else
          ++seen.second_free;
      }
      game.apply(s, actions[k]);
      if (!ref.apply(names[k])) {
        INFO(context());
        FAIL("the reference refuses " << names[k]);
      }
    }
  }

  INFO(combination << ": " << games << " games, " << seen.decisions << " decisions, " << seen.wins
                   << " won, " << seen.draws << " truncated; " << seen.switches << " switches, "
                   << seen.attacks << " neighbour attacks, " << seen.pawn_captures
                   << " pawn captures, " << seen.reserve_fills << " reserve fills, "
                   << seen.second_free << " second free moves, " << seen.stops << " stops");
  REQUIRE(seen.decisions > 0);
  // With enough games each enabled rule must have come up (the sanitizer run plays fewer).
  if (games >= 1000) {
    CHECK(seen.wins > 0);
    CHECK(seen.draws > 0);
    // Pawns reach a reserve only by capture or by a Switch-Move.
    CHECK((seen.reserve_fills > 0) == (!single_pawn_blocks || switch_move));
    CHECK((seen.switches > 0) == switch_move);
    CHECK((seen.attacks > 0) == neighbor_attack);
    CHECK((seen.pawn_captures > 0) == !single_pawn_blocks);
    CHECK((seen.second_free > 0) == double_free_pawn_moves);
    CHECK((seen.stops > 0) == double_free_pawn_moves);
  }
}

// One test case per combination, so that ctest can run them in parallel.
#define KNIGHTGYM_DOUBLE_DUEL_REFERENCE_CASE(NA, SW, SPB, DF)                               \
  TEST_CASE("Double-Duel legal actions match the reference rules with neighbor_attack=" #NA \
            " switch_move=" #SW " single_pawn_blocks=" #SPB " double_free_pawn_moves=" #DF, \
            "[double_duel][reference]") {                                                   \
    check_combination(NA, SW, SPB, DF);                                                     \
  }

KNIGHTGYM_DOUBLE_DUEL_REFERENCE_CASE(0, 0, 0, 0)
KNIGHTGYM_DOUBLE_DUEL_REFERENCE_CASE(0, 0, 0, 1)
KNIGHTGYM_DOUBLE_DUEL_REFERENCE_CASE(0, 0, 1, 0)
KNIGHTGYM_DOUBLE_DUEL_REFERENCE_CASE(0, 0, 1, 1)
KNIGHTGYM_DOUBLE_DUEL_REFERENCE_CASE(0, 1, 0, 0)
KNIGHTGYM_DOUBLE_DUEL_REFERENCE_CASE(0, 1, 0, 1)
KNIGHTGYM_DOUBLE_DUEL_REFERENCE_CASE(0, 1, 1, 0)
KNIGHTGYM_DOUBLE_DUEL_REFERENCE_CASE(0, 1, 1, 1)
KNIGHTGYM_DOUBLE_DUEL_REFERENCE_CASE(1, 0, 0, 0)
KNIGHTGYM_DOUBLE_DUEL_REFERENCE_CASE(1, 0, 0, 1)
KNIGHTGYM_DOUBLE_DUEL_REFERENCE_CASE(1, 0, 1, 0)
KNIGHTGYM_DOUBLE_DUEL_REFERENCE_CASE(1, 0, 1, 1)
KNIGHTGYM_DOUBLE_DUEL_REFERENCE_CASE(1, 1, 0, 0)
KNIGHTGYM_DOUBLE_DUEL_REFERENCE_CASE(1, 1, 0, 1)
KNIGHTGYM_DOUBLE_DUEL_REFERENCE_CASE(1, 1, 1, 0)
KNIGHTGYM_DOUBLE_DUEL_REFERENCE_CASE(1, 1, 1, 1)

#undef KNIGHTGYM_DOUBLE_DUEL_REFERENCE_CASE

// The known perft counts of the start; each step of a turn is a level of its own.
TEST_CASE("double_duel perft: the known counts of the start, the reference's",
          "[double_duel][reference][perft]") {
  const reference::Options options;
  testing::check_known_perft<DoubleDuel>(
      "double_duel", reference::Game(options), {2, 6, 24, 96, 2376, 4752, 14256, 57024},
      [](const reference::Game& g) { return token_names(g.legal()); },
      [](reference::Game& g, const std::string& action) { REQUIRE(g.apply(action)); });
}

}  // namespace
}  // namespace knightgym
