// Debug checks, compiled in Debug and sanitizer builds (KNIGHTGYM_DEBUG_CHECKS, set by
// CMake) and to nothing elsewhere, so the hot paths stay as they are in Release. A failed
// check throws std::logic_error naming the check and where it failed: it is a bug in the
// caller or in a game, never bad input (bad input gets std::invalid_argument always).
#pragma once

#include <algorithm>
#include <source_location>
#include <string>

#include "env/core/types.h"

namespace knightgym {

#ifdef KNIGHTGYM_DEBUG_CHECKS
inline constexpr bool kDebugChecks = true;
#else
inline constexpr bool kDebugChecks = false;
#endif

[[noreturn]] void check_failed(const std::string& what,
                               std::source_location where = std::source_location::current());

// KNIGHTGYM_CHECK(condition, what): where the debug checks are on, a false condition fails
// with `what` (a string); elsewhere neither runs. Usable in constexpr functions.
#ifdef KNIGHTGYM_DEBUG_CHECKS
#define KNIGHTGYM_CHECK(condition, what) ((condition) ? void(0) : ::knightgym::check_failed(what))
#else
#define KNIGHTGYM_CHECK(condition, what) void(0)
#endif

// A game may name a broken invariant of a state: a short text, or nullptr when all hold.
template <class G>
concept HasInvariants = requires(const G game, const typename G::State& s) {
  { game.broken_invariant(s) } -> std::convertible_to<const char*>;
};

// apply's precondition, for every game's apply to check first: the state keeps the
// game's invariants, is not over, and `action` is one of its legal actions.
template <class G>
void check_apply(const G& game, const typename G::State& s, Action action,
                 std::source_location where = std::source_location::current()) {
  if constexpr (kDebugChecks) {
    const std::string game_name(G::kName);
    if constexpr (HasInvariants<G>)
      if (const char* broken = game.broken_invariant(s))
        check_failed(game_name + ": state breaks an invariant: " + broken, where);
    if (game.terminal(s)) check_failed(game_name + ": apply on a finished state", where);
    Action legal[G::kMaxActions];
    const int n = game.legal_actions(s, legal);
    if (std::find(legal, legal + n, action) == legal + n)
      check_failed(game_name + ": apply of illegal action " + std::to_string(action), where);
  }
}

}  // namespace knightgym
