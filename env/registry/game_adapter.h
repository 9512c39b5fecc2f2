// The templates behind the type-erased faces: GameAdapter<G>, StateAdapter<G> and
// VectorEnvAdapter<G>. The checks that every game shares (a finished game, an action out
// of range or illegal, an observer out of range) are made here once.
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "env/core/check.h"
#include "env/core/extras.h"
#include "env/core/game.h"
#include "env/core/perft.h"
#include "env/core/uci_game.h"
#include "env/registry/any_game.h"
#include "env/registry/batch_buffers.h"
#include "env/registry/registry.h"
#include "env/vector/vector_env.h"

namespace knightgym {

template <Game G>
class GameAdapter;

// The names and docs of G's extras (env/core/extras.h), none without the capability.
template <Game G>
std::vector<ExtraInfo> extra_infos() {
  std::vector<ExtraInfo> out;
  if constexpr (HasExtras<G>)
    for (const StateExtra<G>& e : G::extras()) out.push_back({e.name, e.doc});
  return out;
}

// ": known: a, b" for an error message, or ": it has none".
template <Game G>
std::string extras_known() {
  std::string out;
  for (const ExtraInfo& e : extra_infos<G>())
    out += (out.empty() ? ": known: " : ", ") + std::string(e.name);
  return out.empty() ? ": it has none" : out;
}

// G's UCI capability (env/core/uci_game.h), empty without it.
template <Game G>
std::optional<UciInfo> uci_info() {
  if constexpr (UciGame<G>) return UciInfo{G::kUciVariant, G::kUciStartFen, G::kUciPerftPositions};
  return std::nullopt;
}

template <Game G>
class StateAdapter final : public AnyState {
 public:
  using State = typename G::State;
  StateAdapter(std::shared_ptr<const GameAdapter<G>> game, const State& state)
      : game_(std::move(game)), state_(state) {}

  const AnyGame& game() const override { return *game_; }
  std::unique_ptr<AnyState> clone() const override {
    auto copy = std::make_unique<StateAdapter>(game_, state_);
    copy->last_move_ = last_move_;
    return copy;
  }
  // The typed game and state, for game-specific extras (Knights Challenge's tallies).
  const G& rules() const { return game_->rules(); }
  const State& state() const { return state_; }

  int current_player() const override { return rules().current_player(state_); }
  std::vector<Action> legal_actions() const override {
    Action actions[G::kMaxActions];
    return {actions, actions + rules().legal_actions(state_, actions)};
  }
  void legal_mask(uint8_t* out) const override { rules().legal_mask(state_, out); }

  void apply_action(Action action) override {
    check_range(action);
    if (rules().terminal(state_))
      throw std::invalid_argument("cannot apply " + describe(action) + ": the game is over");
    const std::vector<Action> legal = legal_actions();
    if (std::find(legal.begin(), legal.end(), action) == legal.end())
      throw std::invalid_argument(describe(action) + " is not legal");
    std::string move = rules().action_to_string(state_, action);
    rules().apply(state_, action);
    last_move_ = std::move(move);
  }

  bool is_terminal() const override { return rules().terminal(state_); }
  bool is_truncated() const override { return rules().truncated(state_); }
  std::vector<float> returns() const override {
    std::vector<float> out(game_->info().num_players);
    rules().returns(state_, out.data());
    return out;
  }
  void observe(int player, float* out) const override {
    if (player < 0 || player >= game_->info().num_players)
      throw std::invalid_argument("player " + std::to_string(player) + " is out of range [0, " +
                                  std::to_string(game_->info().num_players) + ")");
    rules().observe(state_, player, out);
  }

  std::string action_to_string(Action action) const override {
    check_range(action);
    return rules().action_to_string(state_, action);
  }
  Action string_to_action(std::string_view text) const override {
    return rules().string_to_action(state_, text);
  }
  std::string to_string() const override { return rules().render(state_); }
  std::string serialize() const override { return rules().serialize(state_); }
  uint64_t perft(int depth) const override {
    check_depth(depth, 0);
    return knightgym::perft(rules(), state_, depth);
  }
  std::vector<std::pair<std::string, uint64_t>> perft_divide(int depth) const override {
    check_depth(depth, 1);
    std::vector<std::pair<std::string, uint64_t>> out;
    Action legal[G::kMaxActions];
    const int n = rules().terminal(state_) ? 0 : rules().legal_actions(state_, legal);
    for (int i = 0; i < n; ++i) {
      State child = state_;
      rules().apply(child, legal[i]);
      out.emplace_back(rules().action_to_string(state_, legal[i]),
                       knightgym::perft(rules(), child, depth - 1));
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  std::string fen() const override {
    if constexpr (UciGame<G>) {
      return rules().fen(state_);
    } else {
      throw std::invalid_argument(std::string(G::kName) + " has no FEN: no UCI engine plays it");
    }
  }
  std::string extra(std::string_view name) const override {
    if constexpr (HasExtras<G>)
      for (const StateExtra<G>& e : G::extras())
        if (e.name == name) return e.answer(rules(), state_);
    throw std::invalid_argument(std::string(G::kName) + " has no extra '" + std::string(name) +
                                "'" + extras_known<G>());
  }
  Picture picture() const override { return draw(rules(), state_); }
  const std::string& last_move() const override { return last_move_; }

 private:
  void check_range(Action action) const {
    if (action < 0 || action >= game_->info().num_actions)
      throw std::invalid_argument("action " + std::to_string(action) + " is out of range [0, " +
                                  std::to_string(game_->info().num_actions) + ")");
  }
  static void check_depth(int depth, int least) {
    if (depth < least)
      throw std::invalid_argument("perft depth must be >= " + std::to_string(least) + ", got " +
                                  std::to_string(depth));
  }
  std::string describe(Action action) const {
    return "action " + std::to_string(action) + " (" + rules().action_to_string(state_, action) +
           ")";
  }

  std::shared_ptr<const GameAdapter<G>> game_;
  State state_;
  std::string last_move_;
};

template <Game G>
class VectorEnvAdapter final : public BatchBuffers<AnyVectorEnv, VectorEnvAdapter<G>> {
 public:
  VectorEnvAdapter(std::shared_ptr<const GameAdapter<G>> game, const VectorEnvOptions& options)
      : game_(std::move(game)), env_(game_->rules(), options) {}

  const VectorEnv<G>& buffers() const { return env_; }
  const AnyGame& game() const override { return *game_; }
  int num_threads() const override { return env_.num_threads(); }
  void reset(std::optional<uint64_t> seed, const uint8_t* chosen) override {
    env_.reset(seed, chosen);
  }
  void step(const Action* actions) override { env_.step(actions); }
  void sample_actions(Action* out) override { env_.sample_actions(out); }
  int reward_width() const override { return env_.info().num_players; }
  const int32_t* current_player() const override { return env_.current_player(); }
  void restore(const EnvSnapshot& snapshot) override { env_.restore(snapshot); }
  std::unique_ptr<AnyState> state(int i) const override {
    return std::make_unique<StateAdapter<G>>(game_, env_.checked_state(i));
  }

 private:
  std::shared_ptr<const GameAdapter<G>> game_;
  VectorEnv<G> env_;
};

template <Game G>
class GameAdapter final : public AnyGame {
 public:
  // Reads the parameters of `spec` (throws on unknown keys and bad values).
  static std::shared_ptr<const AnyGame> load(const Spec& spec) {
    ParamReader reader(spec);
    const typename G::Params params = G::read_params(reader);
    reader.finish();
    return std::make_shared<GameAdapter>(G(params), reader.canonical_spec(), reader.infos());
  }

  GameAdapter(const G& rules, std::string spec, std::vector<ParamInfo> params)
      : rules_(rules), spec_(std::move(spec)), params_(std::move(params)), info_(rules.info()) {}

  const G& rules() const { return rules_; }
  std::string_view name() const override { return G::kName; }
  const std::string& spec() const override { return spec_; }
  const std::vector<ParamInfo>& params() const override { return params_; }
  const GameInfo& info() const override { return info_; }
  TrainingDefaults training_defaults() const override { return knightgym::training_defaults<G>(); }

  std::unique_ptr<AnyState> new_initial_state(uint64_t seed) const override {
    typename G::State state;
    Rng rng(seed);
    rules_.init(state, rng);
    return std::make_unique<StateAdapter<G>>(self(), state);
  }
  // The game reads its own text; what every game's state must be is checked here once.
  std::unique_ptr<AnyState> deserialize_state(std::string_view text) const override {
    return accept(rules_.deserialize(text), "cannot read state");
  }
  std::span<const ExtraInfo> extras() const override { return extras_; }
  std::optional<UciInfo> uci() const override { return uci_info<G>(); }
  std::unique_ptr<AnyState> state_from_fen(std::string_view fen) const override {
    if constexpr (UciGame<G>) {
      return accept(rules_.state_from_fen(fen), "cannot read FEN");
    } else {
      throw std::invalid_argument(std::string(G::kName) + " has no FEN: no UCI engine plays it");
    }
  }
  std::unique_ptr<AnyVectorEnv> make_vector_env(const VectorEnvOptions& options) const override {
    return std::make_unique<VectorEnvAdapter<G>>(self(), options);
  }

 private:
  // A state read from outside, once it keeps the game's invariants and, while the game
  // runs, has a legal action; else std::invalid_argument "<game>: <what>: <why>".
  std::unique_ptr<AnyState> accept(const typename G::State& state, const char* what) const {
    const auto refuse = [&](const std::string& why) {
      throw std::invalid_argument(std::string(G::kName) + ": " + what + ": " + why);
    };
    if constexpr (HasInvariants<G>)
      if (const char* broken = rules_.broken_invariant(state)) refuse(broken);
    Action legal[G::kMaxActions];
    if (!rules_.terminal(state) && rules_.legal_actions(state, legal) == 0)
      refuse("the game is not over, but the player to move has no legal action");
    return std::make_unique<StateAdapter<G>>(self(), state);
  }
  std::shared_ptr<const GameAdapter> self() const {
    return std::static_pointer_cast<const GameAdapter>(shared_from_this());
  }

  G rules_;
  std::string spec_;
  std::vector<ParamInfo> params_;
  GameInfo info_;
  std::vector<ExtraInfo> extras_ = extra_infos<G>();
};

// G's entry in the registry (registry.h).
template <Game G>
GameEntry game_entry() {
  return {G::kName, G::kSummary, &GameAdapter<G>::load, extra_infos<G>(), uci_info<G>()};
}

}  // namespace knightgym
