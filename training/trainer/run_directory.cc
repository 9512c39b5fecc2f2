#include "training/trainer/run_directory.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "util/atomic_file.h"
#include "util/json_reader.h"
#include "util/json_writer.h"
#include "util/text.h"

namespace knightgym {
namespace fs = std::filesystem;

namespace {

constexpr const char* kPrefix = "step-";
constexpr const char* kSuffix = ".ckpt";

std::string join_csv(const std::vector<std::string>& cells) {
  std::string line;
  for (size_t i = 0; i < cells.size(); ++i) line += (i ? "," : "") + cells[i];
  return line + "\n";
}

}  // namespace

RunDirectory::RunDirectory(std::string dir) : dir_(std::move(dir)) {}

void RunDirectory::create() const {
  std::error_code error;
  fs::create_directories(dir_ + "/checkpoints", error);
  if (error)
    throw std::runtime_error("cannot create '" + dir_ + "/checkpoints': " + error.message());
}

std::string RunDirectory::checkpoint(int64_t step) const {
  char name[64];
  std::snprintf(name, sizeof name, "%s%09lld%s", kPrefix, static_cast<long long>(step), kSuffix);
  return dir_ + "/checkpoints/" + name;
}

std::string RunDirectory::snapshot(int64_t seconds) const {
  std::error_code error;
  fs::create_directories(dir_ + "/snapshots", error);
  if (error) throw std::runtime_error("cannot create '" + dir_ + "/snapshots': " + error.message());
  char name[64];
  std::snprintf(name, sizeof name, "seconds-%07lld.pt", static_cast<long long>(seconds));
  return dir_ + "/snapshots/" + name;
}

std::vector<std::string> RunDirectory::checkpoints() const {
  std::vector<std::string> out;
  if (!fs::is_directory(dir_ + "/checkpoints")) return out;
  for (const auto& entry : fs::directory_iterator(dir_ + "/checkpoints")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(kPrefix, 0) == 0 && name.size() > 10 &&
        name.compare(name.size() - 5, 5, kSuffix) == 0)
      out.push_back(entry.path().string());
  }
  std::sort(out.rbegin(), out.rend());  // zero-padded steps sort as numbers
  return out;
}

std::string RunDirectory::replay_sample(const std::string& checkpoint) {
  return checkpoint.substr(0, checkpoint.size() - std::strlen(kSuffix)) + ".replay";
}

void RunDirectory::prune(int keep) const {
  const std::vector<std::string> all = checkpoints();
  for (size_t i = static_cast<size_t>(keep); i < all.size(); ++i) {
    fs::remove(all[i]);
    fs::remove(replay_sample(all[i]));
  }
  for (const std::string& folder : {dir_, dir_ + "/checkpoints"})
    for (const auto& entry : fs::directory_iterator(folder))
      if (is_stale_temporary(entry.path().filename().string())) fs::remove(entry.path());
  // A replay sample is written before its checkpoint: one without it is a killed run's.
  for (const auto& entry : fs::directory_iterator(dir_ + "/checkpoints")) {
    const fs::path path = entry.path();
    if (path.extension() == ".replay" && !fs::exists(fs::path(path).replace_extension(kSuffix)))
      fs::remove(path);
  }
}

void RunDirectory::set_aside(const std::string& checkpoint) const {
  for (const std::string& path : {checkpoint, replay_sample(checkpoint)}) {
    std::error_code error;
    if (fs::exists(path)) fs::rename(path, path + ".damaged", error);
    if (error) throw std::runtime_error("cannot set aside '" + path + "': " + error.message());
  }
}

void RunDirectory::write_config(const std::string& game_spec,
                                const std::string& settings_json) const {
  JsonWriter json;
  json.begin_object().key("game").value(game_spec).key("settings").raw(settings_json);
  write_file_atomically(file("config.json"), json.end_object().text() + "\n");
}

bool RunDirectory::holds_run(const std::string& dir) { return fs::exists(dir + "/config.json"); }

std::pair<std::string, std::string> RunDirectory::read_config() const {
  const std::string path = file("config.json");
  if (!fs::is_regular_file(path))
    throw std::invalid_argument("nothing to resume in '" + dir_ + "': no config.json");
  try {
    const JsonValue json = parse_json(read_file(path).value_or(""));
    return {json.at("game").as_string(), json.at("settings").text()};
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument("'" + path + "': " + error.what());
  }
}

MetricsLog::MetricsLog(const std::string& path, const std::vector<std::string>& columns,
                       const std::optional<MetricsBounds>& resume)
    : columns_(columns.size()) {
  const std::string header = join_csv(columns);
  std::string kept = header;
  if (resume && fs::is_regular_file(path)) {
    // (column index, bound) of each bound.
    std::vector<std::pair<size_t, int64_t>> bounds;
    for (const auto& [name, bound] : *resume) {
      const auto found = std::find(columns.begin(), columns.end(), name);
      if (found == columns.end()) throw std::logic_error("no metrics column '" + name + "'");
      bounds.emplace_back(static_cast<size_t>(found - columns.begin()), bound);
    }
    std::istringstream lines(read_file(path).value_or(""));
    std::string line;
    std::getline(lines, line);
    if (line + "\n" != header)
      throw std::invalid_argument("'" + path + "' has other columns than this run writes");
    // A line without its newline is the row a kill cut short: dropped. A row past a
    // bound is work lost with the kill: dropped with every row after it. Any other line
    // must be a whole row (every column, the bounded ones integers), or resuming is
    // refused with its number, nothing changed.
    for (size_t number = 2; std::getline(lines, line) && !lines.eof(); ++number) {
      const std::vector<std::string_view> cells = split(line, ',');
      bool whole = cells.size() == columns_, beyond = false;
      for (const auto& [column, bound] : bounds) {
        if (column >= cells.size()) continue;
        const std::string_view cell = cells[column];
        int64_t value = 0;
        const auto [end, error] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
        if (error != std::errc() || end != cell.data() + cell.size())
          whole = false;
        else if (value > bound)
          beyond = true;
      }
      if (beyond) break;
      if (!whole)
        throw std::invalid_argument("'" + path + "' line " + std::to_string(number) +
                                    " is not a row of this run: mend or delete it, then resume");
      kept += line + "\n";
    }
  }
  write_file_atomically(path, kept);
  path_ = path;
  size_ = static_cast<off_t>(kept.size());
  fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd_ < 0) throw std::runtime_error("cannot append to '" + path + "': " + std::strerror(errno));
}

MetricsLog::~MetricsLog() {
  if (fd_ >= 0) ::close(fd_);
}

void MetricsLog::append(const std::vector<std::string>& row) {
  if (row.size() != columns_) throw std::logic_error("a metrics row with the wrong column count");
  const std::string line = join_csv(row);
  std::string_view left = line;
  while (!left.empty()) {
    const ssize_t written = ::write(fd_, left.data(), left.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      const std::string why = written < 0 ? std::strerror(errno) : "nothing written";
      // The part of the row written is cut off again: the file ends with a whole row.
      const bool restored = ::ftruncate(fd_, size_) == 0;
      throw std::runtime_error("cannot append to '" + path_ + "': " + why +
                               (restored ? "; the file is as it was before the row"
                                         : "; and cutting the part written failed"));
    }
    left.remove_prefix(static_cast<size_t>(written));
  }
  size_ += static_cast<off_t>(line.size());
}

}  // namespace knightgym
