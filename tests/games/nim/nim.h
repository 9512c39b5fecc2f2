// Nim, a game defined only in the test tree, in no list: the proof that adding a game is
// its folder, one registry line and its docs. The C++ tests run it through everything built
// on the game contract (tests/cpp/env/registry/test_only_game_test.cc); a Python module
// built with it registered at run time (register.cc) runs the Python suites on it, from
// conformance to Gymnasium, PettingZoo and pictures (tests/python/test_game_outside_the_list.py).
// It offers none of the optional capabilities (heuristic, symmetries, training defaults,
// its own sampler, perft, extras, UCI, a drawing), so the generic fallbacks are what run.
//
// The game is subtraction Nim: a pile of `stones`; a turn takes 1, 2 or 3 of them; whoever
// takes the last stone wins. The player to move loses exactly when the pile is a multiple
// of 4, which gives the searches a known right answer.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "env/core/check.h"
#include "env/core/game.h"
#include "env/core/key_values.h"

namespace knightgym {

class Nim {
 public:
  static constexpr std::string_view kName = "nim";
  static constexpr std::string_view kSummary = "take 1 to 3 stones; the last one wins";
  static constexpr int kMaxActions = 3;

  struct Params {
    int stones = 9;
    int max_turns = 100;
  };

  struct State {
    int16_t stones;
    int16_t turns;
    uint8_t to_move;
    End end;
    uint8_t winner;
  };

  static Params read_params(ParamReader& reader) {
    Params p;
    p.stones = reader.get_int("stones", p.stones, 1, 64, "stones on the pile at the start");
    p.max_turns = reader.get_int("max_turns", p.max_turns, 1, 1000, "turns before truncation");
    return p;
  }

  Nim() = default;
  explicit Nim(const Params& params) : params_(params) {}

  // Plane 0: the pile, one-hot over 0..stones; plane 1: all ones when the observer moves.
  GameInfo info() const { return {2, 3, {2, 1, params_.stones + 1}, params_.max_turns}; }

  void init(State& s, Rng&) const {
    s = {};
    s.stones = static_cast<int16_t>(params_.stones);
  }

  int current_player(const State& s) const { return over(s.end) ? kTerminalPlayer : s.to_move; }
  bool terminal(const State& s) const { return over(s.end); }
  bool truncated(const State& s) const { return s.end == End::kTruncated; }

  int legal_actions(const State& s, Action* out) const {
    int n = 0;
    for (Action a = 0; a < 3 && !over(s.end) && a < s.stones; ++a) out[n++] = a;
    return n;
  }

  void legal_mask(const State& s, uint8_t* mask) const {
    for (int a = 0; a < 3; ++a) mask[a] = !over(s.end) && a < s.stones;
  }

  void apply(State& s, Action action) const {
    check_apply(*this, s, action);
    s.stones = static_cast<int16_t>(s.stones - action - 1);
    ++s.turns;
    if (s.stones == 0) {
      s.end = End::kRules, s.winner = s.to_move;
    } else if (s.turns >= params_.max_turns) {
      s.end = End::kTruncated;
    }
    s.to_move ^= 1;
  }

  void returns(const State& s, float* out) const {
    out[0] = out[1] = 0;
    if (s.end != End::kRules) return;
    out[s.winner] = 1;
    out[1 - s.winner] = -1;
  }

  void observe(const State& s, int player, float* out) const {
    const int width = params_.stones + 1;
    for (int i = 0; i < 2 * width; ++i) out[i] = 0;
    out[s.stones] = 1;
    for (int i = 0; i < width; ++i) out[width + i] = player == s.to_move;
  }

  std::string action_to_string(const State&, Action action) const {
    return "take" + std::to_string(action + 1);
  }

  Action string_to_action(const State& s, std::string_view text) const {
    for (Action a = 0; a < 3; ++a)
      if (text == action_to_string(s, a)) return a;
    throw std::invalid_argument("nim: no action '" + std::string(text) + "'");
  }

  std::string render(const State& s) const { return std::string(s.stones, 'o') + "\n"; }

  std::string serialize(const State& s) const {
    return "stones=" + std::to_string(s.stones) + " turns=" + std::to_string(s.turns) +
           " to_move=" + std::to_string(s.to_move) + " end=" + std::string(end_name(s.end)) +
           " winner=" + std::to_string(s.winner);
  }

  State deserialize(std::string_view text) const {
    const KeyValues fields(
        text, "nim: cannot read state: ", {"stones", "turns", "to_move", "end", "winner"});
    State s{};
    s.stones = static_cast<int16_t>(fields.integer("stones", 0, params_.stones));
    s.turns = static_cast<int16_t>(fields.integer("turns", 0, params_.max_turns));
    s.to_move = static_cast<uint8_t>(fields.integer("to_move", 0, 1));
    s.end = fields.end();
    s.winner = static_cast<uint8_t>(fields.integer("winner", 0, 1));
    return s;
  }

 private:
  Params params_;
};

static_assert(Game<Nim>);

}  // namespace knightgym
