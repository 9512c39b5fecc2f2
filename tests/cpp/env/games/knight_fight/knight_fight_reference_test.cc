// Differential test of the Knight Fight engine (env/games/knight_fight) against an
// independent reference written here from the rules text (docs/rules/knight_fight.md: the
// placements on the own back rank, the leaps away from the opponent's attacks, the score,
// the mirror erase, the double erase as a second decision of the turn, the end when either
// player is blocked, and the length cap).
//
// What is checked: for each of the 6 combinations of double_erase (optional, forced, off)
// and mirror_on_moves (true, false), random games are played, choosing uniformly among the
// ENGINE's legal actions; half of them on layout=random and half on layout=identity, and
// in each half, one game in two under a small length cap (1 to kSmallCapMax turns). Every
// chosen action is applied to the engine and, as its string ("a1".."j10", "pass"), to the
// reference. At every decision:
//   - the engine's set of legal action strings equals the reference's (no duplicates);
//   - the player to move agrees;
//   - the engine's serialize() (the layout, the usable squares, the knights, the scores,
//     the turn count, the player to move, the pending erase, over, truncated) equals the
//     reference's position, and the returns are 0 for both.
// When the engine says the game is over the reference must say so too, with the same kind
// of end (blocked, or truncated by the cap), and the engine's returns must follow from the
// reference's scores. Every 16th game that ends by the rules is played again with the cap
// on its last turn (the rules still end it: a natural end wins over truncation) and on the
// turn before (truncated there).
// Games per combination: KNIGHTGYM_CONFORMANCE_GAMES (default 1000), at least 100, so that
// every count below comes up even in the sanitizer run; each count that the combination
// allows (passes, erases, forced erases, blocked ends, truncations, mirrors erased by a
// leap or spared by one) must have come up at least once.
//
// Why the reference is independent: it includes nothing from env/games/knight_fight/ and
// shares no tables or helpers with the engine. It keeps plain arrays of 100 numbers,
// visited and erased flags, finds a knight's leaps by |rank difference| * |file difference|
// == 2 over all 100 squares (no leap table), finds a number's square and its mirror by
// searching the board, and names and parses squares itself. For layout=random it takes the
// numbers from the engine's first serialize() (the layout is the game's random input, not a
// rule) after checking that they are a permutation of 00..99; for layout=identity it lays
// them out itself. Only the driver below uses the engine, through its public API.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "env/core/rng.h"
#include "env/games/knight_fight/knight_fight.h"
#include "tests/cpp/env/games/game_test_helpers.h"
#include "tests/cpp/env/registry/conformance_specs.h"

namespace knightgym {
namespace {

// The name of the engine's length-cap parameter (turns before truncation), in one place.
constexpr const char* kCapParam = "max_turns";
constexpr int kDefaultCap = 200;
constexpr int kSmallCapMax = 30;

// ---------------------------------------------------------------------------------------
// The reference: the rules, written out plainly. Nothing here uses the engine.
// ---------------------------------------------------------------------------------------
namespace reference {

constexpr int kSide = 10;
constexpr int kSquares = kSide * kSide;
constexpr int kWhite = 0;
constexpr int kBlack = 1;
constexpr int kNowhere = -1;

enum class DoubleErase { kOptional, kForced, kOff };
constexpr const char* kDoubleEraseNames[] = {"optional", "forced", "off"};

struct Options {
  DoubleErase double_erase = DoubleErase::kOptional;
  bool mirror_on_moves = true;
  bool identity = false;  // layout=identity, else layout=random
  int cap = kDefaultCap;

  // The spec that gives the engine the same game.
  std::string spec() const {
    std::string out = "knight_fight(double_erase=";
    out += kDoubleEraseNames[static_cast<int>(double_erase)];
    out += mirror_on_moves ? ",mirror_on_moves=true" : ",mirror_on_moves=false";
    out += identity ? ",layout=identity," : ",layout=random,";
    out += kCapParam;
    out += '=';
    out += std::to_string(cap);
    out += ')';
    return out;
  }
};

// Square index = (rank - 1) * 10 + file, file a = 0.
int rank_of(int square) { return square / kSide; }  // 0 for rank 1
int file_of(int square) { return square % kSide; }

std::string square_name(int square) {
  return std::string(1, static_cast<char>('a' + file_of(square))) +
         std::to_string(rank_of(square) + 1);
}

// The square named `text` ("a1".."j10", no leading zero), or kNowhere.
int parse_square(std::string_view text) {
  if (text.size() < 2 || text.size() > 3 || text[0] < 'a' || text[0] > 'j') return kNowhere;
  int rank = 0;
  for (size_t i = 1; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return kNowhere;
    rank = rank * 10 + (text[i] - '0');
  }
  if (text[1] == '0' || rank < 1 || rank > kSide) return kNowhere;
  return (rank - 1) * kSide + (text[0] - 'a');
}

// Two digits the same: 00, 11, ..., 99.
bool is_double(int number) { return number / 10 == number % 10; }
// The digits swapped: 57 -> 75, 3 -> 30.
int mirror(int number) { return (number % 10) * 10 + number / 10; }

// A chess knight's leap: two squares one way and one across.
bool is_leap(int from, int to) {
  const int dr = rank_of(from) - rank_of(to), df = file_of(from) - file_of(to);
  return dr * dr * df * df == 4;
}

class Game {
 public:
  Game(const Options& options, const int* numbers) : options_(options) {
    for (int square = 0; square < kSquares; ++square) number_[square] = numbers[square];
  }

  bool over() const { return over_; }
  bool truncated() const { return truncated_; }
  // The engine's end field: running, rules or truncated.
  std::string end() const { return !over_ ? "running" : truncated_ ? "truncated" : "rules"; }
  int to_move() const { return to_move_; }
  int turns() const { return turns_; }
  bool pending_erase() const { return pending_erase_; }
  int score(int player) const { return score_[player]; }
  int knight(int player) const { return knight_[player]; }
  bool usable(int square) const { return !visited_[square] && !erased_[square]; }
  // What the game has done so far, for the coverage counts.
  int mirrors_erased_by_leaps() const { return mirrors_erased_by_leaps_; }
  int mirrors_spared_by_leaps() const { return mirrors_spared_by_leaps_; }
  int lone_doubles() const { return lone_doubles_; }
  bool mover_blocked_itself() const { return mover_blocked_itself_; }

  // The landings of `player`: a usable square the opponent's knight does not attack, on
  // the player's back rank before its placement, a knight's leap away after it.
  std::vector<int> landings(int player) const {
    std::vector<int> out;
    const int home_rank = player == kWhite ? 0 : kSide - 1;
    const int from = knight_[player], enemy = knight_[1 - player];
    for (int square = 0; square < kSquares; ++square) {
      if (!usable(square)) continue;
      if (enemy != kNowhere && is_leap(enemy, square)) continue;
      if (from == kNowhere ? rank_of(square) == home_rank : is_leap(from, square))
        out.push_back(square);
    }
    return out;
  }

  // The usable doubles (the mover's own square is visited, so it is never among them).
  std::vector<int> usable_doubles() const {
    std::vector<int> out;
    for (int square = 0; square < kSquares; ++square)
      if (usable(square) && is_double(number_[square])) out.push_back(square);
    return out;
  }

  // The legal actions of the player to move, by name, sorted.
  std::vector<std::string> legal() const {
    std::vector<std::string> names;
    if (over_) return names;
    for (int square : pending_erase_ ? usable_doubles() : landings(to_move_))
      names.push_back(square_name(square));
    if (pending_erase_ && options_.double_erase == DoubleErase::kOptional) names.push_back("pass");
    std::sort(names.begin(), names.end());
    return names;
  }

  // Plays the action named `text`; false (and nothing changes) if it is not legal.
  bool apply(std::string_view text) {
    const std::vector<std::string> names = legal();
    if (std::find(names.begin(), names.end(), text) == names.end()) return false;
    if (pending_erase_) {  // the second decision of the turn
      if (text != "pass") erased_[parse_square(text)] = true;
      pending_erase_ = false;
      complete_turn();
      return true;
    }
    const int me = to_move_, square = parse_square(text), n = number_[square];
    const bool placement = knight_[me] == kNowhere;
    knight_[me] = square;
    visited_[square] = true;  // also the square left behind stays visited
    score_[me] += n;
    if (!is_double(n)) {
      const int other = square_of(mirror(n));
      if (usable(other)) {
        if (placement || options_.mirror_on_moves) {
          erased_[other] = true;
          mirrors_erased_by_leaps_ += !placement;
        } else {
          ++mirrors_spared_by_leaps_;
        }
      }
    } else if (options_.double_erase != DoubleErase::kOff) {
      if (!usable_doubles().empty()) {
        pending_erase_ = true;  // the same player decides again; the turn goes on
        return true;
      }
      ++lone_doubles_;
    }
    complete_turn();
    return true;
  }

  // +1 to the higher score and -1 to the lower once over; 0 for a draw and before the end.
  float returns(int player) const {
    if (!over_ || score_[0] == score_[1]) return 0.0f;
    return (score_[player] > score_[1 - player]) ? 1.0f : -1.0f;
  }

  // The fields of the engine's text form, as the reference sees them.
  std::string layout_digits() const {
    std::string out;
    for (int square = 0; square < kSquares; ++square) {
      out += static_cast<char>('0' + number_[square] / 10);
      out += static_cast<char>('0' + number_[square] % 10);
    }
    return out;
  }
  std::string usable_bits() const {
    std::string out;
    for (int square = 0; square < kSquares; ++square) out += usable(square) ? '1' : '0';
    return out;
  }
  std::string knights() const {
    const auto name = [&](int p) {
      return knight_[p] == kNowhere ? std::string("-") : square_name(knight_[p]);
    };
    return name(kWhite) + "," + name(kBlack);
  }
  std::string scores() const { return std::to_string(score_[0]) + "," + std::to_string(score_[1]); }

  std::string describe() const {
    std::ostringstream out;
    out << "reference: usable=" << usable_bits() << " knights=" << knights()
        << " scores=" << scores() << " turns=" << turns_ << " to_move=" << to_move_
        << " pending_erase=" << pending_erase_ << " over=" << over_ << " truncated=" << truncated_;
    return out.str();
  }

 private:
  int square_of(int number) const {
    for (int square = 0; square < kSquares; ++square)
      if (number_[square] == number) return square;
    return kNowhere;
  }

  // The end of a turn (after its erase decision, if any): the other player moves next.
  // Before Black's knight is placed only Black's placements are checked; after that,
  // either player without a landing ends the game. Then the cap, which a natural end
  // on the same turn wins over.
  void complete_turn() {
    const int mover = to_move_;
    ++turns_;
    to_move_ = 1 - mover;
    const bool mover_stuck = knight_[kBlack] != kNowhere && landings(mover).empty();
    const bool next_stuck = landings(1 - mover).empty();
    if (mover_stuck || next_stuck) {
      over_ = true;
      mover_blocked_itself_ = mover_stuck;
    } else if (turns_ >= options_.cap) {
      over_ = truncated_ = true;
    }
  }

  Options options_;
  int number_[kSquares] = {};
  bool visited_[kSquares] = {};
  bool erased_[kSquares] = {};
  int knight_[2] = {kNowhere, kNowhere};
  int score_[2] = {0, 0};
  int turns_ = 0;
  int to_move_ = kWhite;
  bool pending_erase_ = false;
  bool over_ = false;
  bool truncated_ = false;
  int mirrors_erased_by_leaps_ = 0, mirrors_spared_by_leaps_ = 0, lone_doubles_ = 0;
  bool mover_blocked_itself_ = false;
};

}  // namespace reference

// ---------------------------------------------------------------------------------------
// The driver: plays the engine and the reference side by side.
// ---------------------------------------------------------------------------------------

using testing::joined;

// The key=value fields of the engine's serialize().
std::map<std::string, std::string> fields_of(const std::string& text) {
  std::map<std::string, std::string> out;
  std::istringstream in(text);
  for (std::string word; in >> word;) {
    const size_t eq = word.find('=');
    out[word.substr(0, eq)] = eq == std::string::npos ? std::string() : word.substr(eq + 1);
  }
  return out;
}

// The numbers of a layout given as 200 digits, if they are a permutation of 00..99.
bool read_layout(const std::string& digits, int* numbers) {
  if (digits.size() != 2 * reference::kSquares) return false;
  bool seen[reference::kSquares] = {};
  for (int square = 0; square < reference::kSquares; ++square) {
    const char tens = digits[2 * square], ones = digits[2 * square + 1];
    if (tens < '0' || tens > '9' || ones < '0' || ones > '9') return false;
    const int number = (tens - '0') * 10 + (ones - '0');
    if (seen[number]) return false;
    seen[number] = true;
    numbers[square] = number;
  }
  return true;
}

KnightFight make_engine(const reference::Options& options) {
  return testing::game_from_spec<KnightFight>(options.spec());
}

// Counts of what the games exercised, so that a combination cannot pass vacuously.
struct Coverage {
  long games = 0, replays = 0, decisions = 0;
  long erase_decisions = 0, erases = 0, passes = 0, forced_erases = 0;
  long lone_doubles = 0;  // a double landed on with no other usable double: no decision
  long mirrors_erased_by_leaps = 0, mirrors_spared_by_leaps = 0;
  long blocked = 0, self_blocked = 0, truncated = 0;
  long white_wins = 0, black_wins = 0, draws = 0;

  std::string summary() const {
    std::ostringstream out;
    out << games << " games (" << replays << " replays), " << decisions << " decisions; "
        << erase_decisions << " erase decisions: " << erases << " erases (" << forced_erases
        << " forced), " << passes << " passes; " << lone_doubles
        << " doubles with no other left; mirrors by leaps: " << mirrors_erased_by_leaps
        << " erased, " << mirrors_spared_by_leaps << " spared; ends: " << blocked << " blocked ("
        << self_blocked << " by the mover itself), " << truncated << " truncated; " << white_wins
        << " White wins, " << black_wins << " Black wins, " << draws << " draws";
    return out.str();
  }
};

// Plays one game on the engine and the reference; returns its length in turns and sets
// `natural` to whether the rules ended it (rather than the cap).
int play_game(const reference::Options& options, uint64_t seed, const std::string& label,
              Coverage& seen, bool& natural) {
  const KnightFight game = make_engine(options);
  Rng rng(seed);
  KnightFight::State s;
  game.init(s, rng);

  int numbers[reference::kSquares];
  const std::string first_layout = fields_of(game.serialize(s))["layout"];
  if (options.identity) {
    for (int square = 0; square < reference::kSquares; ++square) numbers[square] = square;
  } else if (!read_layout(first_layout, numbers)) {
    FAIL(label << ": the engine's random layout is not a permutation of 00..99: " << first_layout);
  }
  reference::Game ref(options, numbers);

  Action actions[KnightFight::kMaxActions];
  ++seen.games;
  for (int decision = 0;; ++decision) {
    const std::string serialized = game.serialize(s);
    std::map<std::string, std::string> fields = fields_of(serialized);
    const auto context = [&] {
      return label + ", decision " + std::to_string(decision) + "\nengine:    " + serialized +
             "\n" + game.render(s) + ref.describe();
    };
    float returns[2];
    game.returns(s, returns);
    const bool over = game.terminal(s);
    // The player to move is compared while the game goes on; once over the engine's
    // current player is kTerminalPlayer.
    const std::string to_move = over ? fields["to_move"] : std::to_string(ref.to_move());
    if (fields["layout"] != ref.layout_digits() || fields["usable"] != ref.usable_bits() ||
        fields["knights"] != ref.knights() || fields["scores"] != ref.scores() ||
        fields["turns"] != std::to_string(ref.turns()) || fields["to_move"] != to_move ||
        fields["pending_erase"] != std::to_string(ref.pending_erase()) ||
        fields["end"] != ref.end() || over != ref.over() || game.truncated(s) != ref.truncated() ||
        returns[0] != ref.returns(0) || returns[1] != ref.returns(1) ||
        game.current_player(s) != (over ? kTerminalPlayer : ref.to_move())) {
      INFO(context());
      INFO("engine returns " << returns[0] << "/" << returns[1] << ", reference " << ref.returns(0)
                             << "/" << ref.returns(1));
      REQUIRE(over == ref.over());
      REQUIRE(game.truncated(s) == ref.truncated());
      REQUIRE(game.current_player(s) == (over ? kTerminalPlayer : ref.to_move()));
      REQUIRE(fields["layout"] == ref.layout_digits());
      REQUIRE(fields["usable"] == ref.usable_bits());
      REQUIRE(fields["knights"] == ref.knights());
      REQUIRE(fields["scores"] == ref.scores());
      REQUIRE(fields["turns"] == std::to_string(ref.turns()));
      REQUIRE(fields["to_move"] == to_move);
      REQUIRE(fields["pending_erase"] == std::to_string(ref.pending_erase()));
      REQUIRE(fields["end"] == ref.end());
      REQUIRE(returns[0] == ref.returns(0));
      REQUIRE(returns[1] == ref.returns(1));
    }

    const int count = game.legal_actions(s, actions);
    std::vector<std::string> engine_names;
    for (int i = 0; i < count; ++i) engine_names.push_back(game.action_to_string(s, actions[i]));
    std::vector<std::string> sorted = engine_names;
    std::sort(sorted.begin(), sorted.end());
    const std::vector<std::string> ref_names = ref.legal();
    if (sorted != ref_names) {
      INFO(context());
      INFO("engine actions:    " << joined(sorted));
      INFO("reference actions: " << joined(ref_names));
      REQUIRE(sorted == ref_names);  // duplicates would show here too
    }

    if (over) {
      if (ref.truncated()) {
        ++seen.truncated;
      } else {
        ++seen.blocked;
        seen.self_blocked += ref.mover_blocked_itself();
      }
      const int difference = ref.score(0) - ref.score(1);
      (difference > 0 ? seen.white_wins : difference < 0 ? seen.black_wins : seen.draws) += 1;
      seen.mirrors_erased_by_leaps += ref.mirrors_erased_by_leaps();
      seen.mirrors_spared_by_leaps += ref.mirrors_spared_by_leaps();
      seen.lone_doubles += ref.lone_doubles();
      natural = !ref.truncated();
      return ref.turns();
    }

    ++seen.decisions;
    const int k = static_cast<int>(rng.below(static_cast<uint32_t>(count)));
    if (ref.pending_erase()) {
      ++seen.erase_decisions;
      if (engine_names[k] == "pass") {
        ++seen.passes;
      } else {
        ++seen.erases;
        seen.forced_erases += options.double_erase == reference::DoubleErase::kForced;
      }
    }
    game.apply(s, actions[k]);
    if (!ref.apply(engine_names[k])) {
      INFO(context());
      FAIL("the reference refuses " << engine_names[k]);
    }
  }
}

// Plays `games` games of one double_erase x mirror_on_moves combination: game g on
// layout=identity when g is odd, under a small cap when g / 2 is odd. Every 16th game that
// the rules ended is played again with the cap on its last turn and on the turn before.
void check_combination(reference::DoubleErase double_erase, bool mirror_on_moves, uint64_t seed) {
  const int games = std::max(100, testing::conformance_games());
  Coverage seen;
  for (int g = 0; g < games; ++g) {
    reference::Options options;
    options.double_erase = double_erase;
    options.mirror_on_moves = mirror_on_moves;
    options.identity = g % 2 == 1;
    Rng setup(derive_seed(seed, 2 * static_cast<uint64_t>(g)));
    if (g / 2 % 2 == 1) options.cap = 1 + static_cast<int>(setup.below(kSmallCapMax));
    const uint64_t game_seed = derive_seed(seed, 2 * static_cast<uint64_t>(g) + 1);
    const std::string label = options.spec() + ", game " + std::to_string(g);
    bool natural = false;
    const int length = play_game(options, game_seed, label, seen, natural);
    if (g % 16 == 0 && natural && length >= 2) {
      for (const int cap : {length, length - 1}) {
        reference::Options capped = options;
        capped.cap = cap;
        bool again = false;
        ++seen.replays;
        const int replayed =
            play_game(capped, game_seed,
                      label + " again with " + kCapParam + "=" + std::to_string(cap), seen, again);
        INFO(label << " again with " << kCapParam << "=" << cap << " (" << length
                   << " turns without the cap)");
        REQUIRE(replayed == cap);
        REQUIRE(again == (cap == length));
      }
    }
  }

  INFO("knight_fight reference, double_erase="
       << reference::kDoubleEraseNames[static_cast<int>(double_erase)]
       << ", mirror_on_moves=" << (mirror_on_moves ? "true" : "false") << ": " << seen.summary());
  REQUIRE(seen.decisions > 0);
  REQUIRE(seen.blocked > 0);
  REQUIRE(seen.self_blocked > 0);
  REQUIRE(seen.truncated > 0);
  REQUIRE(seen.white_wins > 0);
  REQUIRE(seen.black_wins > 0);
  REQUIRE((seen.mirrors_erased_by_leaps > 0) == mirror_on_moves);
  REQUIRE((seen.mirrors_spared_by_leaps > 0) == !mirror_on_moves);
  switch (double_erase) {
    case reference::DoubleErase::kOptional:
      REQUIRE(seen.erases > 0);
      REQUIRE(seen.passes > 0);
      REQUIRE(seen.forced_erases == 0);
      break;
    case reference::DoubleErase::kForced:
      REQUIRE(seen.forced_erases > 0);
      REQUIRE(seen.passes == 0);
      break;
    case reference::DoubleErase::kOff:
      REQUIRE(seen.erase_decisions == 0);
      break;
  }
}

TEST_CASE("knight_fight reference: double_erase=optional, mirror_on_moves=true",
          "[knight_fight][reference]") {
  check_combination(reference::DoubleErase::kOptional, true, 0xf1647000);
}

TEST_CASE("knight_fight reference: double_erase=optional, mirror_on_moves=false",
          "[knight_fight][reference]") {
  check_combination(reference::DoubleErase::kOptional, false, 0xf1647001);
}

TEST_CASE("knight_fight reference: double_erase=forced, mirror_on_moves=true",
          "[knight_fight][reference]") {
  check_combination(reference::DoubleErase::kForced, true, 0xf1647002);
}

TEST_CASE("knight_fight reference: double_erase=forced, mirror_on_moves=false",
          "[knight_fight][reference]") {
  check_combination(reference::DoubleErase::kForced, false, 0xf1647003);
}

TEST_CASE("knight_fight reference: double_erase=off, mirror_on_moves=true",
          "[knight_fight][reference]") {
  check_combination(reference::DoubleErase::kOff, true, 0xf1647004);
}

TEST_CASE("knight_fight reference: double_erase=off, mirror_on_moves=false",
          "[knight_fight][reference]") {
  check_combination(reference::DoubleErase::kOff, false, 0xf1647005);
}

// The known perft counts of the start (layout=identity, so the same from every seed); a
// turn's erase is a level of its own.
TEST_CASE("knight_fight perft: the known counts of the start, the reference's",
          "[knight_fight][reference][perft]") {
  reference::Options options;
  options.identity = true;
  int numbers[reference::kSquares];
  for (int square = 0; square < reference::kSquares; ++square) numbers[square] = square;
  testing::check_known_perft<KnightFight>(
      options.spec(), reference::Game(options, numbers), {10, 99, 473, 1741, 7628, 39706},
      [](const reference::Game& g) { return g.legal(); },
      [](reference::Game& g, const std::string& action) { REQUIRE(g.apply(action)); });
}

}  // namespace
}  // namespace knightgym
