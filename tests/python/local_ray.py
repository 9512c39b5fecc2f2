"""What the tests that need a Ray cluster share: a real cluster of two nodes on this
machine (ray.cluster_utils: a head and a second raylet, each with its own worker
processes and one CPU, the head serving Ray's client), and a model that must play a whole
game legally."""

import contextlib
import socket

import knightgym


@contextlib.contextmanager
def two_node_cluster(monkeypatch):
    """The cluster, shut down after; ``cluster.address`` is its GCS's HOST:PORT,
    ``cluster.client_address`` its client server's ray://HOST:PORT. The cluster and its
    drivers (the test's process, a command line's) agree on authentication: a driver that
    sends a token to a cluster that wants none loses its actors as soon as they are
    made."""
    from ray.cluster_utils import Cluster

    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    with socket.socket() as probe:  # a free port for the client server
        probe.bind(("127.0.0.1", 0))
        client_port = probe.getsockname()[1]
    cluster = Cluster(
        initialize_head=True,
        head_node_args={
            "num_cpus": 1,
            "include_dashboard": False,
            "ray_client_server_port": client_port,
        },
    )
    cluster.client_address = f"ray://127.0.0.1:{client_port}"
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
