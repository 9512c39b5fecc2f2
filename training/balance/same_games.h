// Two rule sets that played the same games, up to which seat is which: one sample, not
// two. A rule that only changes who starts (Tailten's first_player) played by agents that
// answer a position the same way from either seat gives every game of one rule set again
// in the other, mirrored; a rule no game ever invokes gives them again unchanged.
//
// The games themselves are not kept, so the figures tell: the same number of games, of
// the same lengths (histogram, mean and sd of the decisions per game), the same ends, and
// each seat's outcomes and ranks those of a seat of the other. Over 100 games or more of
// lengths that vary, counts this alike by chance are as good as impossible; fewer games,
// or games all of one length, are never called the same.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "training/balance/figures.h"

namespace knightgym {

// What the figures say about a rule set's games, as balance.json holds it.
struct GamesFingerprint {
  struct Seat {
    std::array<int64_t, 3> outcomes{};  // wins, draws, losses
    std::vector<int64_t> ranks;
    bool operator==(const Seat&) const = default;
  };
  int64_t games = 0, natural_draws = 0, truncated = 0, truncated_draws = 0;
  double length_mean = 0, length_sd = 0;
  int64_t bin_start = 0, bin_width = 1;
  std::vector<int64_t> histogram;
  std::vector<Seat> seats;
};

GamesFingerprint fingerprint(const RuleSetFigures& figures);

inline constexpr int64_t kLeastGamesToMatch = 100;

// The seats of `b` that hold `a`'s seats (a's seat s played as b's seat p[s]) where the
// two played the same games, the identity first; empty where they did not.
std::vector<int> same_games(const GamesFingerprint& a, const GamesFingerprint& b);

// Per rule set of a sweep, the first earlier one that played its games: `rule_set` (-1
// where none did) and `seats` (this rule set's seat s played as that one's seats[s]).
struct SameGamesAs {
  int rule_set = -1;
  std::vector<int> seats;
};

std::vector<SameGamesAs> match_same_games(std::span<const GamesFingerprint> rule_sets);

}  // namespace knightgym
