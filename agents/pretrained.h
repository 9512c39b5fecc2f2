// The networks shipped with knightgym (models/): each a TorchScript file with an entry in
// models/manifest.json, one member of "networks" per network:
//
//   {"networks": {
//     "knight_fight": {
//       "file": "knight_fight.pt",
//       "game": "knight_fight(double_erase=optional,mirror_on_moves=true,max_turns=200,...)",
//       "settings": "blocks=2 channels=32 sims=16 ...",
//       "minutes": 25.0,
//       ...
//
// `file` and `game` (the canonical spec the network was trained for) are required; a
// network trained over many rule sets (the training setting `rules`) has `rules`, the
// same sweeps ("neighbor_attack=false,true;switch_move=false,true"), and covers every rule
// set of their grid over `game`. Any other key (a string or a number) describes the
// network (settings, training time and steps, measured strength) and is kept in order for
// listings. `az:model=pretrained` and the training setting `init=pretrained` find the
// network that covers the canonical spec being played; a variant no network covers is
// refused with the list of what is shipped, never given the nearest network. The manifest.txt of
// earlier versions ([name] sections of key = value lines) is still read where a directory has no
// manifest.json. No LibTorch here: the manifest is read (and its errors given) in any build.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace knightgym {

struct PretrainedModel {
  std::string name;       // its key in "networks"
  std::string file;       // as written: relative to the manifest's directory
  std::string game;       // canonical game spec
  std::string rules;      // sweeps over `game` whose rule sets it plays too; empty: none
  std::string directory;  // the manifest's
  std::vector<std::pair<std::string, std::string>> fields;  // every key, in order
  std::string path() const { return directory + "/" + file; }
};

// Where the shipped networks are: $KNIGHTGYM_MODELS if set, else what
// set_models_directory gave (the installed Python package gives its own copy), else the
// source tree's models/ that this build was configured from.
std::string models_directory();
void set_models_directory(std::string directory);

// `directory`/manifest.json, or the older manifest.txt where only that is there.
std::string manifest_path(const std::string& directory);

// The entries of the manifest in `directory`. Throws std::invalid_argument naming the file
// and where in it a problem is: unreadable, malformed JSON (or, in a manifest.txt, a line
// that is neither [section], key = value, a comment nor blank), a key or network twice, a
// value neither string nor number, a network without file or game, two that cover one rule set,
// `rules` that are no sweeps of the game.
std::vector<PretrainedModel> read_manifest(const std::string& directory);

// Which rules a network may play: only those it was made for, or any of its game's.
enum class NetworkRules { kExact, kAny };

// The shipped network that covers canonical `game_spec`: its path, checked to exist. With
// kAny, where none covers these rules, the network of the same game whose rules differ
// from them in the fewest parameters (a tie is refused, naming both). Throws
// std::invalid_argument if none covers it, listing the games that have one.
std::string pretrained_model_path(const std::string& game_spec,
                                  NetworkRules rules = NetworkRules::kExact);

// "knight_fight(double_erase=forced)" -> "knight_fight": what a network made for other
// rules of a game must share with the game it plays under NetworkRules::kAny.
std::string game_name(const std::string& game_spec);

}  // namespace knightgym
