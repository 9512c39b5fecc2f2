#include "env/games/knights_challenge/knights_challenge.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <utility>

#include "env/games/knights_challenge/lines.h"
#include "util/text.h"

namespace knightgym {
namespace {

using namespace knights_challenge;
using Mode = KnightsChallenge::Mode;
using Reason = KnightsChallenge::Reason;

constexpr const char* kModeNames[] = {"ffa4", "ffa3", "duel", "alliance2", "team4"};

bool team_mode(Mode mode) { return mode == Mode::kAlliance2 || mode == Mode::kTeam4; }

}  // namespace

KnightsChallenge::Params KnightsChallenge::read_params(ParamReader& reader) {
  Params params;
  const std::string mode = reader.get_choice(
      "mode", "ffa4", {std::begin(kModeNames), std::end(kModeNames)},
      "ffa4: 4 players; ffa3: 3 players; duel: 2 players in opposite camps; alliance2: 2 "
      "players with two colours each; team4: teams of colours 0, 2 and 1, 3");
  params.mode =
      Mode(std::find(std::begin(kModeNames), std::end(kModeNames), mode) - std::begin(kModeNames));
  params.board_size = reader.get_int("board_size", 12, kMinSize, kMaxSize, "squares a side");
  const std::string safe = reader.get_string(
      "safe_squares", "default",
      "default (the rotation orbits of (N/2-1, 3) and (2, N/2-1)), none, or a list of "
      "squares outside the camps, e.g. [f4,i6,g9,d7]");
  if (safe == "none") {
    params.safe_squares = std::vector<int>{};
  } else if (safe != "default") {
    const Geometry geometry(params.board_size);
    std::vector<int> squares;
    for (const std::string_view name : split(safe, ',')) {
      const std::optional<int> square = geometry.grid().parse(name);
      std::string quoted(1, '\'');
      quoted.append(name).push_back('\'');
      if (!square)
        reader.fail("safe_squares", quoted + " is not a square of the " +
                                        std::to_string(params.board_size) + "x" +
                                        std::to_string(params.board_size) + " board");
      if (geometry.camp(*square) != kNoCamp) reader.fail("safe_squares", quoted + " is in a camp");
      if (std::find(squares.begin(), squares.end(), *square) != squares.end())
        reader.fail("safe_squares", quoted + " is listed twice");
      squares.push_back(*square);
    }
    params.safe_squares = squares;
  }
  params.central_first = reader.get_bool(
      "central_first", true,
      "until a colour has moved a knight out of its camp, a move out of the camp must start "
      "on one of its two central squares");
  params.mixed_lines =
      reader.get_bool("mixed_lines", false, "team4: a line may mix the two colours of a team");
  params.target_points =
      reader.get_int("target_points", 16, 1, 1000,
                     "duel and ffa3: points from camp knights and lines that end the game");
  params.max_turns =
      reader.get_int("max_turns", 1000, 1, 100000, "turns (one move each) before truncation");
  return params;
}

KnightsChallenge::KnightsChallenge(const Params& params)
    : params_(params), geometry_(params.board_size) {
  // Who plays which colour, and who is whose enemy.
  constexpr int kNone = -1;
  switch (params_.mode) {
    case Mode::kFfa4:
      player_of_colour_ = {0, 1, 2, 3};
      break;
    case Mode::kFfa3:
      player_of_colour_ = {0, 1, 2, kNone};
      break;
    case Mode::kDuel:
      player_of_colour_ = {0, kNone, 1, kNone};
      break;
    case Mode::kAlliance2:
      player_of_colour_ = {0, 1, 0, 1};
      break;
    case Mode::kTeam4:
      player_of_colour_ = {0, 1, 2, 3};
      break;
  }
  const bool teams = team_mode(params_.mode);
  for (int c = 0; c < kNumColours; ++c) {
    if (player_of_colour_[c] == kNone) {
      side_of_colour_[c] = kNone;
      continue;
    }
    colours_.push_back(c);
    side_of_colour_[c] = static_cast<int8_t>(teams ? c % 2 : player_of_colour_[c]);
    side_of_player_[player_of_colour_[c]] = side_of_colour_[c];
  }
  num_players_ = params_.mode == Mode::kAlliance2 ? 2 : static_cast<int>(colours_.size());
  num_sides_ = teams ? 2 : num_players_;
  mixed_lines_ =
      params_.mode == Mode::kAlliance2 || (params_.mode == Mode::kTeam4 && params_.mixed_lines);
  for (int a : colours_)
    for (int b : colours_)
      if (side_of_colour_[a] != side_of_colour_[b]) hostile_[a] |= static_cast<uint8_t>(1 << b);

  const std::vector<int> safe = params_.safe_squares.value_or(geometry_.default_safe_squares());
  for (int square : safe) safe_[square] = true;

  // Regions, guarded squares and the leaps the squares alone allow.
  const int squares = geometry_.grid().size();
  for (int c = 0; c < kNumColours; ++c)
    for (int sq = 0; sq < squares; ++sq) {
      const int camp = geometry_.camp(sq);
      Region region = safe_[sq] ? kSafe : kGround;
      if (camp == c)
        region = kOwnCamp;
      else if (camp != kNoCamp && in_play(camp) && in_play(c))
        region = hostile(c, camp) ? kHostileCamp : kClosedCamp;
      region_[c][sq] = region;
      if (region != kGround) guarded_[sq] |= static_cast<uint8_t>(1 << c);
    }
  for (int first = 0; first < 2; ++first)
    for (int c = 0; c < kNumColours; ++c)
      for (int from = 0; from < squares; ++from) {
        const Region at = Region(region_[c][from]);
        uint8_t allowed = 0;
        for (int leap = 0; leap < kNumLeaps; ++leap) {
          const int to = geometry_.leap(from, leap);
          if (to == kNoSquare || at == kHostileCamp) continue;  // stuck knights never move
          const Region onto = Region(region_[c][to]);
          bool ok = onto != kClosedCamp;
          if (onto == kOwnCamp)  // inside its own camp a knight only moves forwards
            ok = at == kOwnCamp &&
                 geometry_.cell(to) / kCampWidth > geometry_.cell(from) / kCampWidth;
          if (first && params_.central_first && at == kOwnCamp && onto != kOwnCamp)
            ok = ok && is_central_cell(geometry_.cell(from));
          allowed |= static_cast<uint8_t>(ok << leap);
        }
        leaps_allowed_[first][c][from] = allowed;
      }

  // Static planes: the camps of the colours in play and the safe squares, per frame.
  for (int frame = 0; frame < kNumColours; ++frame) {
    std::vector<float>& planes = static_planes_[frame];
    planes.assign(static_cast<size_t>(5 * squares), 0.0f);
    for (int sq = 0; sq < squares; ++sq) {
      const int at = to_frame(frame, sq);
      const int camp = geometry_.camp(sq);
      if (camp != kNoCamp && in_play(camp))
        planes[static_cast<size_t>(((camp - frame) & 3) * squares + at)] = 1.0f;
      if (safe_[sq]) planes[static_cast<size_t>(4 * squares + at)] = 1.0f;
    }
  }
}

int KnightsChallenge::next_colour(int colour) const {
  for (int step = 1; step <= kNumColours; ++step) {
    const int c = (colour + step) & 3;
    if (in_play(c)) return c;
  }
  return colour;
}

void KnightsChallenge::init(State& s, Rng&) const {
  s = State{};
  for (auto& row : s.knights) row.fill(kCaptured);
  for (int c : colours_)
    for (int i = 0; i < kKnights; ++i) {  // rows d = 0 and d = 1 of the camp
      const int sq = geometry_.camp_square(c, i);
      s.knights[c][i] = static_cast<int16_t>(sq);
      s.board[sq] = static_cast<uint8_t>(1 + c * kKnights + i);
    }
  s.to_move = static_cast<uint8_t>(colours_.front());
  settle(s, s.to_move);
}

bool KnightsChallenge::can_move(const State& s, int colour) const {
  return for_each_move(s, colour, [](int, int, int) { return true; });
}

int KnightsChallenge::legal_actions(const State& s, Action* out) const {
  if (terminal(s)) return 0;
  const int colour = s.to_move;
  int n = 0;
  for_each_move(s, colour, [&](int from, int leap, int) {
    out[n++] = to_action(colour, from, leap);
    return false;
  });
  // Ascending, so that the order never depends on how the knights are numbered: a state
  // read from text numbers them afresh, and a copy must sample as the original does.
  std::sort(out, out + n);
  return n;
}

void KnightsChallenge::legal_mask(const State& s, uint8_t* mask) const {
  std::memset(mask, 0, static_cast<size_t>(info().num_actions));
  if (terminal(s)) return;
  const int colour = s.to_move;
  for_each_move(s, colour, [&](int from, int leap, int) {
    mask[to_action(colour, from, leap)] = 1;
    return false;
  });
}

void KnightsChallenge::apply(State& s, Action action) const {
  check_apply(*this, s, action);
  const int colour = s.to_move;
  const int from = from_frame(colour, action / kNumLeaps);
  const int leap = (action + 2 * colour) & 7;
  const int to = geometry_.leap(from, leap);
  const uint8_t knight = s.board[from];
  if (const int occupant = s.board[to]) {
    const int owner = (occupant - 1) / kKnights;
    s.knights[owner][(occupant - 1) % kKnights] = kCaptured;
    ++s.lost[owner];
    ++s.captures[colour];
  }
  s.board[from] = 0;
  s.board[to] = knight;
  s.knights[colour][(knight - 1) % kKnights] = static_cast<int16_t>(to);
  const Region at = Region(region_[colour][from]), onto = Region(region_[colour][to]);
  if (at == kOwnCamp && onto != kOwnCamp) s.left_camp |= static_cast<uint8_t>(1 << colour);
  if (onto == kHostileCamp) {
    ++s.stuck[colour];
    s.camp_cells[colour][geometry_.camp(to)] |= static_cast<uint16_t>(1 << geometry_.cell(to));
  }
  ++s.turns;
  settle(s, next_colour(colour));
}

KnightsChallenge::Reason KnightsChallenge::natural_end(const State& s) const {
  int finished = 0;
  for (int c : colours_) {
    if (s.stuck[c] == kKnights) return Reason::kAllStuck;
    finished += s.stuck[c] + s.lost[c] == kKnights;
  }
  if (params_.mode == Mode::kDuel || params_.mode == Mode::kFfa3) {
    for (int side = 0; side < num_sides_; ++side)
      if (target_score(s, side) >= params_.target_points) return Reason::kTargetPoints;
  } else if (params_.mode == Mode::kAlliance2) {
    for (int c = 0; c < 2; ++c)  // alliances {0, 2} and {1, 3}
      if (s.stuck[c] + s.stuck[c + 2] >= kKnights && s.stuck[c] >= 4 && s.stuck[c + 2] >= 4)
        return Reason::kAllianceInCamp;
  }
  return finished >= 2 ? Reason::kTwoFinished : Reason::kNone;
}

void KnightsChallenge::settle(State& s, int first) const {
  s.reason = natural_end(s);
  s.end = s.reason == Reason::kNone ? End::kRunning : End::kRules;
  if (over(s.end)) return;
  // Colours without a legal move pass; the mover itself comes last.
  int colour = first;
  for (size_t tried = 0; !can_move(s, colour); ++tried) {
    if (tried + 1 == colours_.size()) {
      s.reason = Reason::kNoMoves;
      s.end = End::kRules;
      return;
    }
    colour = next_colour(colour);
  }
  s.to_move = static_cast<uint8_t>(colour);
  if (s.turns >= params_.max_turns) s.end = End::kTruncated;
}

int KnightsChallenge::line_points(const State& s, int side, int camp) const {
  int points = 0;
  if (mixed_lines_) {
    unsigned cells = 0;
    for (int c : colours_)
      if (side_of_colour_[c] == side) cells |= s.camp_cells[c][camp];
    return kBestLineBonus[cells];
  }
  for (int c : colours_)
    if (side_of_colour_[c] == side) points += kBestLineBonus[s.camp_cells[c][camp]];
  return points;
}

int KnightsChallenge::target_score(const State& s, int side) const {
  int points = 0;
  for (int c : colours_)
    if (side_of_colour_[c] == side) points += 2 * s.stuck[c];
  for (int camp = 0; camp < kNumColours; ++camp) points += line_points(s, side, camp);
  return points;
}

void KnightsChallenge::tallies(const State& s, int* out) const {
  for (int side = 0; side < num_sides_; ++side) {
    int points = target_score(s, side);
    // Knights of the side in each camp of its enemies, the fewest over (colour, camp).
    int fewest = kKnights;
    for (int c : colours_) {
      if (side_of_colour_[c] != side) continue;
      points += s.captures[c];
      for (int camp : colours_)
        if (hostile(c, camp)) fewest = std::min(fewest, std::popcount(s.camp_cells[c][camp]));
    }
    if (params_.mode == Mode::kFfa4) points += fewest >= 2 ? 12 : fewest >= 1 ? 6 : 0;
    if (params_.mode == Mode::kTeam4) points += fewest >= 3 ? 12 : fewest >= 2 ? 6 : 0;
    out[side] = points;
  }
}

void KnightsChallenge::returns(const State& s, float* out) const {
  std::fill_n(out, num_players_, 0.0f);
  if (!terminal(s)) return;
  // Ranking keys: reaching the target first (duel, ffa3), then the tally.
  std::array<int, kNumColours> tally{};
  std::array<std::pair<bool, int>, kNumColours> key{};
  tallies(s, tally.data());
  const bool target = params_.mode == Mode::kDuel || params_.mode == Mode::kFfa3;
  for (int side = 0; side < num_sides_; ++side)
    key[side] = {target && target_score(s, side) >= params_.target_points, tally[side]};
  for (int player = 0; player < num_players_; ++player) {
    const int side = side_of_player(player);
    int below = 0, above = 0;
    for (int other = 0; other < num_sides_; ++other) {
      below += key[other] < key[side];
      above += key[other] > key[side];
    }
    out[player] = static_cast<float>(below - above) / static_cast<float>(num_sides_ - 1);
  }
}

int KnightsChallenge::frame_colour(const State& s, int player) const {
  for (int c = s.to_move, step = 0; step < kNumColours; ++step, c = (c + 1) & 3)
    if (player_of_colour_[c] == player) return c;
  return 0;
}

void KnightsChallenge::observe(const State& s, int player, float* out) const {
  const int squares = geometry_.grid().size();
  const int frame = frame_colour(s, player);
  std::memset(out, 0, sizeof(float) * static_cast<size_t>(kPlaneCamps * squares));
  for (int c : colours_) {
    const int relative = (c - frame) & 3;
    for (const int16_t sq : s.knights[c]) {
      if (sq == kCaptured) continue;
      const int plane = region_[c][sq] == kHostileCamp ? kPlaneStuckKnights : kPlaneFreeKnights;
      out[(plane + relative) * squares + to_frame(frame, sq)] = 1.0f;
    }
  }
  const std::vector<float>& fixed = static_planes_[frame];
  std::memcpy(out + kPlaneCamps * squares, fixed.data(), sizeof(float) * fixed.size());
  for (int relative = 0; relative < kNumColours; ++relative) {
    const int c = (frame + relative) & 3;
    std::fill_n(out + (kPlaneLeftCamp + relative) * squares, squares,
                static_cast<float>(s.left_camp >> c & 1));
    std::fill_n(out + (kPlaneCaptures + relative) * squares, squares,
                static_cast<float>(s.captures[c]) / kKnights);
  }
  std::fill_n(out + kPlaneObserverToMove * squares, squares,
              !terminal(s) && s.to_move == frame ? 1.0f : 0.0f);
  std::fill_n(out + kPlaneProgress * squares, squares,
              static_cast<float>(s.turns) / static_cast<float>(params_.max_turns));
  for (int mode = 0; mode < kPlaneCentralFirst - kPlaneMode; ++mode)
    std::fill_n(out + (kPlaneMode + mode) * squares, squares,
                mode == static_cast<int>(params_.mode) ? 1.0f : 0.0f);
  std::fill_n(out + kPlaneCentralFirst * squares, squares, params_.central_first ? 1.0f : 0.0f);
}

const char* KnightsChallenge::broken_invariant(const State& s) const {
  const int squares = params_.board_size * params_.board_size;
  for (int square = 0; square < squares; ++square)
    if (const int occupant = s.board[square];
        occupant && s.knights[(occupant - 1) / kKnights][(occupant - 1) % kKnights] != square)
      return "the board and the knights disagree";
  for (int c = 0; c < kNumColours; ++c)
    if (s.stuck[c] + s.lost[c] > kKnights) return "more knights stuck and lost than a colour has";
  if (s.turns > params_.max_turns) return "turns out of range";
  return nullptr;
}

}  // namespace knightgym
