#include "programs/uci/uci_engine.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <exception>
#include <initializer_list>
#include <stdexcept>

#include "env/registry/registry.h"
#include "util/text.h"

namespace knightgym {
namespace {

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// words[from, to) joined by single spaces.
std::string words_between(const std::vector<std::string>& words, size_t from, size_t to) {
  return join({words.begin() + static_cast<std::ptrdiff_t>(from),
               words.begin() + static_cast<std::ptrdiff_t>(to)},
              " ");
}

bool parse_count(const std::string& text, int64_t& value) {
  const char* end = text.data() + text.size();
  const auto [ptr, error] = std::from_chars(text.data(), end, value);
  return error == std::errc() && ptr == end && value >= 0;
}

// Lc0's map from an expected return in [-1, 1] to centipawns: near-linear around 0
// (1 pawn at about 0.35) and steep towards a sure result, so that GUIs' resignation and
// adjudication thresholds in centipawns mean something.
int centipawns(float value) {
  return static_cast<int>(std::lround(90.0 * std::tan(1.5637541897 * value)));
}

// The game of `spec`, or the first registered one a UCI engine plays.
std::shared_ptr<const AnyGame> uci_game(std::string_view spec) {
  if (spec.empty())
    for (const GameEntry& entry : registered_games())
      if (entry.uci) return load_game(entry.name);
  std::shared_ptr<const AnyGame> game = load_game(spec);
  if (!game->uci())
    throw std::invalid_argument("no UCI engine plays " + std::string(game->name()) +
                                ": it has no FEN (env/core/uci_game.h)");
  return game;
}

// One line of `in` into `line` (without its newline), at most kMaxLineBytes of it: the rest
// of a longer line is read and dropped, so memory stays bounded whatever the input. False
// at the end of the input.
bool read_line(std::istream& in, std::string& line, bool& cut) {
  line.clear();
  cut = false;
  std::streambuf& input = *in.rdbuf();
  for (int c; (c = input.sbumpc()) != std::char_traits<char>::eof();) {
    if (c == '\n') return true;
    if (line.size() < UciEngine::kMaxLineBytes)
      line.push_back(static_cast<char>(c));
    else
      cut = true;
  }
  return !line.empty() || cut;
}

// At most 40 characters of `text`, for messages that quote the input.
std::string quoted(const std::string& text) {
  return text.size() <= 40 ? text : text.substr(0, 40) + "...";
}

}  // namespace

UciEngine::UciEngine(std::ostream& out, std::string_view agent_spec, uint64_t seed,
                     std::string_view game_spec)
    : out_(out),
      game_(uci_game(game_spec)),
      uci_(*game_->uci()),
      agent_spec_(agent_spec),
      seed_(seed),
      agent_(AgentFactory(agent_spec, game_).make(seed)),
      position_(game_->state_from_fen(uci_.start_fen)) {}

UciEngine::~UciEngine() { stop_search(); }

int64_t UciEngine::clock_budget_ms(int64_t time_left, int64_t increment, int64_t moves_to_go) {
  const int64_t moves = moves_to_go > 0 ? std::min<int64_t>(moves_to_go, 30) : 30;
  const int64_t budget = time_left / moves + increment / 2;
  return std::clamp<int64_t>(budget, 1, std::max<int64_t>(time_left - kMoveOverheadMs, 1));
}

void UciEngine::run(std::istream& in) {
  std::string line;
  for (bool cut = false; read_line(in, line, cut);) {
    if (cut) {
      say("info string error: a line of more than " + std::to_string(kMaxLineBytes) +
          " bytes, ignored");
      continue;
    }
    try {
      const std::vector<std::string_view> words = split_words(line);
      if (!handle({words.begin(), words.end()})) return;
    } catch (const std::exception& error) {
      say("info string error: " + std::string(error.what()));
    }
  }
  finish_search();
}

bool UciEngine::handle(const Tokens& command) {
  if (command.empty()) return true;
  const std::string& name = command[0];
  if (name == "uci") {
    identify();
  } else if (name == "isready") {
    say("readyok");
  } else if (name == "ucinewgame") {
    finish_search();
    position_ = game_->state_from_fen(uci_.start_fen);
  } else if (name == "setoption") {
    finish_search();
    set_option(command);
  } else if (name == "position") {
    set_position(command);  // a running search has its own copy of the position
  } else if (name == "go") {
    finish_search();
    go(command);
  } else if (name == "stop") {
    stop_search();
  } else if (name == "quit") {
    stop_search();
    return false;
  } else {
    say("info string unknown command '" + quoted(name) +
        "' (known: uci, isready, ucinewgame, setoption, position, go, stop, quit)");
  }
  return true;
}

void UciEngine::identify() {
  say("id name knightgym");
  say("id author the knightgym authors");
  const std::string variant(uci_.variant);
  say("option name UCI_Variant type combo default " + variant + " var " + variant);
  say("option name Agent type string default " + agent_spec_);
  say("uciok");
}

// setoption name NAME [value VALUE]; option names are case-insensitive in UCI.
void UciEngine::set_option(const Tokens& command) {
  const auto value_at = std::find(command.begin(), command.end(), "value");
  const size_t value_index = static_cast<size_t>(value_at - command.begin());
  if (command.size() < 3 || command[1] != "name" || value_index == 2) {
    say("info string setoption: expected 'setoption name NAME [value VALUE]'");
    return;
  }
  const std::string name = words_between(command, 2, value_index);
  const std::string value =
      words_between(command, std::min(value_index + 1, command.size()), command.size());
  if (lowercase(name) == "uci_variant") {
    if (lowercase(value) != uci_.variant)
      say("info string UCI_Variant '" + value + "' is not supported: this engine plays " +
          std::string(uci_.variant) + " only");
  } else if (lowercase(name) == "agent") {
    try {
      agent_ = AgentFactory(value, game_).make(seed_);
      agent_spec_ = value;
    } catch (const std::exception& error) {
      say("info string Agent '" + value + "' rejected: " + error.what() + "; keeping " +
          agent_spec_);
    }
  } else {
    say("info string unknown option '" + name + "' (known: UCI_Variant, Agent)");
  }
}

// position (startpos | fen FEN) [moves MOVE...]. On any error the position stays as it was.
void UciEngine::set_position(const Tokens& command) {
  const auto moves_at = std::find(command.begin(), command.end(), "moves");
  const size_t moves_index = static_cast<size_t>(moves_at - command.begin());
  std::string fen;
  if (command.size() > 1 && command[1] == "startpos" && moves_index <= 2) {
    fen = uci_.start_fen;
  } else if (command.size() > 1 && command[1] == "fen" && moves_index > 2) {
    fen = words_between(command, 2, moves_index);
  } else {
    say("info string position: expected 'position startpos [moves ...]' or 'position fen FEN "
        "[moves ...]'; position unchanged");
    return;
  }
  std::unique_ptr<AnyState> state;
  try {
    state = game_->state_from_fen(fen);
  } catch (const std::invalid_argument& error) {
    say("info string position: " + std::string(error.what()) + "; position unchanged");
    return;
  }
  for (size_t i = moves_index + 1; i < command.size(); ++i) {
    try {
      state->apply_action(state->string_to_action(command[i]));
    } catch (const std::invalid_argument& error) {
      say("info string position: move " + std::to_string(i - moves_index) + " (" + command[i] +
          ") rejected: " + error.what() + "; position unchanged");
      return;
    }
    // UCI knows no ply limit: past the game's max_turns, go on from the same position
    // as a new episode (repetitions before it are forgotten).
    if (state->is_truncated()) state = game_->state_from_fen(state->fen());
  }
  position_ = std::move(state);
}

// go [nodes N] [movetime MS] [depth D] [wtime MS btime MS [winc MS binc MS] [movestogo N]]
// [infinite]. Bad or unsupported parameters are reported and ignored; the search runs.
void UciEngine::go(const Tokens& command) {
  const Clock::time_point start = Clock::now();
  int64_t nodes = 0, movetime = -1, depth = 0, wtime = -1, btime = -1, winc = 0, binc = 0,
          movestogo = 0;
  const std::pair<const char*, int64_t*> numbers[] = {
      {"nodes", &nodes}, {"movetime", &movetime}, {"depth", &depth}, {"wtime", &wtime},
      {"btime", &btime}, {"winc", &winc},         {"binc", &binc},   {"movestogo", &movestogo}};
  bool infinite = false;
  for (size_t i = 1; i < command.size(); ++i) {
    const std::string& key = command[i];
    const auto number = std::find_if(std::begin(numbers), std::end(numbers),
                                     [&](const auto& entry) { return key == entry.first; });
    if (key == "infinite") {
      infinite = true;
    } else if (number != std::end(numbers)) {
      const std::string value = i + 1 < command.size() ? command[++i] : "";
      if (!parse_count(value, *number->second))
        say("info string go: " + key + " needs a whole number >= 0, not '" + value + "'; ignored");
    } else {
      say("info string go: '" + key + "' is not supported; ignored");
    }
  }

  for (int64_t* time : {&movetime, &wtime, &btime, &winc, &binc})
    *time = std::min(*time, kMaxTimeMs);

  SearchLimits limits;
  limits.stop = &stop_;
  limits.depth = static_cast<int>(std::min<int64_t>(depth, 1 << 20));
  const bool white = position_->current_player() == 0;
  const int64_t time_left = white ? wtime : btime;
  int64_t budget = movetime;
  if (time_left >= 0) {
    const int64_t clock = clock_budget_ms(time_left, white ? winc : binc, movestogo);
    budget = budget >= 0 ? std::min(budget, clock) : clock;
  }
  if (budget >= 0) limits.deadline = start + std::chrono::milliseconds(budget);
  // Without nodes, a search bounded otherwise runs until that bound; `go` alone uses the
  // agent's own number of simulations.
  const bool bounded = budget >= 0 || depth > 0 || infinite;
  limits.sims = nodes > 0 ? std::min(nodes, kMaxSims) : bounded ? kMaxSims : 0;

  stop_ = false;
  infinite_ = infinite;
  worker_ = std::thread(&UciEngine::search, this, position_->clone(), limits, infinite, start);
}

void UciEngine::search(std::unique_ptr<AnyState> state, SearchLimits limits, bool infinite,
                       Clock::time_point start) {
  std::string best = "(none)", info;
  if (state->is_terminal()) {
    info = "info string the game is over: there is no move to play";
  } else {
    try {
      best = state->action_to_string(agent_->act(*state, limits));
      const SearchReport report = agent_->last_report();
      const int64_t ms =
          std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
      info = "info depth " + std::to_string(report.depth) + " nodes " +
             std::to_string(report.sims) + " nps " +
             std::to_string(report.sims * 1000 / std::max<int64_t>(ms, 1)) + " time " +
             std::to_string(ms);
      // Agents that do not search report no simulations, and no value worth a score.
      if (report.sims > 0) info += " score cp " + std::to_string(centipawns(report.value));
      info += " pv " + best;
    } catch (const std::exception& error) {
      info = "info string search failed: " + std::string(error.what());
    }
  }
  // UCI: after `go infinite` the bestmove waits for `stop`, even if the search ended.
  if (infinite) stop_.wait(false);
  const std::lock_guard lock(out_mutex_);
  out_ << info << '\n' << "bestmove " << best << std::endl;
}

void UciEngine::finish_search() {
  if (infinite_) {
    stop_search();
  } else if (worker_.joinable()) {
    worker_.join();
  }
}

void UciEngine::stop_search() {
  stop_ = true;
  stop_.notify_all();
  if (worker_.joinable()) worker_.join();
}

void UciEngine::say(const std::string& line) {
  const std::lock_guard lock(out_mutex_);
  out_ << line << std::endl;
}

}  // namespace knightgym
