#include "agents/external_engine.h"

#include <algorithm>
#include <chrono>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace knightgym {
namespace {

std::chrono::milliseconds silence_limit(const UciAgentConfig& config) {
  return std::chrono::seconds(config.timeout) + std::chrono::milliseconds(config.movetime);
}

// Returned as a prvalue, so the non-movable process is built in place.
UciProcess start(const std::string& program, const UciAgentConfig& config) {
  try {
    return UciProcess({program}, "UCI engine", silence_limit(config));
  } catch (const std::runtime_error& error) {
    throw std::runtime_error(error.what() + engine_install_hint(config.engine));
  }
}

// The values after each "var" of a combo option line.
std::vector<std::string> combo_values(const std::string& line) {
  std::vector<std::string> values;
  std::istringstream words(line);
  for (std::string word; words >> word;)
    if (word == "var" && words >> word) values.push_back(word);
  return values;
}

}  // namespace

ExternalEngine::ExternalEngine(const UciAgentConfig& config)
    : config_(config), program_(engine_program(config.engine)), process_(start(program_, config)) {
  process_.send("uci");
  for (std::string line; (line = process_.read_line()) != "uciok";) {
    if (!line.starts_with("option name UCI_Variant ")) continue;
    has_variant_option_ = true;
    variants_ = combo_values(line);
  }
}

void ExternalEngine::set_variant(std::string_view variant) {
  if (variant == variant_) return;
  const bool offered = has_variant_option_ ? std::find(variants_.begin(), variants_.end(),
                                                       variant) != variants_.end()
                                           : variant == "chess";
  if (!offered)
    throw std::runtime_error("UCI engine (" + program_ + ") does not play the variant '" +
                             std::string(variant) + "'");
  if (has_variant_option_)
    process_.send("setoption name UCI_Variant value " + std::string(variant));
  // One thread: with a node or depth budget the engine's moves are then reproducible.
  process_.send("setoption name Threads value 1");
  process_.send("setoption name Hash value " + std::to_string(config_.hash));
  sync();
  variant_ = variant;
}

void ExternalEngine::new_game() {
  process_.send("ucinewgame");
  sync();
}

std::string ExternalEngine::best_move(const std::string& fen, const SearchLimits& limits) {
  process_.send("position fen " + fen);
  std::string go = "go";
  if (config_.nodes > 0) go += " nodes " + std::to_string(config_.nodes);
  if (config_.movetime > 0) go += " movetime " + std::to_string(config_.movetime);
  if (config_.depth > 0) go += " depth " + std::to_string(config_.depth);
  process_.send(go);
  // Silence is caught by the process's limit; an engine that talks on without ending
  // its search is caught here.
  const auto deadline = std::chrono::steady_clock::now() + silence_limit(config_);
  const bool limited = limits.stop || limits.deadline != std::chrono::steady_clock::time_point{};
  bool stopped = false;
  for (;;) {
    // With limits, wait for output a little at a time, to tell the engine to stop once
    // they run out (it then answers at once with the best move it has).
    while (limited && !stopped && !process_.has_output(std::chrono::milliseconds(10))) {
      if (limits.timed_out()) {
        process_.send("stop");
        stopped = true;
      } else if (std::chrono::steady_clock::now() > deadline) {
        break;  // read_line() below catches the silence
      }
    }
    const std::string line = process_.read_line();
    if (line.starts_with("bestmove")) {
      std::istringstream words(line);
      std::string keyword, move;
      words >> keyword >> move;
      return move.empty() ? "(none)" : move;
    }
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error("UCI engine (" + program_ + ") gave no bestmove within " +
                               std::to_string(silence_limit(config_).count()) + " ms");
  }
}

void ExternalEngine::sync() {
  process_.send("isready");
  process_.read_until_prefix("readyok");
}

ExternalEnginePool::ExternalEnginePool(UciAgentConfig config) : config_(std::move(config)) {
  idle_.push_back(std::make_unique<ExternalEngine>(config_));
}

std::unique_ptr<ExternalEngine> ExternalEnginePool::acquire(std::string_view variant) {
  std::unique_ptr<ExternalEngine> engine;
  {
    std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      engine = std::move(idle_.back());
      idle_.pop_back();
    }
  }
  if (!engine) engine = std::make_unique<ExternalEngine>(config_);
  engine->set_variant(variant);
  engine->new_game();
  return engine;
}

void ExternalEnginePool::release(std::unique_ptr<ExternalEngine> engine) {
  std::lock_guard lock(mutex_);
  idle_.push_back(std::move(engine));
}

}  // namespace knightgym
