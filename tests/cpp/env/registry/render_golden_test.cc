// Golden files for render() (AnyState::to_string()) of every spec of
// tests/cpp/env/games/*/conformance_specs.txt, so that a change to any game's board picture, or to
// the seeded play behind it, shows up as a reviewed diff rather than passing unnoticed.
//
// One file per spec in tests/golden/render/ (the folder comes from KNIGHTGYM_GOLDEN, set in
// tests/CMakeLists.txt), named from the spec made file-safe: the spec's characters are
// kept where they are letters, digits or one of "_=.+-"; '(' and ',' become "__"; ')',
// '[' and ']' are dropped; any other character becomes '-'; then ".txt" is appended. So
// knight_fight(double_erase=forced) is knight_fight__double_erase=forced.txt, and
// knights_challenge(mode=duel,safe_squares=[f5,g8]) is
// knights_challenge__mode=duel__safe_squares=f5__g8.txt. Two specs with one name fail.
//
// Each file holds four states of one game: the start (new_initial_state(0)), then the
// positions after 5, 20 and 60 decisions, each chosen uniformly among the legal actions by
// Rng(kDecisionSeed), stopping early if the game ends. Each state is a header line
// ("== start", "== after 5 decisions", or "== after 60 decisions (the game ended after
// 37)"), the line "serialized: " + serialize(), and the render.
//
// A file that differs from the renders fails, naming the file and its first differing
// line; a missing file fails, and so does a stale one (a .txt in the folder whose spec is
// no longer in the list). With KNIGHTGYM_UPDATE_GOLDEN=1 in the environment the test
// rewrites the files that differ and removes stale ones, and fails naming each: review
// the diff, commit it and run again (tests/golden/README.md); a run that changes a golden
// file never passes.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "env/core/rng.h"
#include "env/registry/registry.h"
#include "tests/cpp/env/registry/conformance_specs.h"
#include "tests/cpp/test_files.h"

namespace knightgym {
namespace {

constexpr uint64_t kStateSeed = 0;
constexpr uint64_t kDecisionSeed = 0;
constexpr int kCheckpoints[] = {5, 20, 60};

std::string render_folder() { return std::string(KNIGHTGYM_GOLDEN) + "/render"; }

bool updating() {
  const char* value = std::getenv("KNIGHTGYM_UPDATE_GOLDEN");
  return value != nullptr && std::string_view(value) == "1";
}

// The golden file name of a spec (the rule is in the header comment).
std::string file_name(std::string_view spec) {
  std::string out;
  for (const char c : spec) {
    const bool kept = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      std::string_view("_=.+-").find(c) != std::string_view::npos;
    if (kept)
      out += c;
    else if (c == '(' || c == ',')
      out += "__";
    else if (c != ')' && c != '[' && c != ']')
      out += '-';
  }
  return out + ".txt";
}

void add_state(std::string& out, const std::string& header, const AnyState& state) {
  out += "== " + header + "\n";
  out += "serialized: " + state.serialize() + "\n";
  out += state.to_string();
  if (out.back() != '\n') out += '\n';
}

// The golden text of a spec: the start and the checkpoints of one seeded game.
std::string golden_text(const std::string& spec) {
  const auto game = load_game(spec);
  auto state = game->new_initial_state(kStateSeed);
  std::string out = "# render() of " + spec + ": new_initial_state(" + std::to_string(kStateSeed) +
                    "), then uniform decisions from Rng(" + std::to_string(kDecisionSeed) +
                    "); written by tests/cpp/env/registry/render_golden_test.cc\n";
  add_state(out, "start", *state);
  Rng rng(kDecisionSeed);
  int decisions = 0;
  for (const int checkpoint : kCheckpoints) {
    while (decisions < checkpoint && !state->is_terminal()) {
      const std::vector<Action> legal = state->legal_actions();
      state->apply_action(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
      ++decisions;
    }
    std::string header = "after " + std::to_string(checkpoint) + " decisions";
    if (decisions < checkpoint)
      header += " (the game ended after " + std::to_string(decisions) + ")";
    add_state(out, header, *state);
  }
  return out;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// What is wrong with the golden file `path` for `expected`, or an empty string.
std::string compare(const std::string& path, const std::string& expected) {
  if (!std::filesystem::exists(path))
    return path + " is missing (run with KNIGHTGYM_UPDATE_GOLDEN=1 to write it)";
  const std::string golden = testing::read_bytes(path);
  if (golden == expected) return {};
  const std::vector<std::string> want = lines(golden), got = lines(expected);
  size_t i = 0;
  while (i < want.size() && i < got.size() && want[i] == got[i]) ++i;
  std::ostringstream out;
  out << path << ": first difference at line " << i + 1
      << "\n  golden: " << (i < want.size() ? want[i] : "(end of file)")
      << "\n  now:    " << (i < got.size() ? got[i] : "(end of text)")
      << "\n(if the change is intended, rerun with KNIGHTGYM_UPDATE_GOLDEN=1 and review the diff)";
  return out.str();
}

// The golden file names of the listed specs; two specs with one name fail.
std::set<std::string> expected_names(const std::vector<std::string>& specs) {
  std::set<std::string> names;
  for (const std::string& spec : specs) {
    INFO(spec << " -> " << file_name(spec));
    REQUIRE(names.insert(file_name(spec)).second);
  }
  return names;
}

TEST_CASE("render() of every conformance spec matches its golden file", "[golden]") {
  const std::vector<std::string> specs = testing::conformance_specs();
  expected_names(specs);
  if (updating()) std::filesystem::create_directories(render_folder());
  for (const std::string& spec : specs) {
    const std::string path = render_folder() + "/" + file_name(spec);
    const std::string text = golden_text(spec);
    // The renders depend on the seeds only: a second run gives the same text.
    const bool repeatable = golden_text(spec) == text;
    INFO(spec);
    REQUIRE(repeatable);
    const std::string problem = compare(path, text);
    if (problem.empty()) continue;
    if (!updating()) {
      FAIL_CHECK(problem);
      continue;
    }
    // Rewritten, and still a failure: a run that changes a golden file never passes.
    std::ofstream(path, std::ios::binary) << text;
    FAIL_CHECK("rewrote " << path << ": review the diff, then run the tests again");
  }
}

TEST_CASE("every golden render file belongs to a conformance spec", "[golden]") {
  const std::set<std::string> names = expected_names(testing::conformance_specs());
  std::vector<std::string> stale;
  for (const auto& entry : std::filesystem::directory_iterator(render_folder())) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".txt" && !names.count(name)) stale.push_back(name);
  }
  std::sort(stale.begin(), stale.end());
  for (const std::string& name : stale) {
    if (updating()) {
      std::filesystem::remove(render_folder() + "/" + name);
      FAIL_CHECK("removed the stale " << render_folder() << "/" << name
                                      << ": review the diff, then run the tests again");
    } else {
      FAIL_CHECK(render_folder() << "/" << name
                                 << " is stale: no conformance spec has this "
                                    "name (remove it, or run with KNIGHTGYM_UPDATE_GOLDEN=1)");
    }
  }
}

}  // namespace
}  // namespace knightgym
