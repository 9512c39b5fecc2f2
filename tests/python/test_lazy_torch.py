"""`import knightgym` and everything that needs no network load no libtorch: the LibTorch
networks live in knightgym._knightgym_torch, imported the first time a network is asked
for (agents/network.h). Checked in a fresh interpreter by reading its memory map, the
ground truth of what a process has loaded."""

import glob
import os
import subprocess
import sys
import textwrap

import pytest

import knightgym

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


def run(mode):
    result = subprocess.run([sys.executable, "-c", SCRIPT, mode], capture_output=True,
                            text=True, check=True, timeout=120)
    return result.stdout.split()


def test_envs_states_and_searches_without_a_network_load_no_libtorch():
    assert run("plain") == ["False", "False"]


@pytest.mark.skipif(not TORCH_BUILT, reason="built without LibTorch (KNIGHTGYM_TORCH=OFF)")
def test_the_first_network_loads_libtorch():
    assert run("network") == ["False", "False", "True"]


@pytest.mark.skipif(TORCH_BUILT, reason="built with LibTorch")
def test_without_libtorch_network_agents_are_refused_with_the_reason():
    game = knightgym.load_game("knight_fight")
    with pytest.raises(ValueError, match="LibTorch"):
        knightgym.agents.make("az:model=resnet", game)
