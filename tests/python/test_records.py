"""Game records: `knightgym play --record` and `knightgym balance --record` write JSON lines
(training/arena/game_record_file.h) that knightgym.records reads back into states."""

import json
import pathlib
import re
import subprocess

import knightgym
import pytest
from knightgym import records

CLI = pathlib.Path(knightgym.__file__).resolve().parent.parent.parent / "knightgym"


def run(*args):
    return subprocess.run([str(CLI), *args], capture_output=True, text=True, check=True)


@pytest.mark.parametrize(
    "spec,batch",
    [
        ("tailten", []),
        ("knights_challenge(mode=ffa3,max_turns=60)", []),
        ("double_duel(max_turns=40)", ["--batch", "4"]),
    ],
)
def test_play_records_every_game_and_they_replay(tmp_path, spec, batch):
    path = tmp_path / "games.jsonl"
    agents = "mcts:sims=4,random"
    done = run(
        "play",
        spec,
        "--agents",
        agents,
        "--games",
        "4",
        "--seed",
        "3",
        "--record",
        str(path),
        *batch,
    )
    assert f"wrote the 4 games to {path}" in done.stdout
    games = records.read(path)
    assert [g.game for g in games] == [0, 1, 2, 3]
    game = knightgym.load_game(spec)
    for g in games:
        assert g.spec == game.spec
        assert len(g.agents) == game.num_players()
        assert set(g.agents) == {"random", knightgym.agents.Factory("mcts:sims=4", game).spec}
        final = g.final_state()
        assert final.is_terminal()
        assert list(final.returns()) == pytest.approx(g.returns)
        states = list(g.states())
        assert len(states) == len(g.moves) + 1
        assert states[-1].serialize() == final.serialize()
        assert states[1].last_move() == g.moves[0]
    # Seats rotate: the agent of seat 0 alternates between consecutive games.
    assert games[0].agents[0] != games[1].agents[0]


def test_play_streams_a_series_longer_than_its_chunk_and_scores_it_whole(tmp_path):
    # 16,384 games are played, scored and written at a time: a series past that is one
    # file of its games in order and one score of them all.
    path, json_path = tmp_path / "games.jsonl", tmp_path / "play.json"
    games = 16384 + 6
    series = ["play", "tailten", "--agents", "random,greedy", "--seed", "2"]
    run(*series, "--games", str(games), "--record", str(path), "--json", str(json_path))
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["game"] for line in lines] == list(range(games))
    result = json.loads(json_path.read_text())
    assert result["games"] == games
    assert [a["games"] for a in result["agents"]] == [games, games]
    # Its first chunk's games are those of a shorter series of the seed.
    short = tmp_path / "short.jsonl"
    run(*series, "--games", "4", "--record", str(short))
    assert [json.loads(line) for line in short.read_text().splitlines()] == lines[:4]


def test_balance_records_a_sample_of_each_rule_set(tmp_path):
    out = tmp_path / "run"
    run(
        "balance",
        "knight_fight(max_turns=30)",
        "--sweep",
        "mirror_on_moves=true,false",
        "--agents",
        "random",
        "--games",
        "10",
        "--record",
        "3",
        "--out",
        str(out),
        "--no-plots",
    )
    games = records.read(out / "records.jsonl")
    assert [g.game for g in games] == [0, 1, 2, 0, 1, 2]
    specs = [g.spec for g in games]
    assert "mirror_on_moves=true" in specs[0] and "mirror_on_moves=false" in specs[3]
    # The same games as the run's: its mean length is theirs when all are recorded.
    run(
        "balance",
        "knight_fight(max_turns=30)",
        "--agents",
        "random",
        "--games",
        "10",
        "--record",
        "10",
        "--out",
        str(tmp_path / "all"),
        "--no-plots",
    )
    every = records.read(tmp_path / "all" / "records.jsonl")
    figures = json.loads((tmp_path / "all" / "balance.json").read_text())
    mean = figures["rule_sets"][0]["length"]["mean"]
    assert sum(len(g.moves) for g in every) / len(every) == pytest.approx(mean)


def test_records_are_written_and_read_back_from_python(tmp_path):
    game = knightgym.load_game("knight_fight(layout=identity,max_turns=6)")
    state = game.new_initial_state(seed=4)
    moves = []
    while not state.is_terminal():
        move = state.action_to_string(state.legal_actions()[0])
        moves.append(move)
        state.apply_action(state.string_to_action(move))
    record = records.GameRecord.from_state(state, moves, seed=4, agents=["human", "random"])
    path = tmp_path / "one.jsonl"
    records.write(path, [record, record])
    assert records.read(path) == [record, record]
    assert [p.name for p in tmp_path.iterdir()] == ["one.jsonl"]


def good_line():
    game = knightgym.load_game("tailten(max_turns=4)")
    state = game.new_initial_state(seed=0)
    moves = []
    while not state.is_terminal():
        action = state.legal_actions()[-1]
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    return json.loads(
        records.GameRecord.from_state(state, moves, seed=0, agents=["a", "b"]).to_json()
    )


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda d: "{not json", "not JSON"),
        (lambda d: [1, 2], "a game record is a JSON object"),
        (lambda d: {k: v for k, v in d.items() if k != "moves"}, "missing moves"),
        (lambda d: {**d, "seed": "7"}, "seed must be int"),
        (lambda d: {**d, "truncated": 1}, "truncated must be bool"),
        (lambda d: {**d, "spec": "tailtenn"}, "tailtenn"),
        (lambda d: {**d, "moves": d["moves"][:1] + ["a1"] + d["moves"][2:]}, "move 2 ('a1')"),
        (lambda d: {**d, "moves": d["moves"][:-1]}, "not over"),
        (lambda d: {**d, "returns": [r + 1 for r in d["returns"]]}, "differ from the replay"),
        (lambda d: {**d, "agents": ["a"]}, "has 2 seats"),
        (lambda d: {**d, "agents": [1, 2]}, "agents must be strings"),
        (lambda d: {**d, "returns": ["1", "-1"]}, "returns must be finite numbers"),
        (lambda d: {**d, "returns": [True, False]}, "returns must be finite numbers"),
        (lambda d: {**d, "seed": 2**70}, "seed"),
        (lambda d: "[" * 100000 + "]" * 100000, "nested too deep"),
    ],
)
def test_bad_records_are_refused_naming_the_line(tmp_path, change, message):
    """Whatever a line holds, a ValueError with the file and the line."""
    data = change(good_line())
    path = tmp_path / "bad.jsonl"
    good = json.dumps(good_line())
    path.write_text(good + "\n" + (data if isinstance(data, str) else json.dumps(data)) + "\n")
    with pytest.raises(ValueError, match=f"bad.jsonl:2: .*{re.escape(message)}"):
        records.read(path)


def test_a_line_that_is_not_utf8_is_refused_naming_it(tmp_path):
    path = tmp_path / "bytes.jsonl"
    path.write_bytes(json.dumps(good_line()).encode() + b"\n" + b'{"spec": "\xff\xfe"}\n')
    with pytest.raises(ValueError, match="bytes.jsonl:2: not UTF-8"):
        records.read(path)


def test_a_huge_field_is_refused_without_quoting_it_whole(tmp_path):
    path = tmp_path / "huge.jsonl"
    for change in [
        {"spec": "tailten(" + "x" * 100000 + ")"},
        {"seed": "7" * 100000},
        {"moves": ["x" * 100000]},
    ]:
        path.write_text(json.dumps({**good_line(), **change}) + "\n")
        with pytest.raises(ValueError, match="huge.jsonl:1: ") as refused:
            records.read(path)
        assert len(str(refused.value)) < 1000


def test_a_line_longer_than_a_record_is_refused_before_it_is_held(tmp_path, monkeypatch):
    monkeypatch.setattr(records, "MOST_LINE_BYTES", 1000)
    path = tmp_path / "long.jsonl"
    path.write_text(json.dumps(good_line()) + "\n" + "x" * 5000)
    with pytest.raises(ValueError, match="long.jsonl:2: a line longer than 1000 bytes"):
        records.read(path)
