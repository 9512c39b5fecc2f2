"""tools/gpu/run.sh, the phased script for a lent GPU machine, tried here without one: its
help lists every phase, a dry run of each phase prints the knightgym and cmake commands
that the phase would run (with the flags that matter) and writes nothing, and a phase or
setting that is wrong stops the call before anything runs, naming what is wrong."""

import os
import pathlib
import re
import shlex
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "gpu" / "run.sh"
PHASES = [
    "build",
    "check",
    "selfplay-bench",
    "teach-bench",
    "teach",
    "train",
    "matches",
    "teach-train",
    "generations",
    "balance",
]


def teach_recipe():
    """A game and one of its recipes with a teacher (RECIPE.teach beside RECIPE.txt), taken
    from the repository, so that no game is named here."""
    for teach in sorted(ROOT.glob("env/games/*/recipes/*.teach")):
        if teach.with_suffix(".txt").exists():
            return teach.parents[1].name, teach.stem
    pytest.skip("no game has a recipe with a teacher")


def any_recipe():
    """A game and one of its training recipes (RECIPE.txt)."""
    recipe = sorted(ROOT.glob("env/games/*/recipes/*.txt"))[0]
    return recipe.parents[1].name, recipe.stem


def call(tmp_path, *arguments, **settings):
    """run.sh with ARGUMENTS from the repository's root, in an environment holding only
    SETTINGS beside the basics, its WORK under TMP_PATH."""
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "WORK": str(tmp_path / "work")}
    env.update({"PYTHON": "python3"}, **settings)
    return subprocess.run(
        ["bash", str(SCRIPT), *arguments],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def dry_run(tmp_path, *phases, **settings):
    """The commands that a dry run of PHASES prints, each split into its words; the run must
    succeed and write nothing, neither OUT nor WORK."""
    result = call(tmp_path, "--dry-run", "carried", str(tmp_path / "out"), *phases, **settings)
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / "work").exists()
    commands, in_file = [], False
    for line in result.stdout.splitlines():
        if in_file:  # a file's text, printed as a here-document
            in_file = line != "EOF"
        elif line.startswith("cat > "):
            in_file = True
        elif line and not line.startswith("#"):
            commands.append(without_redirections(shlex.split(line)))
    return commands


def without_redirections(words):
    """A printed command's own words, without where its output goes or the & that puts it
    in the background."""
    kept, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word in {">", ">>", "2>"}:
            skip = True
        elif word not in {"2>&1", "&"}:
            kept.append(word)
    return kept


def running(commands, *words):
    """The commands that hold each of WORDS, in order."""
    return [c for c in commands if all(word in c for word in words)]


def after(command, flag):
    """The word after FLAG in COMMAND."""
    return command[command.index(flag) + 1]


def test_the_help_lists_every_phase(tmp_path):
    result = call(tmp_path, "--help")
    assert result.returncode == 0
    for phase in PHASES:
        assert re.search(rf"^  {re.escape(phase)} +\S", result.stdout, re.M), phase
    # Without arguments: the same help, as a mistake.
    bare = call(tmp_path)
    assert bare.returncode == 2 and bare.stderr == result.stdout


def test_a_wrong_phase_is_named_and_nothing_runs(tmp_path):
    result = call(tmp_path, "--dry-run", "carried", str(tmp_path / "out"), "build", "biuld")
    assert result.returncode != 0
    assert "no phase 'biuld'" in result.stderr
    assert result.stdout == ""


def test_build_configures_against_the_carried_eigen_once_and_builds_the_cli(tmp_path):
    commands = dry_run(tmp_path, "build", "selfplay-bench")
    configure = running(commands, "cmake", "-S")
    assert len(configure) == 1
    assert f"-DEigen3_DIR={ROOT}/carried/eigen/share/eigen3/cmake" in configure[0]
    assert after(configure[0], "-B") == "build-gpu"
    assert "-DKNIGHTGYM_TESTS=OFF" in configure[0]
    assert "-DKNIGHTGYM_PYTHON=OFF" in configure[0]
    # The second phase finds the CLI built by the first.
    [build] = running(commands, "cmake", "--build")
    assert after(build, "--target") == "knightgym_cli"


def test_check_builds_the_python_modules_runs_the_tests_and_sb3_on_cuda(tmp_path):
    commands = dry_run(tmp_path, "check", GAME="some_game")
    [install] = running(commands, "pip", "install")
    assert "--no-index" in install and install[-1].endswith("carried/wheels/*.whl")
    [configure] = running(commands, "cmake", "-S")
    assert "-DKNIGHTGYM_PYTHON=ON" in configure
    [build] = running(commands, "cmake", "--build")
    assert {"_knightgym", "_knightgym_torch", "knightgym_cli"} <= set(build)
    assert running(commands, "pytest", "tests/python", "needs_networks")
    [sb3] = running(commands, "tools/gpu/sb3_cuda.py")
    assert sb3[-1] == "some_game"
    assert "OMP_NUM_THREADS=1" in sb3 and "PYTHONPATH=build-gpu/python:" in " ".join(sb3)


def test_check_without_a_game_says_so(tmp_path):
    result = call(tmp_path, "--dry-run", "carried", str(tmp_path / "out"), "build", "check")
    assert result.returncode == 2
    assert "GAME" in result.stderr and result.stdout == ""


def test_selfplay_bench_on_cuda_and_on_the_cpu(tmp_path):
    commands = dry_run(tmp_path, "selfplay-bench", GAMES="first second")
    checks = running(commands, "build-gpu/knightgym", "network-check")
    assert [after(c, "--precision") for c in checks] == ["float32", "float16", "bfloat16"]
    assert all(after(c, "--device") == "cuda" for c in checks)
    forward = running(commands, "build-gpu/knightgym", "search-bench")
    assert [after(c, "--precision") for c in forward] == [
        "float32",
        "float16",
        "bfloat16",
        "float16",
    ]
    # The last without CUDA graphs, to measure what they bring.
    assert ["--no-cuda-graphs" in c for c in forward] == [False, False, False, True]
    assert all(c[2] == "first" and after(c, "--device") == "cuda" for c in forward)
    [selfplay] = running(commands, "build-gpu/knightgym", "selfplay-bench")
    assert selfplay[2:4] == ["first", "second"]
    assert after(selfplay, "--precision") == "float16"
    assert after(selfplay, "--threads") == "1,4,8,16" and after(selfplay, "--batch") == "256"
    assert running(commands, "nvidia-smi", "-lms")  # the GPU's load, sampled

    on_cpu = dry_run(tmp_path, "selfplay-bench", DEVICE="cpu", BUILD="build", GAMES="first")
    checks = running(on_cpu, "build/knightgym", "network-check")
    assert [after(c, "--precision") for c in checks] == ["float32", "bfloat16"]
    forward = running(on_cpu, "build/knightgym", "search-bench")
    assert [after(c, "--precision") for c in forward] == ["float32", "bfloat16"]
    [selfplay] = running(on_cpu, "build/knightgym", "selfplay-bench")
    assert after(selfplay, "--threads") == "1,2" and "--batch" not in selfplay


def test_teach_train_teaches_trains_each_arm_and_plays_them(tmp_path):
    game, recipe = teach_recipe()
    work = str(tmp_path / "work")
    commands = dry_run(
        tmp_path,
        "teach-train",
        GAME=game,
        RECIPE=recipe,
        ARMS="conv:1 dense:2:4x32",
        TEACH_GAMES="77",
        TEACH_SECONDS="250",
        STEPS="10",
    )
    [bench] = running(commands, "build-gpu/knightgym", "search-bench")
    assert bench[2] == game and after(bench, "--device") == "cuda"
    [teach] = running(commands, "build-gpu/knightgym", "teach")
    assert teach[:3] == ["timeout", "-s", "TERM"] and teach[3] == "250"
    assert teach[6] == game and after(teach, "--games") == "77"
    assert after(teach, "--seed") == "3" and after(teach, "--out") == f"{work}/teach"
    train = running(commands, "build-gpu/knightgym", "train", "--steps")
    assert [after(c, "--out") for c in train] == [f"{work}/conv-seed1", f"{work}/dense-4x32-seed2"]
    assert all(after(c, "--steps") == "10" and after(c, "--device") == "cuda" for c in train)
    play = running(commands, "build-gpu/knightgym", "play")
    assert len(play) == 4  # two arms, two opponents each
    agents = [after(c, "--agents") for c in play]
    assert (
        agents[0] == f"az:model={work}/conv-seed1/teacher_best.pt,sims=256,device=cuda,uci:nodes=10"
    )
    assert running(commands, "tar", "runs") and running(commands, "tar", "matches")


def test_a_teacher_phase_without_its_recipe_says_so(tmp_path):
    result = call(tmp_path, "--dry-run", "carried", "out", "teach", GAME="no_such_game", RECIPE="x")
    assert result.returncode == 2
    assert "env/games/no_such_game/recipes/x.txt" in result.stderr


def test_generations_calls_iterate_with_its_gate_left_for_later(tmp_path):
    game, recipe = any_recipe()
    plan = tmp_path / "plan.txt"
    plan.write_text(
        f"# game recipe threads teach_games shard_games sims steps\n"
        f"{game} {recipe} 3 1152 64 400 1200\n"
    )
    commands = dry_run(tmp_path, "generations", GENERATIONS_PLAN=str(plan), GENERATIONS_MINUTES="7")
    [iterate] = running(commands, "build-gpu/knightgym", "iterate")
    assert iterate[:2] == ["env", "OMP_NUM_THREADS=1"] and iterate[4] == game
    expected = {
        "--out": str(tmp_path / "work" / "generations" / recipe),
        "--parent": "pretrained",
        "--generations": "1",
        "--minutes": "7",
        "--config": f"env/games/{game}/recipes/{recipe}.txt",
        "--teacher-sims": "400",
        "--teacher-steps": "1200",
        "--teach-games": "1152",
        "--shard-games": "64",
        "--threads": "3",
        "--batch": "64",
        "--teacher-device": "cuda",
        "--device": "cpu",
        "--gate-games": "0",
    }
    assert {flag: after(iterate, flag) for flag in expected} == expected
    [pack] = running(commands, "tar", "--exclude=*.kgt")
    assert after(pack, "-czf") == str(tmp_path / "out" / f"{recipe}.tar.gz")


def test_generations_with_a_wrong_plan_says_which_line(tmp_path):
    plan = tmp_path / "plan.txt"
    plan.write_text("no_such_game no_such_recipe 3 1152 64 400 1200\n")
    result = call(
        tmp_path,
        "--dry-run",
        "carried",
        "out",
        "generations",
        GENERATIONS_PLAN=str(plan),
        GENERATIONS_MINUTES="7",
    )
    assert result.returncode == 2
    assert "env/games/no_such_game/recipes/no_such_recipe.txt" in result.stderr


def test_balance_plays_each_line_of_its_plan_on_cuda(tmp_path):
    plan = tmp_path / "plan.txt"
    plan.write_text("# NAME BATCH THREADS\nfirst_run 125 8\nsecond_run 50 4\n")
    commands = dry_run(tmp_path, "balance", BALANCE_PLAN=str(plan), BALANCE_SECONDS="530")
    runs = running(commands, "tools/reports/balance_report.py", "run")
    assert [after(c, "--only") for c in runs] == ["first_run", "second_run"]
    first = runs[0]
    assert first[0] == "timeout" and int(first[1]) <= 530
    assert after(first, "--device") == "cuda" and after(first, "--build") == "build-gpu"
    assert after(first, "--batch") == "125" and after(first, "--threads") == "8"
    assert after(first, "--out") == str(tmp_path / "work" / "balance")
    [pack] = running(commands, "tar", str(tmp_path / "out" / "balance.tar.gz"))
    assert after(pack, "-C") == str(tmp_path / "work" / "balance")
