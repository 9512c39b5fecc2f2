"""balance.md: the tables of a balance run, rendered from balance.json alone.

C++ writes the figures (balance.json, the single source); this module only words them,
so a new figure is added to the JSON and, if it belongs in the tables, here. It needs
nothing beyond the standard library and knightgym's own module:
`knightgym balance --no-plots` writes balance.md without matplotlib. docs/balance.md
defines every figure.
"""

from knightgym.markdown import table

__all__ = ["markdown"]

# The two-sided 95% normal quantile: kZ95 of util/quantiles.h, which made the intervals
# in balance.json; here it turns the Elo's standard error into its 95% half-width.
Z95 = 1.959963984540054


def _percent(rate):
    return f"{100 * rate:.1f}%"


def _rate(count, games, low, high):
    """A rate from its count (as the C++ figures, not from the rounded rate) with its
    interval."""
    return f"{100.0 * count / games:.1f}% ({100 * low:.1f}-{100 * high:.1f})"


def _signed(value, low, high):
    return f"{value:+.3f} ({low:+.3f}, {high:+.3f})"


def _seats(result, players):
    sets = result["rule_sets"]
    names = [
        "rule set",
        "games",
        *(f"seat {s} wins" for s in range(players)),
        "draws",
        "first-seat advantage",
        "verdict",
        "balance",
        "decisive",
        "truncated",
    ]
    rows = []
    for r in sets:
        games = r["games"]
        seats = [_rate(s["wins"], games, s["win_low"], s["win_high"]) for s in r["seats"]]
        seats += ["-"] * (players - len(seats))  # a sweep over a mode mixes player counts
        first = r["seats"][0]
        a = r["first_seat_advantage"]
        rows.append(
            [
                r["label"],
                games,
                *seats,
                _rate(first["draws"], games, first["draw_low"], first["draw_high"]),
                _signed(a["mean"], a["low"], a["high"]),
                r["verdict"],
                f"{r['balance']:.3f}",
                _percent(r["decisive"] / games),
                _percent(r["truncated"] / games),
            ]
        )
    md = "## Seats\n\n" + table(names, rows) + "\n"
    for r in sets:
        same = r.get("same_games_as")
        if same:
            seats = ", ".join(f"seat {s} as seat {t}" for s, t in enumerate(same["seats"]))
            md += (
                f"\n{r['label']} played the games of {sets[same['rule_set']]['label']} again "
                f"({seats}): one sample, not two, and its comparisons say nothing new.\n"
            )
    fairest = sets[result["fairest"]]
    md += (
        f"\nFairest: **{fairest['label']}** (balance {fairest['balance']:.3f}, "
        f"{fairest['balance_low']:.3f} to {fairest['balance_high']:.3f})."
    )
    others = [r["label"] for r in sets if r["as_fair"] and r is not fairest]
    if len(sets) > 1:
        md += (
            " As fair as far as the games tell (not shown less fair, Holm): "
            + (", ".join(others) if others else "none")
            + "."
        )
    return md + "\n"


def _compared(sets):
    names = ["rule set", "advantage difference (95%)", "p-value", "Holm's p-value", "significant"]
    rows = []
    for r in sets[1:]:
        d = r["vs_first"]
        rows.append(
            [
                r["label"],
                _signed(d["difference"], d["low"], d["high"]),
                f"{d['p_value']:.3g}",
                f"{d['adjusted_p_value']:.3g}",
                "yes" if d["significant"] else "no",
            ]
        )
    return f"\n## Compared with {sets[0]['label']}\n\n" + table(names, rows) + "\n"


def _sequential_test(sets):
    names = ["rule set", "decision", "LLR", "bounds", "games"]
    rows = []
    for r in sets:
        s = r["sprt"]
        rows.append(
            [
                r["label"],
                s["decision"],
                f"{s['llr']:.2f}",
                f"[{s['lower']:.2f}, {s['upper']:.2f}]",
                r["games"],
            ]
        )
    return "\n## Sequential test\n\n" + table(names, rows) + "\n"


def _outcomes(sets):
    names = [
        "rule set",
        "natural draws",
        "truncated (drawn)",
        "advantage std. error: paired / per game",
        "pentanomial 0-2 (agent 0 per pair)",
    ]
    rows = []
    for r in sets:
        a = r["first_seat_advantage"]
        pentanomial = r["pentanomial"]
        rows.append(
            [
                r["label"],
                r["natural_draws"],
                f"{r['truncated']} ({r['truncated_draws']})",
                f"{a['std_error']:.4f} / {a['game_std_error']:.4f}",
                "-" if pentanomial is None else " ".join(map(str, pentanomial)),
            ]
        )
    return "\n## Outcomes\n\n" + table(names, rows) + "\n"


def _lengths(sets):
    percentiles = list(sets[0]["length"]["percentiles"])
    names = ["rule set", "mean", "sd", "min", *(f"p{q}" for q in percentiles), "max"]
    rows = []
    for r in sets:
        length = r["length"]
        rows.append(
            [
                r["label"],
                f"{length['mean']:.1f}",
                f"{length['sd']:.1f}",
                f"{length['min']:.0f}",
                *(f"{length['percentiles'][q]:.0f}" for q in percentiles),
                f"{length['max']:.0f}",
            ]
        )
    return "\n## Game length (decisions)\n\n" + table(names, rows) + "\n"


def _ranks(sets, players):
    md = (
        "\n## Ranks\n\nShare of games each seat finished at each rank (ties share the "
        "better rank).\n\n"
    )
    names = ["rule set", "seat", *(f"rank {k}" for k in range(1, players + 1))]
    rows = []
    for r in sets:
        for s, seat in enumerate(r["seats"]):
            ranks = [_percent(count / r["games"]) for count in seat["ranks"]]
            rows.append([r["label"], s, *ranks, *["-"] * (players - len(ranks))])
    return md + table(names, rows) + "\n"


def _shares(sets, players):
    md = (
        "\n## Shares of the first places\n\nA seat's win rate counts a first place it "
        "shares (a winning team's, or a tie on top) as a win for each seat sharing it; its "
        "share splits it (1/2 each of a first place shared by two), so that the shares add "
        "up to the games with a winner. Unknown (-) for games played before shares were "
        "counted.\n\n"
    )
    names = ["rule set", *(f"seat {s} share" for s in range(players))]
    rows = []
    for r in sets:
        shares = [
            f"{100 * s['win_share']:.1f}% ({100 * s['win_share_low']:.1f}-"
            f"{100 * s['win_share_high']:.1f})"
            if "win_share" in s
            else "-"
            for s in r["seats"]
        ]
        rows.append([r["label"], *shares, *["-"] * (players - len(shares))])
    return md + table(names, rows) + "\n"


def _agents(sets):
    md = (
        "\n## Agents\n\nScores per block with 95% intervals; Bradley-Terry Elo (mean 0) "
        "from every pair of seats held by different agents.\n\n"
    )
    names = ["rule set", "agent", "games", "wins", "draws", "losses", "score", "Elo"]
    rows = []
    for r in sets:
        for a in r["agents"]:
            rows.append(
                [
                    r["label"],
                    f"`{a['spec']}`",
                    a["games"],
                    a["wins"],
                    a["draws"],
                    a["losses"],
                    f"{100 * a['score']:.1f}% ({100 * a['score_low']:.1f}-"
                    f"{100 * a['score_high']:.1f})",
                    f"{a['elo']:+.0f} +- {Z95 * a['elo_error']:.0f}",
                ]
            )
    return md + table(names, rows) + "\n"


def markdown(result):
    """balance.md's text from a balance result (the dict of balance.json)."""
    sets = result["rule_sets"]
    statistics = result["statistics"]
    players = max(r["players"] for r in sets)  # a sweep over a mode may mix 2 to 4
    md = f"# Balance: {result['game']}\n\nAgents:" + "".join(f" `{a}`" for a in result["agents"])
    md += (
        f"\n\nAt most {result['games_per_rule_set']} games per rule set, "
        f"seed {result['seed']}, {result['seconds']:.0f} s."
    )
    sprt = result["sprt"]
    if sprt is not None:
        md += (
            f" Sequential test of the first seat's advantage: H0 {sprt['a0']:+.3f} against "
            f"H1 {sprt['a1']:+.3f}, alpha {sprt['alpha']:.3g}, beta {sprt['beta']:.3g}, "
            f"a look every {result['check_every']} games."
        )
    md += (
        "\n\nEvery interval is a 95% confidence sequence: valid however the run stopped "
        "(the sequential test) or was extended, tightest at "
        f"{statistics['tuned_blocks']} blocks. The first seat's advantage is its mean "
        "return minus the mean of all seats' (two players: P(seat 0 wins) - P(seat 1 "
        "wins)), over blocks of games from one start. Its verdict: it favours a side, it is "
        f"even within +-{statistics['even_margin']:g}, or it is undecided, with the chance "
        "of any false verdict in the sweep at most "
        f"{statistics['family_alpha']:g} (Holm over every rule set's two hypotheses). "
        "Differences with the first rule set hold whatever the dependence between rule "
        "sets, Holm over their number. Balance is 1 minus the largest difference between "
        "two seats' win rates.\n\n"
    )
    md += _seats(result, players)
    if len(sets) > 1:
        md += _compared(sets)
    if sprt is not None:
        md += _sequential_test(sets)
    md += _outcomes(sets)
    md += _lengths(sets)
    if players >= 3:
        md += _ranks(sets, players)
        md += _shares(sets, players)
    if len(result["agents"]) > 1:
        md += _agents(sets)
    md += "\n## Rule sets in full\n\n"
    md += "".join(f"- {r['label']}: `{r['spec']}`\n" for r in sets)
    return md
