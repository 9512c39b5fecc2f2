#include "training/reference/fairy_stockfish.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace knightgym::reference {
namespace {

constexpr const char* kDebianPath = "/usr/games/fairy-stockfish";
constexpr const char* kKnightmateStart = "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1";

std::string find_binary() {
  if (const char* path = std::getenv("KNIGHTGYM_FAIRY_STOCKFISH"); path && *path) return path;
  if (access(kDebianPath, X_OK) == 0) return kDebianPath;
  return "fairy-stockfish";  // posix_spawnp looks it up on PATH
}

}  // namespace

FairyStockfish::FairyStockfish() : path_(find_binary()) {
  // O_CLOEXEC everywhere: the child keeps only the two ends dup2-ed onto its stdin/stdout,
  // and no other child of this process inherits ours.
  int in[2] = {-1, -1}, out[2] = {-1, -1};
  int error = pipe2(in, O_CLOEXEC) == 0 && pipe2(out, O_CLOEXEC) == 0 ? 0 : errno;
  if (!error) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    char* argv[] = {path_.data(), nullptr};
    error = posix_spawnp(&pid_, path_.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (error) pid_ = -1;
  }
  for (const int fd : {in[0], out[1]})
    if (fd >= 0) close(fd);
  to_child_ = in[1];
  if (out[0] >= 0 && !(from_child_ = fdopen(out[0], "r"))) close(out[0]);
  if (!error && !from_child_) error = errno;
  if (error) {
    stop();
    throw std::runtime_error("cannot start Fairy-Stockfish '" + path_ +
                             "': " + std::strerror(error) +
                             " (install Debian's fairy-stockfish package, or set "
                             "KNIGHTGYM_FAIRY_STOCKFISH to the binary)");
  }
  try {
    send("uci");
    read_until_prefix("uciok");
    send("setoption name UCI_Variant value knightmate");
    send("position startpos");
    if (current_fen() != kKnightmateStart)
      throw std::runtime_error("Fairy-Stockfish (" + path_ + ") does not play knightmate");
  } catch (...) {
    stop();
    throw;
  }
}

FairyStockfish::~FairyStockfish() { stop(); }

std::map<std::string, uint64_t> FairyStockfish::perft_divide(const std::string& fen, int depth) {
  std::map<std::string, uint64_t> divide;
  go_perft(fen, depth, &divide);
  return divide;
}

uint64_t FairyStockfish::perft(const std::string& fen, int depth) {
  return go_perft(fen, depth, nullptr);
}

std::string FairyStockfish::fen_after(const std::string& fen,
                                      const std::vector<std::string>& moves) {
  std::string command = "position fen ";
  command += fen;
  if (!moves.empty()) command += " moves";
  for (const std::string& move : moves) {
    command += ' ';
    command += move;
  }
  send(command);
  return current_fen();
}

// The answer is a line "move: count" per legal move, then "Nodes searched: total", with
// empty lines around; anything else means we are out of step with the process.
uint64_t FairyStockfish::go_perft(const std::string& fen, int depth,
                                  std::map<std::string, uint64_t>* divide) {
  if (depth < 1) throw std::invalid_argument("perft depth must be at least 1");
  std::string command = "position fen ";
  command += fen;
  send(command);
  send("go perft " + std::to_string(depth));
  uint64_t sum = 0;
  for (;;) {
    const std::string line = read_line();
    if (line.empty()) continue;
    const size_t colon = line.find(": ");
    uint64_t count = 0;
    const char* end = line.data() + line.size();
    if (colon == std::string::npos ||
        std::from_chars(line.data() + colon + 2, end, count).ptr != end)
      throw std::runtime_error("Fairy-Stockfish: unexpected perft output '" + line + "'");
    if (line.starts_with("Nodes searched: ")) {
      if (count != sum)
        throw std::runtime_error("Fairy-Stockfish: perft moves add up to " + std::to_string(sum) +
                                 ", not the total " + line);
      return count;
    }
    sum += count;
    if (divide) (*divide)[line.substr(0, colon)] = count;
  }
}

// `isready` is answered after `d` has printed everything, so no line of it is left over.
std::string FairyStockfish::current_fen() {
  send("d");
  send("isready");
  const std::string fen = read_until_prefix("Fen: ").substr(5);
  read_until_prefix("readyok");
  return fen;
}

void FairyStockfish::send(const std::string& line) {
  const std::string text = line + '\n';
  // A dead child must show as EPIPE, not kill us with SIGPIPE: block the signal in this
  // thread while writing, and take back the one a failed write raised.
  sigset_t pipe_signal, saved;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &saved);
  int error = 0;
  for (size_t done = 0; done < text.size() && !error;) {
    const ssize_t n = write(to_child_, text.data() + done, text.size() - done);
    if (n >= 0)
      done += static_cast<size_t>(n);
    else if (errno != EINTR)
      error = errno;
  }
  if (error == EPIPE) {
    const timespec no_wait{};
    sigtimedwait(&pipe_signal, nullptr, &no_wait);
  }
  pthread_sigmask(SIG_SETMASK, &saved, nullptr);
  if (error) fail_dead("could not be sent '" + line + "' (" + std::strerror(error) + ")");
}

std::string FairyStockfish::read_line() {
  std::string line;
  for (int c; (c = std::getc(from_child_)) != '\n';) {
    if (c == EOF) fail_dead("closed its output");
    line += static_cast<char>(c);
  }
  return line;
}

std::string FairyStockfish::read_until_prefix(const std::string& prefix) {
  for (;;) {
    std::string line = read_line();
    if (line.starts_with(prefix)) return line;
  }
}

void FairyStockfish::fail_dead(const std::string& what) {
  std::string how = "it is not running";
  int status = 0;
  if (pid_ > 0 && waitpid(pid_, &status, 0) == pid_) {
    how = WIFSIGNALED(status) ? "it was killed by signal " + std::to_string(WTERMSIG(status))
                              : "it exited with status " + std::to_string(WEXITSTATUS(status));
    pid_ = -1;
  }
  throw std::runtime_error("Fairy-Stockfish (" + path_ + ") " + what + ": " + how);
}

void FairyStockfish::stop() {
  if (pid_ > 0) {
    try {
      send("quit");
    } catch (const std::runtime_error&) {
      // It has exited already, and fail_dead reaped it.
    }
  }
  // Our read end first: a child blocked writing to a full pipe then gets EPIPE and ends.
  if (from_child_) std::fclose(from_child_);
  if (to_child_ >= 0) close(to_child_);
  if (pid_ > 0) waitpid(pid_, nullptr, 0);
  from_child_ = nullptr;
  to_child_ = -1;
  pid_ = -1;
}

}  // namespace knightgym::reference
