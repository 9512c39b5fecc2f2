"""knightgym.ladder from Python: the ratings of a small real ladder, the anchor, the
independence from threads, and bad options. The fit itself is tested against known
values in C++ (tests/cpp/training/ladder/ladder_test.cc)."""

import knightgym.ladder
import pytest


def test_a_ladder_rates_random_at_zero_and_mcts_above_it():
    result = knightgym.ladder.run("knight_fight", "random,mcts:sims=50", games=20, seed=1)
    ratings = {r["name"]: r for r in result["ratings"]}
    assert list(ratings) == ["random", "mcts:sims=50"]
    assert ratings["mcts:sims=50"]["spec"] == "mcts:sims=50,c=1.4,rollouts=1,solve=true"
    assert result["anchor"] == "random"
    assert ratings["random"]["elo"] == 0 and ratings["random"]["half_width"] == 0
    mcts = ratings["mcts:sims=50"]
    assert mcts["elo"] > 100 and mcts["half_width"] > 0
    assert mcts["games"] == 20 and 0.5 < mcts["score"] <= 1
    (pair,) = result["pairs"]
    assert pair["games"] == 20
    assert pair["first_wins"] + pair["draws"] + pair["first_losses"] == 20
    table = knightgym.ladder.markdown(result).splitlines()
    assert table[2] == "| agent | Elo | 95% | games | score |"
    assert table[4].startswith("| `mcts:sims=50` | ")  # strongest first
    assert (
        table[5] == "| `random` | 0 | anchor | 20 | " + f"{100 * ratings['random']['score']:.1f}% |"
    )


def test_the_result_depends_on_the_seed_not_the_threads():
    agents = ["greedy", "random", "mcts:sims=20"]
    one = knightgym.ladder.run("tailten", agents, games=8, seed=4, schedule="gauntlet")
    two = knightgym.ladder.run("tailten", agents, games=8, seed=4, schedule="gauntlet", threads=2)
    assert [r["elo"] for r in one["ratings"]] == [r["elo"] for r in two["ratings"]]
    assert len(one["pairs"]) == 2  # the gauntlet: the first agent against each other one
    batched = [
        knightgym.ladder.run(
            "tailten", agents, games=8, seed=4, schedule="gauntlet", threads=t, batch=3
        )
        for t in (1, 2)
    ]
    assert batched[0]["pairs"] == batched[1]["pairs"]
    assert one["anchor"] == "random"


def test_a_gauntlet_of_two_challengers_plays_them_against_everyone():
    agents = ["greedy", "mcts:sims=20", "random", "mcts:sims=4"]
    result = knightgym.ladder.run(
        "tailten", agents, games=4, seed=1, schedule="gauntlet", challengers=2
    )
    assert result["challengers"] == 2
    assert [(p["first"], p["second"]) for p in result["pairs"]] == [
        ("greedy", "mcts:sims=20"),
        ("greedy", "random"),
        ("greedy", "mcts:sims=4"),
        ("mcts:sims=20", "random"),
        ("mcts:sims=20", "mcts:sims=4"),
    ]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(agents=["random"]), "at least two agents"),
        (dict(agents=["random", "minimax"]), "unknown agent 'minimax'"),
        (dict(agents=["random", "greedy"], schedule="swiss"), "unknown schedule 'swiss'"),
        (dict(agents=["random", "greedy"], anchor="mcts"), "the anchor 'mcts'"),
        (dict(agents=["random", "greedy"], games=0), "games per pair"),
        (dict(agents=["random", "greedy"], schedule="gauntlet", challengers=2), "challengers must"),
        (dict(agents=["random", "greedy"], batch=-1), "batch must be 0"),
        (
            dict(agents=["random", "greedy"], threads=0, batch=4),
            "threads must be in 1..1024, got 0",
        ),
    ],
)
def test_bad_options_raise_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        knightgym.ladder.run("knight_fight", **kwargs)


def test_snapshots_give_elo_over_training_time(tmp_path):
    rating = dict(half_width=50.0, games=20, score=0.5)
    result = {
        "game": "knights_challenge(mode=ffa4,board_size=12)",
        "schedule": "gauntlet",
        "challengers": 2,
        "ratings": [
            dict(
                rating,
                name="late",
                spec="az:model=r/snapshots/seconds-0000480.pt,sims=64",
                elo=300.0,
            ),
            dict(
                rating,
                name="early",
                spec="az:model=r/snapshots/seconds-0000000.pt,sims=64",
                elo=-20.0,
            ),
            dict(rating, name="random", spec="random", elo=0.0, half_width=0.0),
        ],
    }
    assert knightgym.ladder.elo_over_time(result) == [(0.0, -20.0, 50.0), (8.0, 300.0, 50.0)]
    png = tmp_path / "time.png"
    knightgym.ladder.plot_elo_over_time([result, result], str(png))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["time.png"]  # no temporary left


def ladder_of(game, schedule, pairs):
    """A ladder result as `run` gives it, from (first, second, wins, draws, losses)."""
    names = list(dict.fromkeys(name for p in pairs for name in p[:2]))
    return {
        "game": game,
        "schedule": schedule,
        "games_per_pair": 10,
        "seed": 1,
        "prior_draws": 2.0,
        "anchor": "random",
        "seconds": 1.0,
        "ratings": [
            {"name": n, "spec": f"{n},canonical", "elo": 0, "half_width": 0, "games": 0, "score": 0}
            for n in names
        ],
        "pairs": [
            {
                "first": a,
                "second": b,
                "games": w + d + lost,
                "first_wins": w,
                "draws": d,
                "first_losses": lost,
            }
            for a, b, w, d, lost in pairs
        ],
    }


def test_merged_ladders_fit_all_their_pairs_at_once():
    field = [
        ("random", "greedy", 1, 0, 9),
        ("random", "mcts", 0, 0, 10),
        ("greedy", "mcts", 3, 1, 6),
    ]
    gauntlet = [("net", "random", 10, 0, 0), ("net", "greedy", 8, 0, 2), ("net", "mcts", 6, 0, 4)]
    merged = knightgym.ladder.merge(
        [ladder_of("tailten", "roundrobin", field), ladder_of("tailten", "gauntlet", gauntlet)]
    )
    whole = knightgym.ladder.merge([ladder_of("tailten", "roundrobin", field + gauntlet)])
    elo = {r["name"]: r["elo"] for r in merged["ratings"]}
    assert elo == pytest.approx({r["name"]: r["elo"] for r in whole["ratings"]})
    assert elo["random"] == 0 and elo["greedy"] < elo["mcts"] < elo["net"]
    assert {r["name"]: r["games"] for r in merged["ratings"]} == {
        "random": 30,
        "greedy": 30,
        "mcts": 30,
        "net": 30,
    }
    assert len(merged["pairs"]) == 6
    assert "2 ladders merged" in knightgym.ladder.markdown(merged)
    # Alone, the gauntlet cannot order the field: it sees each field agent once.
    alone = knightgym.ladder.merge([ladder_of("tailten", "gauntlet", gauntlet)])
    assert {r["name"]: r["elo"] for r in alone["ratings"]} != pytest.approx(elo)


def test_merge_refuses_other_games_and_a_missing_anchor():
    pairs = [("random", "greedy", 1, 0, 9)]
    with pytest.raises(ValueError, match="different games"):
        knightgym.ladder.merge(
            [
                ladder_of("tailten", "roundrobin", pairs),
                ladder_of("knight_fight", "roundrobin", pairs),
            ]
        )
    with pytest.raises(ValueError, match="the anchor 'uniform' is in none of the ladders"):
        knightgym.ladder.merge([ladder_of("tailten", "roundrobin", pairs)], anchor="uniform")
