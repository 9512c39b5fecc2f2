"""`import knightgym` and everything that needs no network load no libtorch: the LibTorch
networks live in knightgym._knightgym_torch, imported the first time a network is asked
for (agents/network.h). With torch imported first, the networks use its libtorch: one
process, one libtorch (PyPI's own in make torch2's build, Debian's in make test's).
Checked in a fresh interpreter by reading its memory map, the ground truth of what a
process has loaded."""

import glob
import json
import os
import re
import subprocess
import sys
import textwrap

import knightgym
import pytest
from conftest import NO_NETWORKS

PACKAGE = os.path.dirname(knightgym.__file__)
TORCH_BUILT = bool(glob.glob(os.path.join(PACKAGE, "_knightgym_torch*.so")))

SCRIPT = textwrap.dedent("""
    import sys
    import knightgym

    def libtorch_mapped():
        with open("/proc/self/maps") as maps:
            return any("libtorch" in line for line in maps)

    env = knightgym.make("tailten", num_envs=4, num_threads=2, seed=0)
    env.reset()
    env.step(env.sample_actions())
    game = knightgym.load_game("knight_fight")
    state = game.new_initial_state(seed=0)
    for spec in ("random", "greedy", "mcts:sims=20", "az:sims=8"):
        state.apply_action(knightgym.agents.make(spec, game, seed=1).act(state))
    print(libtorch_mapped(), "torch" in sys.modules)
    if sys.argv[1] == "network":
        knightgym.agents.make("az:sims=4,model=resnet,blocks=1,channels=8", game).act(state)
        print(libtorch_mapped())
""")


# torch first, then a shipped network plays a move: the libtorch files mapped before and after.
ONE_LIBTORCH = textwrap.dedent("""
    import glob, json, os, re
    import torch

    def libtorch_files():
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if "/" in line}
        return sorted(p for p in paths if re.match(r"lib(torch|c10)", os.path.basename(p)))

    with_torch = libtorch_files()
    import knightgym
    agent = knightgym.agents.make("az:model=pretrained,sims=8", "tailten")
    agent.act(knightgym.load_game("tailten").new_initial_state(seed=0))
    # torch's own lib/ (PyPI's: the files; Debian's: links to /usr/lib), resolved
    own = glob.glob(os.path.join(os.path.dirname(torch.__file__), "lib", "*.so*"))
    print(json.dumps({"torch": with_torch, "networks": libtorch_files(),
                      "own": sorted(os.path.realpath(f) for f in own)}))
""")


def run(mode):
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, mode],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return result.stdout.split()


def test_envs_states_and_searches_without_a_network_load_no_libtorch():
    assert run("plain") == ["False", "False"]


@pytest.mark.skipif(not TORCH_BUILT, reason=NO_NETWORKS)
def test_the_first_network_loads_libtorch():
    assert run("network") == ["False", "False", "True"]


@pytest.mark.skipif(not TORCH_BUILT, reason=NO_NETWORKS)
def test_the_networks_use_the_libtorch_of_the_interpreters_torch():
    result = subprocess.run(
        [sys.executable, "-c", ONE_LIBTORCH],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    maps = json.loads(result.stdout.splitlines()[-1])
    assert maps["torch"], "import torch mapped no libtorch"
    assert maps["networks"] == maps["torch"]  # nothing new: the same files, no second copy
    names = [re.sub(r"\.so.*", "", os.path.basename(p)) for p in maps["networks"]]
    assert len(names) == len(set(names))
    assert set(maps["networks"]) <= set(maps["own"])  # those of the interpreter's torch


@pytest.mark.skipif(TORCH_BUILT, reason="built with LibTorch")
def test_without_libtorch_network_agents_are_refused_with_the_reason():
    game = knightgym.load_game("knight_fight")
    with pytest.raises(ValueError, match="LibTorch"):
        knightgym.agents.make("az:model=resnet", game)
