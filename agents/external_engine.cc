#include "agents/external_engine.h"

#include <algorithm>
#include <chrono>
#include <cmath>
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

double EngineScore::ordering() const {
  constexpr double kMate = 1e6;  // beyond any centipawns
  return mate > 0 ? kMate - mate : mate < 0 ? -kMate - mate : centipawns;
}

float EngineScore::value() const {
  if (mate != 0) return mate > 0 ? 1.0f : -1.0f;
  return static_cast<float>(2.0 / (1.0 + std::pow(10.0, -centipawns / 400.0)) - 1.0);
}

void read_info_line(const std::string& line, EngineAnswer& answer) {
  std::istringstream words(line);
  std::string word;
  if (!(words >> word) || word != "info") return;
  int rank = 1;
  bool scored = false, bound = false;
  EngineScore score;
  std::string first_move;
  while (words >> word) {
    if (word == "multipv") {
      words >> rank;
    } else if (word == "depth") {
      words >> answer.depth;
    } else if (word == "nodes") {
      words >> answer.nodes;
    } else if (word == "score") {
      std::string unit;
      words >> unit;
      scored = unit == "cp" ? static_cast<bool>(words >> score.centipawns)
                            : unit == "mate" && static_cast<bool>(words >> score.mate);
    } else if (word == "lowerbound" || word == "upperbound") {
      bound = true;
    } else if (word == "pv") {
      words >> first_move;
      break;  // the rest is the line's moves
    } else if (word == "string") {
      return;  // free text
    }
  }
  // Ranks are small (the MultiPV option); a line out of range is not a scored move.
  constexpr int kMaxRank = 256;
  if (!scored || first_move.empty() || rank < 1 || rank > kMaxRank) return;
  if (static_cast<int>(answer.lines.size()) < rank) answer.lines.resize(rank);
  EngineLine& kept = answer.lines[rank - 1];
  if (bound && !kept.move.empty()) return;
  kept = {first_move, score};
}

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
  if (config_.multipv > 1)
    process_.send("setoption name MultiPV value " + std::to_string(config_.multipv));
  sync();
  variant_ = variant;
}

void ExternalEngine::new_game() {
  process_.send("ucinewgame");
  sync();
}

EngineAnswer ExternalEngine::search(const std::string& position, const SearchLimits& limits) {
  process_.send("position " + position);
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
  EngineAnswer answer;
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
      std::string keyword;
      words >> keyword >> answer.best_move;
      if (answer.best_move.empty()) answer.best_move = "(none)";
      return answer;
    }
    read_info_line(line, answer);
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
