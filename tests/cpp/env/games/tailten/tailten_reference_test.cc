// Differential test of the Tailten engine (env/games/tailten) against an independent
// reference written here from the rules text (docs/rules/tailten.md of the shared rules:
// the Tara board of 45 hills, the knight's-leap opening, Battle with its capture
// obligation, OUT with the other player's one more turn, and the scoring by kingdoms,
// then territory).
//
// What is checked: random games are played, choosing uniformly among the ENGINE's legal
// actions. Every chosen action is applied to the engine and, as its hill name ("a2".."g6"),
// to the reference. At every decision the engine's set of legal hill names must equal the
// reference's set (with no duplicates), the player to move must agree, and the engine's
// serialize() (board, player to move, phase, turns) must equal what the reference says,
// as must both supplies. When the engine says the game is over the reference must say so
// too, with the same truncation, the same board, phase and turns, the same kingdoms,
// territory, match points and winner (Tailten::score), and the engine's returns must
// follow from the reference's winner.
// Games: 10 * KNIGHTGYM_CONFORMANCE_GAMES (default 1000; at least 10) of the default game,
// split by the first player over two test cases; fewer for ringforts=12, ringforts=45,
// max_turns=20 and random parameters.
//
// Why the reference is independent: it includes nothing from env/games/tailten/ and shares
// no tables or helpers with the engine. It keeps a plain 7 x 7 array of cells (corner,
// vacant, Red, Blue) and the two supplies, and computes every option with plain loops
// over the 4 orthogonal neighbours, the 8 knight leaps and squared distances; kingdoms are
// counted by a flood fill. Hill names are parsed and printed by the reference's own code.
// Only the driver below uses the engine, through its public API.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "env/core/rng.h"
#include "env/games/tailten/tailten.h"
#include "tests/cpp/env/games/game_test_helpers.h"
#include "tests/cpp/env/registry/conformance_specs.h"

namespace knightgym {
namespace {

// ---------------------------------------------------------------------------------------
// The reference: the rules, written out plainly. Nothing here uses the engine.
// ---------------------------------------------------------------------------------------
namespace reference {

constexpr int kSide = 7;
constexpr int kRed = 0;
constexpr int kBlue = 1;
constexpr int kNobody = -1;

enum class Cell { kCorner, kVacant, kRedFort, kBlueFort };

enum class Phase { kOpening, kBattle, kLastTurn, kOver };

constexpr const char* kPhaseNames[] = {"opening", "battle", "last_turn", "over"};

struct Options {
  int first_player = 0;
  int ringforts = 30;
  int max_turns = 200;

  std::string spec() const {
    std::string out = "tailten(first_player=";
    out += std::to_string(first_player);
    out += ",ringforts=";
    out += std::to_string(ringforts);
    out += ",max_turns=";
    out += std::to_string(max_turns);
    out += ')';
    return out;
  }
};

// A place on the 7 x 7 grid: file 0..6 (a..g), rank 0..6 (1..7).
struct Place {
  int file = 0, rank = 0;
};

bool on_grid(int file, int rank) { return file >= 0 && file < kSide && rank >= 0 && rank < kSide; }

bool is_corner(int file, int rank) {
  return (file == 0 || file == kSide - 1) && (rank == 0 || rank == kSide - 1);
}

std::string hill_name(int file, int rank) {
  std::string name;
  name += static_cast<char>('a' + file);
  name += static_cast<char>('1' + rank);
  return name;
}

// The place named `text` if it is a hill, else file -1.
Place parse_hill(std::string_view text) {
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'g' || text[1] < '1' || text[1] > '7')
    return {-1, -1};
  const Place place{text[0] - 'a', text[1] - '1'};
  if (is_corner(place.file, place.rank)) return {-1, -1};
  return place;
}

constexpr int kOrthogonal[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kLeaps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                              {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};

Cell ringfort_of(int player) { return player == kRed ? Cell::kRedFort : Cell::kBlueFort; }

// The kingdoms, territory, match points and winner of a position.
struct Result {
  int kingdoms[2] = {0, 0};
  int territory[2] = {0, 0};
  int match_points[2] = {0, 0};
  int winner = kNobody;
};

class Game {
 public:
  explicit Game(const Options& options) : options_(options) {
    for (int rank = 0; rank < kSide; ++rank)
      for (int file = 0; file < kSide; ++file)
        cells_[rank][file] = is_corner(file, rank) ? Cell::kCorner : Cell::kVacant;
    supply_[kRed] = supply_[kBlue] = options.ringforts;
    start_turn(options.first_player);
  }

  bool over() const { return phase_ == Phase::kOver; }
  bool truncated() const { return truncated_; }
  int to_move() const { return to_move_; }
  int turns() const { return turns_; }
  int supply(int player) const { return supply_[player]; }
  Phase phase() const { return phase_; }
  Cell cell(int file, int rank) const { return cells_[rank][file]; }

  // The legal hills of the player to move, by name, sorted.
  std::vector<std::string> legal() const {
    std::vector<std::string> names;
    if (phase_ == Phase::kOver) return names;
    const std::vector<Place> places =
        phase_ == Phase::kOpening ? opening_builds(to_move_) : battle_turns(to_move_);
    for (const Place& p : places) names.push_back(hill_name(p.file, p.rank));
    std::sort(names.begin(), names.end());
    return names;
  }

  // Whether the legal hills are captures.
  bool capturing() const {
    return (phase_ == Phase::kBattle || phase_ == Phase::kLastTurn) && supply_[to_move_] > 0 &&
           !captures(to_move_).empty();
  }

  // Applies the turn on the hill named `text`; false (and nothing changes) if not legal.
  bool apply(std::string_view text) {
    const std::vector<std::string> names = legal();
    if (std::find(names.begin(), names.end(), std::string(text)) == names.end()) return false;
    const Place place = parse_hill(text);
    const int me = to_move_, other = 1 - me;
    Cell& target = cells_[place.rank][place.file];
    if (target == ringfort_of(other)) ++supply_[other];  // a capture: back to its owner
    target = ringfort_of(me);
    --supply_[me];
    ++turns_;
    if (phase_ == Phase::kLastTurn) {
      phase_ = Phase::kOver;  // the one more turn was taken: the game ends
      return true;
    }
    start_turn(other);
    // The cap truncates, unless the game ended naturally on this turn.
    if (phase_ != Phase::kOver && turns_ >= options_.max_turns) {
      phase_ = Phase::kOver;
      truncated_ = true;
    }
    return true;
  }

  Result result() const {
    Result r;
    for (int player = kRed; player <= kBlue; ++player) {
      const Cell mine = ringfort_of(player);
      bool seen[kSide][kSide] = {};
      for (int rank = 0; rank < kSide; ++rank)
        for (int file = 0; file < kSide; ++file) {
          if (cells_[rank][file] != mine) continue;
          ++r.territory[player];
          if (seen[rank][file]) continue;
          // A new kingdom: flood fill through orthogonal neighbours.
          ++r.kingdoms[player];
          std::vector<Place> stack{{file, rank}};
          seen[rank][file] = true;
          while (!stack.empty()) {
            const Place p = stack.back();
            stack.pop_back();
            for (const auto& d : kOrthogonal) {
              const int f = p.file + d[0], k = p.rank + d[1];
              if (on_grid(f, k) && cells_[k][f] == mine && !seen[k][f]) {
                seen[k][f] = true;
                stack.push_back({f, k});
              }
            }
          }
        }
    }
    if (r.kingdoms[kRed] != r.kingdoms[kBlue]) {
      r.winner = r.kingdoms[kRed] < r.kingdoms[kBlue] ? kRed : kBlue;
      const int difference = r.kingdoms[kRed] - r.kingdoms[kBlue];
      r.match_points[r.winner] = 2 + (difference < 0 ? -difference : difference);
    } else if (r.territory[kRed] != r.territory[kBlue]) {
      r.winner = r.territory[kRed] > r.territory[kBlue] ? kRed : kBlue;
      const int difference = r.territory[kRed] - r.territory[kBlue];
      r.match_points[r.winner] = 2 + (difference < 0 ? -difference : difference);
    }
    return r;
  }

  // The board as ROWS, rank 7 first, '/' between ranks.
  std::string rows() const {
    std::string out;
    for (int rank = kSide - 1; rank >= 0; --rank) {
      for (int file = 0; file < kSide; ++file) {
        switch (cells_[rank][file]) {
          case Cell::kCorner:
            out += '-';
            break;
          case Cell::kVacant:
            out += '.';
            break;
          case Cell::kRedFort:
            out += 'r';
            break;
          case Cell::kBlueFort:
            out += 'b';
            break;
        }
      }
      if (rank > 0) out += '/';
    }
    return out;
  }

  std::string phase_name() const {
    return truncated_ ? std::string("truncated")
                      : std::string(kPhaseNames[static_cast<int>(phase_)]);
  }

  std::string describe() const {
    std::ostringstream out;
    out << "reference: board=" << rows() << " to_move=" << (to_move_ == kRed ? 'r' : 'b')
        << " phase=" << phase_name() << " turns=" << turns_ << ", supplies " << supply_[kRed] << "/"
        << supply_[kBlue] << ", capturing " << capturing() << "\n";
    return out.str();
  }

 private:
  bool owns(int player, int file, int rank) const {
    return on_grid(file, rank) && cells_[rank][file] == ringfort_of(player);
  }

  bool has_ringfort_on_board(int player) const {
    for (int rank = 0; rank < kSide; ++rank)
      for (int file = 0; file < kSide; ++file)
        if (owns(player, file, rank)) return true;
    return false;
  }

  // Opening builds: the first anywhere; later ones a knight's leap from an own ringfort
  // and none of the own ringforts at squared distance below 5. None with an empty supply.
  std::vector<Place> opening_builds(int player) const {
    std::vector<Place> out;
    if (supply_[player] == 0) return out;
    const bool first = !has_ringfort_on_board(player);
    for (int rank = 0; rank < kSide; ++rank)
      for (int file = 0; file < kSide; ++file) {
        if (cells_[rank][file] != Cell::kVacant) continue;
        if (first) {
          out.push_back({file, rank});
          continue;
        }
        bool leap = false;
        for (const auto& d : kLeaps)
          if (owns(player, file + d[0], rank + d[1])) leap = true;
        bool too_close = false;
        for (int k = 0; k < kSide; ++k)
          for (int f = 0; f < kSide; ++f) {
            const int dx = f - file, dy = k - rank;
            if (owns(player, f, k) && dx * dx + dy * dy < 5) too_close = true;
          }
        if (leap && !too_close) out.push_back({file, rank});
      }
    return out;
  }

  // Enemy ringforts that are isolated (no adjacent ringfort of their owner) and besieged
  // (every adjacent hill holds one of `player`'s ringforts).
  std::vector<Place> captures(int player) const {
    std::vector<Place> out;
    const int enemy = 1 - player;
    for (int rank = 0; rank < kSide; ++rank)
      for (int file = 0; file < kSide; ++file) {
        if (!owns(enemy, file, rank)) continue;
        bool isolated = true, besieged = true;
        for (const auto& d : kOrthogonal) {
          const int f = file + d[0], k = rank + d[1];
          if (!on_grid(f, k) || cells_[k][f] == Cell::kCorner) continue;  // not a hill
          if (owns(enemy, f, k)) isolated = false;
          if (!owns(player, f, k)) besieged = false;
        }
        if (isolated && besieged) out.push_back({file, rank});
      }
    return out;
  }

  // A battle turn: a capture if any (it needs a ringfort in supply), else a build next to
  // an own ringfort, else afresh on any vacant hill. Nothing with an empty supply.
  std::vector<Place> battle_turns(int player) const {
    if (supply_[player] == 0) return {};
    std::vector<Place> out = captures(player);
    if (!out.empty()) return out;
    std::vector<Place> vacant;
    for (int rank = 0; rank < kSide; ++rank)
      for (int file = 0; file < kSide; ++file) {
        if (cells_[rank][file] != Cell::kVacant) continue;
        vacant.push_back({file, rank});
        bool next_to_own = false;
        for (const auto& d : kOrthogonal)
          if (owns(player, file + d[0], rank + d[1])) next_to_own = true;
        if (next_to_own) out.push_back({file, rank});
      }
    return out.empty() ? vacant : out;
  }

  // The start of `player`'s turn: the opening may give way to Battle; a player without a
  // battle turn is out, and the other player gets one more turn if it has one.
  void start_turn(int player) {
    to_move_ = player;
    if (phase_ == Phase::kOpening) {
      if (!opening_builds(player).empty()) return;
      phase_ = Phase::kBattle;  // for both players; this turn is already a battle turn
    }
    if (!battle_turns(player).empty()) return;
    const int other = 1 - player;
    if (!battle_turns(other).empty()) {
      to_move_ = other;
      phase_ = Phase::kLastTurn;
    } else {
      phase_ = Phase::kOver;  // neither can move: it ends at once
    }
  }

  Options options_;
  Cell cells_[kSide][kSide];
  int supply_[2] = {0, 0};
  int to_move_ = kRed;
  Phase phase_ = Phase::kOpening;
  bool truncated_ = false;
  int turns_ = 0;
};

}  // namespace reference

// ---------------------------------------------------------------------------------------
// The driver: plays the engine and the reference side by side.
// ---------------------------------------------------------------------------------------

using testing::joined;

// The fields of the engine's serialize(): board=ROWS to_move=r|b phase=NAME turns=N.
struct Serialized {
  std::string board, to_move, phase, turns;
  bool parsed = false;
};

Serialized parse_serialized(const std::string& text) {
  Serialized out;
  std::istringstream in(text);
  std::string word;
  int fields = 0;
  while (in >> word) {
    const size_t eq = word.find('=');
    if (eq == std::string::npos) return out;
    const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
    if (key == "board")
      out.board = value;
    else if (key == "to_move")
      out.to_move = value;
    else if (key == "phase")
      out.phase = value;
    else if (key == "turns")
      out.turns = value;
    else
      return out;
    ++fields;
  }
  out.parsed = fields == 4;
  return out;
}

Tailten make_engine(const reference::Options& options) {
  return testing::game_from_spec<Tailten>(options.spec());
}

// Counts of what the games exercised, so a configuration cannot pass vacuously.
struct Coverage {
  long games = 0, decisions = 0;
  long captures = 0, afresh = 0, last_turns = 0, both_out = 0, truncated = 0;
  long battle_by_supply = 0;  // the opening ended on an empty supply
  long wins = 0, draws = 0;
};

// How each game's parameters are chosen.
enum class Mode { kFixed, kAlternateFirst, kRandom };

void check_games(const std::string& label, reference::Options base, Mode mode, int games,
                 uint64_t seed) {
  Coverage seen;
  Action actions[Tailten::kMaxActions];
  std::string names[Tailten::kMaxActions];

  for (int g = 0; g < games; ++g) {
    Rng rng(derive_seed(seed, static_cast<uint64_t>(g)));
    reference::Options options = base;
    if (mode == Mode::kAlternateFirst) options.first_player = g % 2;
    if (mode == Mode::kRandom) {
      options.first_player = static_cast<int>(rng.below(2));
      options.ringforts = 1 + static_cast<int>(rng.below(45));
      options.max_turns = 1 + static_cast<int>(rng.below(100));
    }
    const Tailten game = make_engine(options);
    Tailten::State s;
    game.init(s, rng);
    reference::Game ref(options);
    ++seen.games;
    bool last_was_last_turn = false;

    for (int decision = 0;; ++decision) {
      const std::string serialized = game.serialize(s);
      const Serialized fields = parse_serialized(serialized);
      // The full context is built only when something disagrees.
      const auto context = [&] {
        std::string out = label;
        out += ' ';
        out += options.spec();
        out += ", game ";
        out += std::to_string(g);
        out += ", decision ";
        out += std::to_string(decision);
        out += "\nengine:    ";
        out += serialized;
        out += ", supplies ";
        out += std::to_string(game.supply(s, 0));
        out += '/';
        out += std::to_string(game.supply(s, 1));
        out += "\n";
        out += ref.describe();
        return out;
      };
      const std::string turns = std::to_string(ref.turns());
      if (!fields.parsed || fields.board != ref.rows() || fields.phase != ref.phase_name() ||
          fields.turns != turns || game.supply(s, 0) != ref.supply(0) ||
          game.supply(s, 1) != ref.supply(1)) {
        INFO(context());
        REQUIRE(fields.parsed);
        REQUIRE(fields.board == ref.rows());
        REQUIRE(fields.phase == ref.phase_name());
        REQUIRE(fields.turns == turns);
        REQUIRE(game.supply(s, 0) == ref.supply(0));
        REQUIRE(game.supply(s, 1) == ref.supply(1));
      }

      if (game.terminal(s)) {
        const reference::Result expected = ref.result();
        const Tailten::Score score = game.score(s);
        float returns[2];
        game.returns(s, returns);
        const float red = expected.winner == reference::kNobody ? 0.0f
                          : expected.winner == reference::kRed  ? 1.0f
                                                                : -1.0f;
        bool agree = ref.over() && ref.truncated() == game.truncated(s) &&
                     score.winner == expected.winner && returns[0] == red && returns[1] == -red;
        for (int p = 0; p < 2; ++p)
          agree = agree && score.kingdoms[p] == expected.kingdoms[p] &&
                  score.territory[p] == expected.territory[p] &&
                  score.match_points[p] == expected.match_points[p];
        if (!agree) {
          INFO(context());
          INFO("engine score: kingdoms "
               << score.kingdoms[0] << "-" << score.kingdoms[1] << ", territory "
               << score.territory[0] << "-" << score.territory[1] << ", points "
               << score.match_points[0] << "-" << score.match_points[1] << ", winner "
               << score.winner << ", returns " << returns[0] << "/" << returns[1]);
          INFO("reference:    kingdoms "
               << expected.kingdoms[0] << "-" << expected.kingdoms[1] << ", territory "
               << expected.territory[0] << "-" << expected.territory[1] << ", points "
               << expected.match_points[0] << "-" << expected.match_points[1] << ", winner "
               << expected.winner << ", over " << ref.over() << ", truncated " << ref.truncated());
          REQUIRE(ref.over());
          REQUIRE(ref.truncated() == game.truncated(s));
          REQUIRE(score.winner == expected.winner);
          REQUIRE(returns[0] == red);
          REQUIRE(returns[1] == -red);
          REQUIRE(agree);
        }
        if (ref.truncated())
          ++seen.truncated;
        else if (!last_was_last_turn)
          ++seen.both_out;  // neither could move: it ended at once
        if (expected.winner == reference::kNobody)
          ++seen.draws;
        else
          ++seen.wins;
        break;
      }

      ++seen.decisions;
      const int n = game.legal_actions(s, actions);
      for (int i = 0; i < n; ++i) names[i] = game.action_to_string(s, actions[i]);
      std::vector<std::string> engine_names(names, names + n);
      std::sort(engine_names.begin(), engine_names.end());
      const std::vector<std::string> ref_names = ref.legal();
      const std::string mover(1, ref.to_move() == reference::kRed ? 'r' : 'b');
      if (engine_names != ref_names || ref.over() || game.current_player(s) != ref.to_move() ||
          fields.to_move != mover) {
        INFO(context());
        INFO("engine actions:    " << joined(engine_names));
        INFO("reference actions: " << joined(ref_names));
        REQUIRE_FALSE(ref.over());
        REQUIRE(engine_names == ref_names);  // duplicates would show here too
        REQUIRE(game.current_player(s) == ref.to_move());
        REQUIRE(fields.to_move == mover);
      }

      // Coverage bookkeeping, from the reference's side.
      const reference::Phase ref_phase = ref.phase();
      const int mover_before = ref.to_move();
      if (ref.phase() == reference::Phase::kLastTurn) ++seen.last_turns;
      const int k = static_cast<int>(rng.below(static_cast<uint32_t>(n)));
      if (ref.capturing()) {
        ++seen.captures;
      } else if (ref.phase() != reference::Phase::kOpening) {
        const reference::Place p = reference::parse_hill(names[k]);
        bool next_to_own = false;
        for (const auto& d : reference::kOrthogonal) {
          const int f = p.file + d[0], r = p.rank + d[1];
          if (reference::on_grid(f, r) && ref.cell(f, r) == reference::ringfort_of(ref.to_move()))
            next_to_own = true;
        }
        if (!next_to_own) ++seen.afresh;
      }

      game.apply(s, actions[k]);
      if (!ref.apply(names[k])) {
        INFO(context());
        FAIL("the reference refuses " << names[k]);
      }
      last_was_last_turn = ref_phase == reference::Phase::kLastTurn;
      // The opening ended because the next player had an empty supply.
      if (ref_phase == reference::Phase::kOpening && ref.phase() != reference::Phase::kOpening &&
          !ref.truncated() && ref.supply(1 - mover_before) == 0)
        ++seen.battle_by_supply;
    }
  }

  INFO(label << ": " << seen.games << " games, " << seen.decisions << " decisions, " << seen.wins
             << " won, " << seen.draws << " drawn, " << seen.truncated << " truncated; "
             << seen.captures << " captures, " << seen.afresh << " afresh builds, "
             << seen.last_turns << " last turns, " << seen.both_out << " ended at once, "
             << seen.battle_by_supply << " battles begun by an empty supply");
  REQUIRE(seen.decisions > 0);
  // With enough games the rules must have come up (the sanitizer run plays fewer).
  if (games >= 500) {
    CHECK(seen.wins > 0);
    CHECK(seen.captures > 0);
    if (mode == Mode::kRandom || base.max_turns >= 100) {
      CHECK(seen.last_turns > 0);
      CHECK(seen.both_out > 0);
    }
    if (mode == Mode::kRandom || (base.ringforts >= 30 && base.max_turns >= 100))
      CHECK(seen.afresh > 0);
    if (mode == Mode::kRandom) CHECK(seen.battle_by_supply > 0);
    if (mode == Mode::kRandom || base.max_turns < 30) CHECK(seen.truncated > 0);
    if (mode == Mode::kRandom || base.ringforts < 30) CHECK(seen.draws > 0);
  }
}

int default_games() { return std::max(10, 10 * testing::conformance_games()); }

TEST_CASE("tailten reference: default game with Red first", "[tailten][reference]") {
  check_games("default, Red first", reference::Options{}, Mode::kFixed, default_games() / 2,
              0x7a170);
}

TEST_CASE("tailten reference: default game with Blue first", "[tailten][reference]") {
  reference::Options options;
  options.first_player = 1;
  check_games("default, Blue first", options, Mode::kFixed, default_games() / 2, 0x7a171);
}

TEST_CASE("tailten reference: ringforts=12", "[tailten][reference]") {
  reference::Options options;
  options.ringforts = 12;
  check_games("ringforts=12", options, Mode::kAlternateFirst, default_games() / 5, 0x7a172);
}

TEST_CASE("tailten reference: ringforts=45", "[tailten][reference]") {
  reference::Options options;
  options.ringforts = 45;
  check_games("ringforts=45", options, Mode::kAlternateFirst, default_games() / 5, 0x7a173);
}

TEST_CASE("tailten reference: max_turns=20", "[tailten][reference]") {
  reference::Options options;
  options.max_turns = 20;
  check_games("max_turns=20", options, Mode::kAlternateFirst, default_games() / 5, 0x7a174);
}

TEST_CASE("tailten reference: random parameters", "[tailten][reference]") {
  check_games("random parameters", reference::Options{}, Mode::kRandom, default_games() / 5,
              0x7a175);
}

// The known perft counts of the start, Red building first.
TEST_CASE("tailten perft: the known counts of the start, the reference's",
          "[tailten][reference][perft]") {
  const reference::Options options;
  testing::check_known_perft<Tailten>(
      options.spec(), reference::Game(options), {45, 1980, 9632, 45632, 251200},
      [](const reference::Game& g) { return g.legal(); },
      [](reference::Game& g, const std::string& action) { REQUIRE(g.apply(action)); });
}

}  // namespace
}  // namespace knightgym
