"""knightgym.teacher and `knightgym teach`: teacher data written on several threads, read
back as the games the teacher played (each state, its policy over legal moves, its value),
the same on any thread count and after a resume, and a damaged or foreign shard refused by
name."""

import pathlib
import shutil
import subprocess

import knightgym
import pytest

CLI = pathlib.Path(knightgym.__file__).resolve().parent.parent.parent / "knightgym"


def test_the_teacher_games_read_back_and_replay(tmp_path):
    run = knightgym.teacher.generate(
        "knight_fight(max_turns=20)",
        str(tmp_path / "t"),
        teacher="mcts:sims=16",
        games=3,
        threads=2,
        seed=4,
        shard_games=2,
    )
    assert run["games"] == 3 and run["shards"] == 2 and run["positions"] > 0
    game = knightgym.load_game("knight_fight(max_turns=20)")
    games = []
    for shard in sorted((tmp_path / "t").glob("shard-*.kgt")):
        data = knightgym.teacher.read_shard(str(shard), "knight_fight(max_turns=20)")
        assert data["game"] == game.spec and data["teacher"].startswith("mcts:sims=16,")
        games += data["games"]
    assert [g["index"] for g in games] == [0, 1, 2]
    positions = 0
    for played in games:
        assert sum(played["returns"]) == pytest.approx(0)
        for decision in played["decisions"]:
            state = game.deserialize_state(decision["state"])
            legal = set(state.legal_actions())
            assert set(decision["policy"]) <= legal
            assert sum(decision["policy"].values()) == pytest.approx(1, abs=1e-4)
            assert -1 <= decision["value"] <= 1
            positions += 1
    assert positions == run["positions"]


def test_the_command_resumes_to_the_same_shards_and_refuses_bad_files(tmp_path):
    def teach(out, games, *more):
        return subprocess.run(
            [
                str(CLI),
                "teach",
                "tailten(max_turns=16)",
                "--teacher",
                "mcts:sims=8",
                "--games",
                str(games),
                "--shard-games",
                "2",
                "--out",
                str(out),
                *more,
            ],
            capture_output=True,
            text=True,
        )

    whole = teach(tmp_path / "whole", 4, "--threads", "2")
    assert whole.returncode == 0, whole.stderr
    assert "positions/s" in whole.stdout and "2 shards" in whole.stdout
    assert teach(tmp_path / "cut", 2).returncode == 0
    resumed = teach(tmp_path / "cut", 4, "--resume")
    assert resumed.returncode == 0 and "resuming at game 2 of 4" in resumed.stderr
    for name in ["shard-000000.kgt", "shard-000001.kgt"]:
        assert (tmp_path / "whole" / name).read_bytes() == (tmp_path / "cut" / name).read_bytes()
    again = teach(tmp_path / "whole", 4)
    assert again.returncode != 0 and "already holds a teacher run" in again.stderr

    shard = tmp_path / "whole" / "shard-000000.kgt"
    shard.write_bytes(shard.read_bytes()[:-3])
    with pytest.raises(ValueError, match="shard-000000.kgt: damaged or truncated"):
        knightgym.teacher.read_shard(str(shard))
    with pytest.raises(ValueError, match="not a knightgym teacher shard"):
        knightgym.teacher.read_shard(str(tmp_path / "whole" / "teach.txt"))
    with pytest.raises(ValueError, match="holds games of tailten"):
        knightgym.teacher.read_shard(str(tmp_path / "whole" / "shard-000001.kgt"), "knightmate")


def test_the_command_teaches_every_rule_set_of_a_grid_in_a_folder_each(tmp_path):
    def teach(games, *more):
        return subprocess.run(
            [str(CLI), "teach", "tailten(max_turns=12)", "--teacher", "mcts:sims=4"]
            + ["--games", str(games), "--shard-games", "1", "--out", str(tmp_path / "t"), *more],
            capture_output=True,
            text=True,
            timeout=120,
        )

    rules = ["--rules", "first_player=0,1;ringforts=30,20"]
    done = teach(1, *rules)
    assert done.returncode == 0, done.stderr
    folders = sorted(p.name for p in (tmp_path / "t").iterdir())
    assert folders == ["rules-000", "rules-001", "rules-002", "rules-003"]
    specs = [
        knightgym.teacher.read_shard(str(tmp_path / "t" / f / "shard-000000.kgt"))["game"]
        for f in folders
    ]
    expected = [
        f"tailten(first_player={p},ringforts={r},max_turns=12)" for p in (0, 1) for r in (30, 20)
    ]
    assert specs == expected
    # --resume goes on in every folder, and starts those a stopped run did not reach; a new
    # run where one is refused before any game.
    shutil.rmtree(tmp_path / "t" / "rules-003")
    resumed = teach(2, *rules, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert all((tmp_path / "t" / f / "shard-000001.kgt").exists() for f in folders)
    again = teach(1, *rules)
    assert again.returncode != 0 and "rules-000' already holds a teacher run" in again.stderr
    bad = teach(1, "--rules", "first_player=0,0")
    assert bad.returncode != 0 and "appears twice" in bad.stderr
