"""Training from the command line, seen from Python: the exported TorchScript model loads
with torch.jit.load and maps observations to (policy logits, values); az agents play it;
the report module plots a run and writes its Markdown; a checkpoint of another format is
refused on resume, by name."""

import json
import pathlib
import shutil
import subprocess

import knightgym
import knightgym.training_report
import numpy as np
import pytest
import torch
from checksums import as_checkpoint
from knightgym import records
from knightgym.training_report import read_metrics, write_report
from local_ray import plays_a_whole_game

pytestmark = pytest.mark.needs_networks

CLI = pathlib.Path(knightgym.__file__).resolve().parent.parent.parent / "knightgym"
GAME = "tailten"
TINY = (
    "blocks=1\nchannels=8\ngames=8\nsims=4\nbatch=32\nmin_replay=64\nmatch_seconds=0\n"
    "match_games=4\nmatch_sims=2\nbaselines=random\nlog_seconds=1\n"
)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    base = tmp_path_factory.mktemp("train")
    config = base / "tiny.cfg"
    config.write_text(TINY)
    out = base / "run"
    done = subprocess.run(
        [str(CLI), "train", GAME, "--out", str(out), "--steps", "12", "--config", str(config)],
        check=True,
        capture_output=True,
        text=True,
    )
    (base / "stdout.txt").write_text(done.stdout)
    return out


def test_the_command_prints_its_summary_as_python_renders_it(run_dir):
    """`knightgym train` writes summary.json and prints the Markdown that
    knightgym.training.markdown makes of it: one renderer."""
    import knightgym.training

    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["game"] == knightgym.load_game(GAME).spec and summary["finished"]
    assert summary["counters"]["steps"] == 12
    assert [e["opponent"] for e in summary["last_match_round"]] == ["best", "random"]
    printed = (run_dir.parent / "stdout.txt").read_text()
    assert printed == knightgym.training.markdown(run_dir / "summary.json")
    assert "| opponent | games | wins | draws | losses | score (95%) |" in printed
    assert f"model: {run_dir}/model.pt" in printed


def test_settings_are_a_json_object_or_key_value_lines(run_dir):
    """The run's config.json holds every setting typed; the tiny settings given as
    key=value lines and as JSON read the same."""
    import knightgym.training

    game, settings = knightgym.training.run_config(run_dir)
    assert game == knightgym.load_game(GAME).spec
    assert settings["sims"] == 4 and settings["augment"] is True
    assert settings["baselines"] == "random" and settings["search"] == "gumbel"
    # Both read by the C++ reader of `knightgym train --config`, to the same settings.
    as_json = knightgym.training._settings_json(json.dumps({"sims": 4, "blocks": 1}), None)
    lines = knightgym.training._settings_json("sims=4\n# a comment\nblocks = 1\n", None)
    assert json.loads(as_json) == json.loads(lines) == {"sims": "4", "blocks": "1"}
    bom = knightgym.training._settings_json("\ufeffsims=4", None)
    assert json.loads(bom) == {"sims": "4"}
    with pytest.raises(ValueError, match="'sims' twice"):
        knightgym.training._settings_json("sims=4\nsims=5", None)
    with pytest.raises(ValueError, match="expected key=value"):
        knightgym.training._settings_json("sims", None)


def observations(game, n, seed=0):
    """Observations of the player to move in n positions of random play."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed=seed)
    rows = []
    while len(rows) < n:
        if state.is_terminal():
            state = game.new_initial_state(seed=seed + len(rows))
        rows.append(state.observation_tensor())
        state.apply_action(int(rng.choice(state.legal_actions())))
    return np.stack(rows)


def test_exported_model_loads_in_python_and_maps_observations(run_dir):
    game = knightgym.load_game(GAME)
    model = torch.jit.load(str(run_dir / "model.pt"))
    assert model.game_spec == game.spec
    assert model.num_actions == game.num_actions
    batch = torch.from_numpy(observations(game, 5))
    with torch.no_grad():
        logits, values = model(batch)
    assert logits.shape == (5, game.num_actions)
    assert values.shape == (5, game.num_players())
    assert torch.all(values.abs() <= 1)
    assert torch.isfinite(logits).all()
    # The best network so far is the same kind of file.
    best = torch.jit.load(str(run_dir / "best.pt"))
    assert best(batch)[0].shape == logits.shape


def test_exported_model_plays_as_an_az_agent(run_dir):
    plays_a_whole_game(run_dir / "model.pt", GAME)
    with pytest.raises(ValueError, match="was made for tailten"):
        knightgym.agents.make(
            f"az:model={run_dir / 'model.pt'}", knightgym.load_game("tailten(ringforts=20)")
        )


def test_report_plots_the_run_and_lists_matches(run_dir, tmp_path):
    metrics = read_metrics(run_dir / "metrics.csv")
    assert metrics["step"][-1] == 12
    assert all(v is None or v >= 0 for v in metrics["policy_loss"])
    match, games = tmp_path / "vs_random.json", tmp_path / "vs_random.jsonl"
    subprocess.run(
        [
            str(CLI),
            "play",
            GAME,
            "--agents",
            f"az:model={run_dir / 'model.pt'},sims=2,random",
            "--games",
            "4",
            "--batch",
            "4",
            "--json",
            str(match),
            "--record",
            str(games),
        ],
        check=True,
        capture_output=True,
    )
    played = json.loads(match.read_text())
    assert played["games"] == 4 and len(played["agents"]) == 2
    assert played["agents"][0]["games"] == 4
    # The matches go on the scores' plot with their intervals: the run's network at its
    # last minute, any other (the shipped one it started from) at minute 0.
    shipped = tmp_path / "shipped.json"
    shipped.write_text(
        json.dumps(
            dict(
                played,
                agents=[dict(played["agents"][0], spec="az:model=pretrained")]
                + played["agents"][1:],
            )
        )
    )
    points = knightgym.training_report._match_points(
        str(run_dir), metrics, [str(match), str(shipped)]
    )
    last = metrics["seconds"][-1] / 60
    first_agent = played["agents"][0]
    assert points == [
        (last, "match vs random", first_agent["score"], first_agent["half_width"]),
        (0, "match vs random", first_agent["score"], first_agent["half_width"]),
    ]
    text = write_report(str(run_dir), str(tmp_path / "report.md"), [str(match)], str(games))
    assert text.startswith("# Training report: tailten(")
    assert "| az (model.pt, 2 sims) | random | 4 |" in text
    first = records.read(games)[0]
    assert f"az (model.pt, 2 sims) vs random: {len(first.moves)} moves" in text
    assert "![the final position](example_final.svg)" in text
    assert (tmp_path / "example_final.svg").read_text() == first.final_state().svg()
    assert (tmp_path / "training.png").stat().st_size > 10000


def resume(run, steps):
    """`knightgym train GAME --out RUN --steps STEPS --resume`, its output captured."""
    return subprocess.run(
        [str(CLI), "train", GAME, "--out", str(run), "--steps", str(steps), "--resume"],
        capture_output=True,
        text=True,
    )


def test_resume_refuses_checkpoints_of_another_format(run_dir, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(run_dir, run)
    checkpoints = sorted((run / "checkpoints").glob("step-*.ckpt"))
    assert checkpoints
    # A checkpoint is a TorchScript module of named values, "format" its version, then
    # the trailer of its hash.
    for path in checkpoints:
        checkpoint = torch.jit.load(str(path))
        checkpoint._c.setattr("format", 4)
        checkpoint.save(str(path))
        path.write_bytes(as_checkpoint(path.read_bytes()))
    result = resume(run, steps=20)
    assert result.returncode == 1
    assert (
        f"no checkpoint loads; the newest: checkpoint '{checkpoints[-1]}': has format "
        "version 4, this build reads version 5"
    ) in result.stderr


class _MistypedCheckpoint(torch.nn.Module):
    """A checkpoint's first values, its network's blocks written as a string."""

    def __init__(self, game_spec):
        super().__init__()
        self.format = 5
        self.game_spec = game_spec
        self.blocks = "one"


def test_resume_refuses_a_checkpoint_value_of_another_type(run_dir, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(run_dir, run)
    spec = json.loads((run / "config.json").read_text())["game"]
    checkpoints = sorted((run / "checkpoints").glob("step-*.ckpt"))
    for path in checkpoints:
        torch.jit.script(_MistypedCheckpoint(spec)).save(str(path))
        path.write_bytes(as_checkpoint(path.read_bytes()))
    result = resume(run, steps=20)
    assert result.returncode == 1
    assert f"checkpoint '{checkpoints[-1]}': 'blocks' is not an integer" in result.stderr


def test_resume_refuses_a_metrics_log_of_other_columns(run_dir, tmp_path):
    """A metrics.csv whose header is not the one this run writes (here: its last column
    cut off) is refused by name, and left as it was."""
    run = tmp_path / "run"
    shutil.copytree(run_dir, run)
    lines = (run / "metrics.csv").read_text().splitlines()
    cut = "\n".join(line.rsplit(",", 1)[0] for line in lines) + "\n"
    (run / "metrics.csv").write_text(cut)
    result = resume(run, steps=20)
    assert result.returncode == 1
    assert f"'{run / 'metrics.csv'}' has other columns than this run writes" in result.stderr
    assert (run / "metrics.csv").read_text() == cut


def test_training_from_python_is_the_command_line_run(run_dir, tmp_path):
    """knightgym.training.train runs what `knightgym train` runs: the same counters and
    the same network from the same settings."""
    import knightgym.training

    result = knightgym.training.train(
        GAME, tmp_path / "run", steps=12, settings=TINY, verbose=False
    )
    assert result["finished"] and result["counters"]["steps"] == 12
    cli = read_metrics(run_dir / "metrics.csv")
    assert result["counters"]["decisions"] == cli["decisions"][-1]
    assert result["counters"]["games"] == cli["games"][-1]
    ours = torch.jit.load(str(tmp_path / "run" / "model.pt")).state_dict()
    theirs = torch.jit.load(str(run_dir / "model.pt")).state_dict()
    assert all(torch.equal(ours[name], theirs[name]) for name in theirs)
    assert [e["opponent"] for e in result["last_match_round"]] == ["best", "random"]
    with pytest.raises(ValueError, match="already holds a run"):
        knightgym.training.train(GAME, tmp_path / "run", steps=12)
    with pytest.raises(ValueError, match="no_such_setting"):
        knightgym.training.train(
            GAME, tmp_path / "other", steps=12, settings={"no_such_setting": 1}
        )
    with pytest.raises(ValueError, match="nothing to resume"):
        knightgym.training.train(GAME, tmp_path / "other", steps=12, resume=True)
    assert not (tmp_path / "other").exists()  # refused before anything was written


def replay_decisions(keep_output):
    """The replay decisions `knightgym keep` says it kept."""
    return int(keep_output.split(" replay decisions")[0].rsplit(" ", 1)[1])


def test_a_kept_run_goes_on_elsewhere_from_its_step(run_dir, tmp_path):
    """knightgym keep copies what a run needs to go on; a fresh directory holding only
    that resumes from the checkpoint's step, its replay window refilled. --compact halves
    the checkpoint and --replay-decisions cuts the replay sample, and that too goes on."""
    kept = tmp_path / "kept"
    done = subprocess.run(
        [str(CLI), "keep", str(run_dir), str(kept)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "step 12" in done.stdout
    whole = replay_decisions(done.stdout)
    files = sorted(str(p.relative_to(kept)) for p in kept.rglob("*") if p.is_file())
    assert files == [
        "best.pt",
        "checkpoints/step-000000012.ckpt",
        "checkpoints/step-000000012.replay",
        "config.json",
        "metrics.csv",
        "model.pt",
    ]
    assert sum(p.stat().st_size for p in kept.rglob("*") if p.is_file()) < 5_000_000
    again = resume(kept, steps=14)
    assert again.returncode == 0, again.stderr
    assert "(step 12)" in again.stderr and "replay window refilled" in again.stderr
    assert "14 steps" in again.stdout

    compact = tmp_path / "compact"
    cut = whole // 2
    done = subprocess.run(
        [str(CLI), "keep", str(run_dir), str(compact), "--compact", "--replay-decisions", str(cut)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    checkpoint = "checkpoints/step-000000012"
    full_bytes = (run_dir / f"{checkpoint}.ckpt").stat().st_size
    assert (compact / f"{checkpoint}.ckpt").stat().st_size < 0.6 * full_bytes
    assert not (compact / "model.pt").exists()  # the checkpoint's weights; written again
    decisions = replay_decisions(done.stdout)
    assert 0 < decisions <= cut
    again = resume(compact, steps=14)
    assert again.returncode == 0, again.stderr
    assert "(step 12)" in again.stderr
    assert f"refilled with {decisions} decisions" in again.stderr
    assert (compact / "model.pt").is_file()


def test_keep_refuses_what_is_not_a_run_and_leaves_dest_as_it_was(run_dir, tmp_path):
    missing = subprocess.run(
        [str(CLI), "keep", str(tmp_path / "none"), str(tmp_path / "dest")],
        capture_output=True,
        text=True,
    )
    assert missing.returncode == 1 and "holds no training run" in missing.stderr
    assert not (tmp_path / "dest").exists()
    other = tmp_path / "notes"
    other.mkdir()
    (other / "mine.txt").write_text("mine")
    refused = subprocess.run(
        [str(CLI), "keep", str(run_dir), str(other)], capture_output=True, text=True
    )
    assert refused.returncode == 1 and "holds no run: it is not replaced" in refused.stderr
    assert [p.name for p in other.iterdir()] == ["mine.txt"]
    broken = tmp_path / "broken"
    shutil.copytree(run_dir, broken)
    for checkpoint in (broken / "checkpoints").glob("*.ckpt"):
        checkpoint.write_bytes(b"damaged")
    refused = subprocess.run(
        [str(CLI), "keep", str(broken), str(tmp_path / "dest")], capture_output=True, text=True
    )
    assert refused.returncode == 1 and "no checkpoint that loads" in refused.stderr
    assert not (tmp_path / "dest").exists() and not list(tmp_path.glob("dest.keeping*"))


def test_a_settings_file_far_larger_than_settings_is_refused_naming_it(tmp_path):
    # 120,000 keys (1.3 MB): refused by its size at once, nothing written.
    config = tmp_path / "huge.cfg"
    config.write_text("".join(f"k{i}=1\n" for i in range(120_000)))
    result = subprocess.run(
        [str(CLI), "train", GAME, "--out", str(tmp_path / "run"), "--steps", "1"]
        + ["--config", str(config)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode != 0
    assert "huge.cfg" in result.stderr and "more than a settings file's 1048576" in result.stderr
    assert not (tmp_path / "run").exists()
