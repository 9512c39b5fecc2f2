#include "training/balance/same_games.h"

#include <algorithm>

namespace knightgym {

GamesFingerprint fingerprint(const RuleSetFigures& figures) {
  GamesFingerprint print;
  print.games = figures.games;
  print.natural_draws = figures.natural_draws;
  print.truncated = figures.truncated, print.truncated_draws = figures.truncated_draws;
  print.length_mean = figures.length.decisions.mean;
  print.length_sd = figures.length.decisions.sd;
  print.bin_start = figures.length.bin_start, print.bin_width = figures.length.bin_width;
  print.histogram = figures.length.histogram;
  for (const SeatFigures& seat : figures.seats)
    print.seats.push_back({{seat.wins, seat.draws, seat.losses}, seat.ranks});
  return print;
}

std::vector<int> same_games(const GamesFingerprint& a, const GamesFingerprint& b) {
  const bool alike = a.games >= kLeastGamesToMatch && a.length_sd > 0 && a.games == b.games &&
                     a.natural_draws == b.natural_draws && a.truncated == b.truncated &&
                     a.truncated_draws == b.truncated_draws && a.length_mean == b.length_mean &&
                     a.length_sd == b.length_sd && a.bin_start == b.bin_start &&
                     a.bin_width == b.bin_width && a.histogram == b.histogram &&
                     a.seats.size() == b.seats.size();
  if (!alike) return {};
  // Seats alike are interchangeable (alike is an equivalence), so matching each of a's
  // seats to the first unused alike seat of b, its own number first, finds an order where
  // there is one.
  std::vector<int> seats(a.seats.size(), -1);
  std::vector<bool> used(b.seats.size(), false);
  for (size_t s = 0; s < a.seats.size(); ++s) {
    if (a.seats[s] == b.seats[s] && !used[s]) {
      seats[s] = static_cast<int>(s), used[s] = true;
      continue;
    }
    for (size_t t = 0; t < b.seats.size() && seats[s] < 0; ++t)
      if (!used[t] && a.seats[s] == b.seats[t]) seats[s] = static_cast<int>(t), used[t] = true;
    if (seats[s] < 0) return {};
  }
  return seats;
}

std::vector<SameGamesAs> match_same_games(std::span<const GamesFingerprint> rule_sets) {
  std::vector<SameGamesAs> matches(rule_sets.size());
  for (size_t j = 1; j < rule_sets.size(); ++j)
    for (size_t i = 0; i < j && matches[j].rule_set < 0; ++i) {
      std::vector<int> seats = same_games(rule_sets[j], rule_sets[i]);
      if (!seats.empty()) matches[j] = {static_cast<int>(i), std::move(seats)};
    }
  return matches;
}

}  // namespace knightgym
