"""Which agents a request to the viewer may ask for.

A request comes from a browser, so it names no program to start and no file to load:
engines (``uci``) and networks (``az:model=``) are those the viewer was started with
(``--engine NAME=PATH``, ``--model NAME=PATH``), the shipped ones (``model=pretrained``,
Fairy-Stockfish as the ``uci`` default) and the ones that load nothing
(``model=uniform``, ``model=resnet``). Every number that sizes a search, a network or an
engine's memory is capped, so that one request cannot take the machine; the time of a
move is capped apart (PlayedGame's move_seconds).
"""

import os

import knightgym
from knightgym.viewer import agent_memory
from knightgym.viewer.errors import ViewerError, shortened

# Models that load no file: the network shipped for the game, no network at all, or a
# fresh network of the spec's shape.
BUILT_IN_MODELS = ("pretrained", "uniform", "resnet")
BUILT_IN_ENGINES = ("fairy-stockfish",)
DEFAULT_MAX_SIMS = 100_000
DEFAULT_MOVE_SECONDS = 10.0
DEFAULT_MEMORY_MB = 4096  # what the games kept at once may take (agent_memory's estimate)

# The caps on what a search, a fresh network or an engine may take; the kinds' own
# bounds (knightgym.agents.params) still apply below them.
CAPS = {
    "rollouts": 1_000,  # mcts and az: random games per leaf
    "leaves": 256,  # az: leaves per network batch
    "blocks": 20,  # az, model=resnet: a fresh network's size ...
    "channels": 256,
    "policy_channels": 64,
    "hash": 256,  # uci: the engine's hash table, MB
    "depth": 64,  # uci: plies per move
    "nodes": 10_000_000,
    "timeout": 60,  # uci: seconds past movetime before the engine counts as hung
}


def split_agent_spec(spec):
    """(kind, {key: value}) of an agent spec, "mcts:sims=400" or "mcts(sims=400)"."""
    try:
        kind, pairs = knightgym.agents.parse_spec(spec)
    except ValueError as error:
        raise ViewerError(f"agent: {error}") from None
    return kind, dict(pairs)


class AgentPolicy:
    """The agents this viewer plays: ``models`` and ``engines`` map the names a request
    may use to the files named on the command line."""

    def __init__(
        self,
        models=None,
        engines=None,
        max_sims=DEFAULT_MAX_SIMS,
        move_seconds=DEFAULT_MOVE_SECONDS,
        threads=None,
        memory_mb=DEFAULT_MEMORY_MB,
    ):
        self.models = dict(models or {})
        self.engines = dict(engines or {})
        for flag, named, built_in in [
            ("--model", self.models, BUILT_IN_MODELS),
            ("--engine", self.engines, BUILT_IN_ENGINES),
        ]:
            clash = sorted(set(named) & set(built_in))
            if clash:
                raise ViewerError(f"{flag}: {', '.join(clash)} is a built-in name")
        self.max_sims = max_sims
        self.move_seconds = move_seconds
        self.threads = threads or os.cpu_count() or 1
        self.memory_bytes = memory_mb << 20

    def resolve(self, spec):
        """The spec to make, with the command line's files in place of their names;
        ViewerError names what is refused and why."""
        kind, params = split_agent_spec(spec)
        for key, value in params.items():
            cap = self._cap(key)
            if cap is None:
                continue
            try:
                number = int(value)
            except ValueError:
                continue  # not a number: the kind's own reader says why
            if number > cap:
                raise ViewerError(
                    f"agent: {key}={shortened(value)} is more than this viewer "
                    f"allows ({cap}{self._raise_hint(key)})"
                )
        if kind == "az":
            params["model"] = self._file(
                "model", params.get("model", "uniform"), self.models, BUILT_IN_MODELS, "--model"
            )
        if kind == "uci" and "engine" in params:
            params["engine"] = self._file(
                "engine", params["engine"], self.engines, BUILT_IN_ENGINES, "--engine"
            )
        if kind == "uci" and params.get("movetime", "0") == "0":
            # An engine ends its move by its own clock, which the viewer's cap must bound.
            params["movetime"] = str(self._cap("movetime"))
        return knightgym._knightgym.format_spec(kind, list(params.items())) if params else kind

    def game_bytes(self, game, resolved_spec, agents):
        """What a game of ``agents`` agents of ``resolved_spec`` (as resolve() gives it)
        takes, estimated; ViewerError (413) if that alone is more than the budget."""
        try:
            needed = agent_memory.game_bytes(resolved_spec, game, agents, self.move_seconds)
        except ValueError as error:
            raise ViewerError(f"agent: {error}") from None
        if needed > self.memory_bytes:
            raise ViewerError(
                f"agent: a game of {shortened(resolved_spec)} would take about "
                f"{needed >> 20} MB, more than this viewer keeps for all its games "
                f"({self.memory_bytes >> 20} MB; knightgym view --memory-mb raises it)",
                status=413,
            )
        return needed

    def describe(self):
        """What the page shows: the names of the models and engines it may ask for."""
        return {
            "models": list(BUILT_IN_MODELS) + sorted(self.models),
            "engines": list(BUILT_IN_ENGINES) + sorted(self.engines),
            "max_sims": self.max_sims,
            "move_seconds": self.move_seconds,
            "memory_mb": self.memory_bytes >> 20,
        }

    def _cap(self, key):
        if key == "sims":
            return self.max_sims
        if key == "threads":
            return self.threads
        if key == "movetime":
            return int(self.move_seconds * 1000)
        return CAPS.get(key)

    @staticmethod
    def _raise_hint(key):
        flag = {"sims": "--max-sims", "movetime": "--move-seconds"}.get(key)
        return f"; knightgym view {flag} raises it" if flag else ""

    @staticmethod
    def _file(key, name, named, built_in, flag):
        if name in built_in:
            return name
        if name in named:
            return named[name]
        known = ", ".join(list(built_in) + sorted(named)) or "none"
        raise ViewerError(
            f"agent: {key}={shortened(name)} is not one this viewer was started "
            f"with (known: {known}; name more with {flag} NAME=PATH)"
        )
