"""What the tests that need a Ray cluster share: a real cluster of two nodes on this
machine (ray.cluster_utils: a head and a second raylet, each with its own worker
processes and one CPU), and a model that must play a whole game legally."""

import contextlib

import knightgym


@contextlib.contextmanager
def two_node_cluster(monkeypatch):
    """The cluster, shut down after. The cluster and its drivers (the test's process, a
    command line's) agree on authentication: a driver that sends a token to a cluster
    that wants none loses its actors as soon as they are made."""
    from ray.cluster_utils import Cluster

    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    cluster = Cluster(
        initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False}
    )
    try:
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        yield cluster
    finally:
        cluster.shutdown()


def plays_a_whole_game(model, game_name):
    """An az agent over the model file plays a game of `game_name` to its end, every move
    legal."""
    game = knightgym.load_game(game_name)
    agent = knightgym.agents.make(f"az:model={model},sims=4", game, seed=1)
    state = game.new_initial_state(seed=3)
    while not state.is_terminal():
        action = agent.act(state)
        assert action in state.legal_actions()
        state.apply_action(action)
