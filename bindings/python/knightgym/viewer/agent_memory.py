"""How much memory a played game's agents take, estimated from their spec before they
are made, so that the viewer keeps its games within a budget (AgentPolicy.memory_bytes).

A network costs its weights about three times over (the weights, LibTorch's copy for
inference and its working memory) plus a fixed part for its module; agents of one game
share their network. A search keeps a tree of about BYTES_PER_SIMULATION a simulation,
for the simulations it can make in a move's time at most.
Measured on this project's CPU build (docs/api.md, the viewer's limits): a fresh
`az:model=resnet,blocks=20,channels=256` game took 240 MB, the estimate 300 MB."""

import os

import knightgym

BYTES_PER_NETWORK = 16 << 20  # a loaded network's module and LibTorch's state round it
WEIGHT_COPIES = 3
BYTES_PER_SIMULATION = 128  # a search tree's node with its edges
BYTES_PER_WEIGHT = 4  # float32
# Above any search's speed on one core here (MCTS in Tailten: about 150,000 a second).
MOST_SIMULATIONS_PER_SECOND = 1_000_000


def fresh_network_weights(params, game):
    """The weights of a fresh `model=resnet` network of these settings for ``game``:
    the stem, two 3x3 convolutions a block, and the policy and value heads."""
    planes, *board = game.observation_tensor_shape()
    cells = 1
    for size in board:
        cells *= size
    blocks, channels = _number(params, "blocks"), _number(params, "channels")
    policy_channels = _number(params, "policy_channels")
    convolutions = 9 * channels * (planes + 2 * blocks * channels)
    heads = policy_channels * (channels + cells * game.num_distinct_actions()) + cells * channels
    return convolutions + heads


def network_bytes(params, game):
    """What the network of an `az` spec's model takes: none for `uniform`, three times the
    file's size for a network file (the largest shipped one of the game's name for
    `pretrained`)."""
    model = params.get("model", "uniform")
    if model == "uniform":
        return 0
    if model == "resnet":
        weight_bytes = BYTES_PER_WEIGHT * fresh_network_weights(params, game)
    elif model == "pretrained":
        sizes = [
            os.path.getsize(entry["path"])
            for entry in knightgym.agents.pretrained()
            if entry["game"].split("(")[0] == game.name and os.path.isfile(entry["path"])
        ]
        weight_bytes = max(sizes, default=0)
    else:
        weight_bytes = os.path.getsize(model) if os.path.isfile(model) else 0
    return BYTES_PER_NETWORK + WEIGHT_COPIES * weight_bytes


def _number(params, key):
    """A setting as a whole number; 0 for one that is none (the factory refuses it)."""
    try:
        return max(0, int(params.get(key, 0)))
    except ValueError:
        return 0


def game_bytes(agent_spec, game, agents, move_seconds):
    """The estimate for a game of ``agents`` agents of ``agent_spec`` (its model a file's
    path or a built-in name; settings not named take their kind's defaults), each move at
    most ``move_seconds``."""
    kind, pairs = knightgym.agents.parse_spec(agent_spec)
    params = {p["name"]: p["default"] for p in knightgym.agents.params(kind)}
    params.update(pairs)
    simulations = min(_number(params, "sims"), int(move_seconds * MOST_SIMULATIONS_PER_SECOND))
    total = agents * simulations * BYTES_PER_SIMULATION
    if kind == "az":
        total += network_bytes(params, game)
    return total
