// The manifest of shipped networks (agents/pretrained.h): entries read in order with
// every key, from manifest.json or an earlier version's manifest.txt, malformed manifests
// refused naming the file and where, a game resolved to its file, and a variant no network
// covers refused with the list of what is shipped. The project's own models/manifest.json
// is read too: every entry's file exists, is at most
// 5 MB, and names a game by its canonical spec. No LibTorch: these hold in every build.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "agents/pretrained.h"
#include "env/registry/registry.h"
#include "tests/cpp/test_files.h"

namespace knightgym {
namespace {

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using testing::temporary_dir;

// A models directory with `manifest` as its manifest.json (or `file`) and empty files
// a.pt and b.pt.
std::string models_with(const std::string& name, const std::string& manifest,
                        const std::string& file = "manifest.json") {
  const std::string dir = temporary_dir(name);
  fs::remove(dir + "/manifest.json");
  std::ofstream(dir + "/" + file) << manifest;
  std::ofstream(dir + "/a.pt") << "";
  std::ofstream(dir + "/b.pt") << "";
  return dir;
}

// Points models_directory() at `dir` for one scope ($KNIGHTGYM_MODELS would win: unset).
struct ModelsDirectory {
  explicit ModelsDirectory(const std::string& dir) {
    unsetenv("KNIGHTGYM_MODELS");
    set_models_directory(dir);
  }
  ~ModelsDirectory() { set_models_directory(""); }
};

const char* kTwoModels = R"json({
  "about": "shipped networks",
  "networks": {
    "first": {
      "file": "a.pt",
      "game": "tailten(first_player=0,ringforts=30,max_turns=200)",
      "minutes": 24.0,
      "strength": "93.8% against mcts:sims=200"
    },
    "second": {
      "game": "knight_fight(double_erase=optional,mirror_on_moves=true,max_turns=200,layout=random)",
      "file": "b.pt"
    }
  }
})json";

// The same as an earlier version wrote it.
const char* kTwoModelsText =
    "# shipped networks\n"
    "\n"
    "[first]\n"
    "file = a.pt\n"
    "game = tailten(first_player=0,ringforts=30,max_turns=200)\n"
    "minutes = 24.0\n"
    "  strength = 93.8% against mcts:sims=200  \n"
    "[second]\n"
    "game=knight_fight(double_erase=optional,mirror_on_moves=true,max_turns=200,layout=random)\n"
    "file=b.pt\n";

TEST_CASE("pretrained: a manifest's entries come back in order with every key", "[pretrained]") {
  const std::string dir = models_with("manifest_good", kTwoModels);
  const auto models = read_manifest(dir);
  const std::string text_dir = models_with("manifest_good_text", kTwoModelsText, "manifest.txt");
  const auto from_text = read_manifest(text_dir);
  REQUIRE(from_text.size() == 2);
  for (size_t i = 0; i < 2; ++i) {
    CHECK(from_text[i].name == models[i].name);
    CHECK(from_text[i].fields == models[i].fields);
  }
  REQUIRE(models.size() == 2);
  CHECK(models[0].name == "first");
  CHECK(models[0].file == "a.pt");
  CHECK(models[0].game == "tailten(first_player=0,ringforts=30,max_turns=200)");
  CHECK(models[0].path() == dir + "/a.pt");
  REQUIRE(models[0].fields.size() == 4);
  CHECK(models[0].fields[2] == std::pair<std::string, std::string>{"minutes", "24.0"});
  CHECK(models[0].fields[3].second == "93.8% against mcts:sims=200");
  CHECK(models[1].name == "second");
  CHECK(models[1].fields[0].first == "game");
}

TEST_CASE("pretrained: a game resolves to its file; other variants are refused with the list",
          "[pretrained]") {
  const std::string dir = models_with("manifest_resolve", kTwoModels);
  const ModelsDirectory use(dir);
  CHECK(models_directory() == dir);
  CHECK(pretrained_model_path("tailten(first_player=0,ringforts=30,max_turns=200)") ==
        dir + "/a.pt");
  const std::string other = "tailten(first_player=1,ringforts=30,max_turns=200)";
  REQUIRE_THROWS_WITH(pretrained_model_path(other),
                      Contains("no shipped network for " + other) &&
                          Contains("tailten(first_player=0,ringforts=30,max_turns=200); "
                                   "knight_fight(double_erase=optional"));
  fs::remove(dir + "/a.pt");
  REQUIRE_THROWS_WITH(pretrained_model_path("tailten(first_player=0,ringforts=30,max_turns=200)"),
                      Contains("is missing: '" + dir + "/a.pt'"));

  setenv("KNIGHTGYM_MODELS", (dir + "/elsewhere").c_str(), 1);
  CHECK(models_directory() == dir + "/elsewhere");
  REQUIRE_THROWS_WITH(pretrained_model_path("tailten"),
                      Contains("no manifest of shipped networks at '" + dir + "/elsewhere"));
  unsetenv("KNIGHTGYM_MODELS");
}

TEST_CASE("pretrained: rules=any takes the network of the closest rules, and refuses a tie",
          "[pretrained]") {
  const std::string dir = models_with("manifest_any_rules", R"json({"networks": {
    "ffa4": {"file": "a.pt", "game": "knights_challenge(mode=ffa4,central_first=true)"},
    "duel": {"file": "b.pt", "game": "knights_challenge(mode=duel,central_first=true)"}
  }})json");
  const ModelsDirectory use(dir);
  // Its own rules first; then the fewest parameters apart.
  CHECK(pretrained_model_path("knights_challenge(mode=duel,central_first=true)",
                              NetworkRules::kAny) == dir + "/b.pt");
  CHECK(pretrained_model_path("knights_challenge(mode=ffa4,central_first=false)",
                              NetworkRules::kAny) == dir + "/a.pt");
  CHECK(pretrained_model_path("knights_challenge(mode=duel,central_first=false)",
                              NetworkRules::kAny) == dir + "/b.pt");
  REQUIRE_THROWS_WITH(
      pretrained_model_path("knights_challenge(mode=ffa3,central_first=true)", NetworkRules::kAny),
      Contains("rules=any: the shipped networks for knights_challenge(mode=ffa4") &&
          Contains("knights_challenge(mode=duel,central_first=true) are as close to "
                   "knights_challenge(mode=ffa3"));
  // Exact rules by default, and never another game.
  REQUIRE_THROWS_WITH(pretrained_model_path("knights_challenge(mode=ffa4,central_first=false)"),
                      Contains("no shipped network for"));
  REQUIRE_THROWS_WITH(pretrained_model_path("tailten(first_player=0)", NetworkRules::kAny),
                      Contains("no shipped network for tailten(first_player=0)"));
  CHECK(game_name("knights_challenge(mode=ffa4)") == "knights_challenge");
  CHECK(game_name("tailten") == "tailten");
}

TEST_CASE("pretrained: malformed manifests are refused naming the file and where", "[pretrained]") {
  const auto refused_json = [](const std::string& manifest, const std::string& why) {
    const std::string dir = models_with("manifest_bad_json", manifest);
    REQUIRE_THROWS_WITH(read_manifest(dir), Contains(dir + "/manifest.json: ") && Contains(why));
  };
  refused_json("{\"networks\": {\"a\": {\"file\": \"a.pt\"", "JSON, line 1");
  refused_json("{\"nets\": {}}", "the document: has no 'networks'");
  refused_json("{\"networks\": {\"a\": {\"file\": [\"a.pt\"]}}}",
               "networks.a.file: expected a string or a number");
  refused_json("{\"networks\": {\"a\": {\"file\": \"a.pt\", \"file\": \"b.pt\"}}}",
               "the key 'file' appears twice");
  refused_json("{\"networks\": {\"a\": {\"file\": \"a.pt\"}}}", "[a] has no 'game'");
  refused_json(
      "{\"networks\": {\"a\": {\"file\": \"a.pt\", \"game\": \"g\"}, "
      "\"b\": {\"file\": \"b.pt\", \"game\": \"g\"}}}",
      "[a] and [b] are both for g");
  const auto refused = [](const std::string& manifest, const std::string& why) {
    const std::string dir = models_with("manifest_bad", manifest, "manifest.txt");
    REQUIRE_THROWS_WITH(read_manifest(dir), Contains(dir + "/manifest.txt") && Contains(why));
  };
  refused("file = a.pt\n", "line 1: key = value before the first [name]");
  refused("[a]\nfile a.pt\n", "line 2: expected [name] or key = value");
  refused("[a\n", "line 1: expected [name]");
  refused("[]\n", "line 1: expected [name]");
  refused("[a]\nfile =\n", "line 2: expected key = value");
  refused("[a]\nfile = a.pt\nfile = b.pt\n", "line 3: 'file' twice in [a]");
  refused("[a]\nfile = a.pt\ngame = g\n[a]\n", "line 4: [a] twice");
  refused("[a]\nfile = a.pt\n", "[a] has no 'game'");
  refused("[a]\ngame = g\n[b]\nfile = b.pt\ngame = h\n", "[a] has no 'file'");
  refused("[a]\nfile = a.pt\ngame = g\n[b]\nfile = b.pt\ngame = g\n", "[a] and [b] are both for g");
  REQUIRE_THROWS_WITH(read_manifest(temporary_dir("manifest_none")), Contains("no manifest"));
}

TEST_CASE("pretrained: the shipped manifest names canonical games and files of at most 8 MB",
          "[pretrained]") {
  const auto models = read_manifest(KNIGHTGYM_MODELS_DIR);
  REQUIRE_FALSE(models.empty());
  for (const PretrainedModel& model : models) {
    INFO(model.name);
    REQUIRE(fs::is_regular_file(model.path()));
    CHECK(fs::file_size(model.path()) <= 8'000'000);  // tools/release/ship_model.py's cap
    CHECK(load_game(model.game)->spec() == model.game);
  }
}

// A network over a grid of rules (the training setting rules=) and one for a rule set
// of another game.
const char* kRuleNetwork = R"json({"networks": {
  "double_duel": {
    "file": "a.pt",
    "game": "double_duel(neighbor_attack=false,switch_move=false,single_pawn_blocks=false,double_free_pawn_moves=false,max_turns=200)",
    "rules": "neighbor_attack=false,true;switch_move=false,true"
  },
  "tailten": {"file": "b.pt", "game": "tailten(first_player=0,ringforts=30,max_turns=200)"}
}})json";

TEST_CASE("pretrained: a network over rules covers every rule set of its grid, and no other",
          "[pretrained][rules]") {
  const std::string dir = models_with("manifest_rules", kRuleNetwork);
  ModelsDirectory in(dir);
  const auto models = read_manifest(dir);
  REQUIRE(models.size() == 2);
  CHECK(models[0].rules == "neighbor_attack=false,true;switch_move=false,true");
  for (const char* spec :
       {"double_duel", "double_duel(neighbor_attack=true)", "double_duel(switch_move=true)",
        "double_duel(neighbor_attack=true,switch_move=true)"})
    CHECK(pretrained_model_path(load_game(spec)->spec()) == dir + "/a.pt");
  // Outside the grid: refused by name, never the nearest network.
  const std::string outside = load_game("double_duel(single_pawn_blocks=true)")->spec();
  CHECK_THROWS_WITH(pretrained_model_path(outside),
                    Contains("no shipped network for " + outside) &&
                        Contains("over rules neighbor_attack=false,true;switch_move=false,true"));
  CHECK_THROWS_WITH(pretrained_model_path(load_game("double_duel(max_turns=100)")->spec()),
                    Contains("no shipped network"));

  // Two networks for one rule set, and rules that are no sweeps of the game, are refused.
  const std::string overlap = models_with("manifest_rules_twice", R"json({"networks": {
    "all": {"file": "a.pt", "game": "double_duel", "rules": "switch_move=false,true"},
    "one": {"file": "b.pt",
            "game": "double_duel(neighbor_attack=false,switch_move=true,single_pawn_blocks=false,double_free_pawn_moves=false,max_turns=200)"}
  }})json");
  CHECK_THROWS_WITH(read_manifest(overlap), Contains("[all] and [one] are both for double_duel(") &&
                                                Contains("switch_move=true"));
  const std::string bad = models_with("manifest_rules_bad", R"json({"networks": {
    "all": {"file": "a.pt", "game": "double_duel", "rules": "no_such_rule=1,2"}
  }})json");
  CHECK_THROWS_WITH(read_manifest(bad), Contains("[all] rules: ") && Contains("no_such_rule"));
}

}  // namespace
}  // namespace knightgym
