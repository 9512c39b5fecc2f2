"""The statistics of a balance result, restated from its counts by the C++ that writes
them (training/balance/confidence_sequence.h, verdicts.h), for results written before
them: confidence sequences for every rate and advantage, each seat's share of the first
places where it is known (with two seats, its win rate), the earlier rule set that played
the same games (seats permuted: one sample, not two), each rule set's verdict
(favours a seat, even within the margin, or undecided), its difference with the first
rule set and its balance against the fairest's, each with Holm's correction over the
sweep.

    from knightgym.balance_statistics import restated
    result = restated(json.load(open("docs/balance/runs/knight_fight_strong/balance.json")))
    result["rule_sets"][0]["verdict"]        # 'favours the first seat'

A result that carries them already (balance.json of a run since, with "statistics") is
returned as it is: the C++ computed the same numbers when it wrote the file.
"""

import copy

from knightgym import _knightgym

__all__ = ["restated", "STATISTICS"]

# What a result's "statistics" says, as balance.json writes it
# (training/balance/result_json.cc).
STATISTICS = {
    "intervals": "confidence sequences at 95%, valid however the run stopped",
    "family_alpha": 0.05,
    "correction": "holm",
    "even_margin": 0.05,
}


def _tuned_blocks(result, rule_set):
    """The blocks a run planned per rule set: its sequences are tightest there."""
    block_games = rule_set["block_games"]
    return -(-result["games_per_rule_set"] // block_games)


def restated(result):
    """A copy of `result` (the dict of balance.json) with the statistics of today."""
    if "statistics" in result and all("same_games_as" in r for r in result["rule_sets"]):
        return result
    out = copy.deepcopy(result)
    for r, same in zip(out["rule_sets"], _knightgym.match_same_games(out["rule_sets"])):
        r["same_games_as"] = same
    if "statistics" in result:
        return out
    sets = out["rule_sets"]
    tuned = [_tuned_blocks(out, r) for r in sets]
    advantages = [
        (
            r["first_seat_advantage"]["mean"],
            r["first_seat_advantage"]["block_sd"],
            r["blocks"],
        )
        for r in sets
    ]
    figures = _knightgym.sweep_statistics(advantages, tuned)
    for r, blocks, f in zip(sets, tuned, figures):
        for seat in r["seats"]:
            for outcome, count in (("win", "wins"), ("draw", "draws"), ("loss", "losses")):
                low, high = _knightgym.rate_sequence(
                    seat[count], r["games"], tuned_samples=blocks * r["block_games"]
                )
                seat[f"{outcome}_low"], seat[f"{outcome}_high"] = low, high
            if r["players"] == 2:  # two seats never share a first place: a share is a win
                seat["win_share"] = seat["win_rate"]
                seat["win_share_low"], seat["win_share_high"] = seat["win_low"], seat["win_high"]
        a = r["first_seat_advantage"]
        a["fixed_low"], a["fixed_high"] = a["low"], a["high"]
        for key in ("low", "high", "p_value", "adjusted_p_value", "p_even", "adjusted_p_even"):
            a[key] = f[key]
        r["verdict"] = f["verdict"]
        r["vs_first"] = f["vs_first"]
    fairness = _knightgym.fairest_rule_sets(
        [[seat["wins"] for seat in r["seats"]] for r in sets],
        [r["games"] for r in sets],
        [blocks * r["block_games"] for r, blocks in zip(sets, tuned)],
    )
    for r, (low, high), p, as_fair in zip(
        sets, fairness["balance"], fairness["p_values"], fairness["as_fair"]
    ):
        r["balance_low"], r["balance_high"] = low, high
        r["as_fair_p_value"], r["as_fair"] = p, as_fair
    out["fairest"] = fairness["fairest"]
    out["statistics"] = {**STATISTICS, "tuned_blocks": tuned[0]}
    return out
