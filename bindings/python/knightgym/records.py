"""Game records: the JSON lines that ``knightgym play --record FILE`` and ``knightgym balance
--record N`` write (training/arena/game_record_file.h), read back into states.

One object a line::

    {"spec": "tailten(first_player=0,ringforts=30,max_turns=200)", "seed": 1234, "game": 0,
     "agents": ["mcts:sims=64,...", "random"], "opening_plies": 0,
     "moves": ["d4", "e6", ...], "returns": [1, -1], "truncated": false}

``spec`` and ``seed`` give the initial state (``load_game(spec).new_initial_state(seed)``),
``moves`` every decision from there as ``action_to_string`` names it (the first
``opening_plies`` of them a random opening), ``agents`` the agent in each seat and
``returns`` each seat's return.

    records = knightgym.records.read("games.jsonl")
    for state in records[0].states():      # the initial state, then one after each move
        ...

``read`` replays every game and refuses a file that does not replay (a malformed line, an
unknown spec, an illegal move, returns that differ), naming the file, the line and why.
"""

import dataclasses
import json
import math

import knightgym
from knightgym._checks import shortened
from knightgym._outputs import replaced

FIELDS = {
    "spec": str,
    "seed": int,
    "game": int,
    "agents": list,
    "opening_plies": int,
    "moves": list,
    "returns": list,
    "truncated": bool,
}


@dataclasses.dataclass(frozen=True)
class GameRecord:
    spec: str
    seed: int
    game: int
    agents: list
    opening_plies: int
    moves: list
    returns: list
    truncated: bool

    def initial_state(self):
        return knightgym.load_game(self.spec).new_initial_state(seed=self.seed)

    def states(self):
        """The initial state, then the state after each move: len(moves) + 1 states."""
        state = self.initial_state()
        yield state.clone()
        for move in self.moves:
            state.apply_action(state.string_to_action(move))
            yield state.clone()

    def final_state(self):
        state = self.initial_state()
        for move in self.moves:
            state.apply_action(state.string_to_action(move))
        return state

    def to_json(self):
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_state(cls, state, moves, *, seed, agents, game=0, opening_plies=0):
        """The record of a game played from ``new_initial_state(seed)`` by ``moves``, with
        ``state`` its current state (returns and truncation are read from it)."""
        return cls(
            spec=state.get_game().spec,
            seed=seed,
            game=game,
            agents=list(agents),
            opening_plies=opening_plies,
            moves=list(moves),
            returns=[float(r) for r in state.returns()],
            truncated=bool(state.is_truncated()),
        )


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def parse_line(text, where="record"):
    """The GameRecord of one JSON line (str, or bytes in UTF-8), checked by replaying it;
    ValueError names ``where`` and the problem, whatever the line holds."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ValueError(f"{where}: not UTF-8: {error}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{where}: not JSON: {error}") from None
    except RecursionError:
        raise ValueError(f"{where}: not a game record: nested too deep") from None
    if not isinstance(data, dict):
        raise ValueError(f"{where}: a game record is a JSON object, got {type(data).__name__}")
    missing = [key for key in FIELDS if key not in data]
    if missing:
        raise ValueError(f"{where}: missing {', '.join(missing)}")
    for key, kind in FIELDS.items():
        value = data[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ValueError(f"{where}: {key} must be {kind.__name__}, got {shortened(value)}")
    if not all(isinstance(move, str) for move in data["moves"]):
        raise ValueError(f"{where}: moves must be strings")
    if not 0 <= data["seed"] < 2**64:
        raise ValueError(f"{where}: seed must be in 0..2^64-1, got {data['seed']}")
    if not all(isinstance(agent, str) for agent in data["agents"]):
        raise ValueError(f"{where}: agents must be strings (agent specs)")
    if not all(_is_number(value) for value in data["returns"]):
        raise ValueError(f"{where}: returns must be finite numbers")
    record = GameRecord(**{key: data[key] for key in FIELDS})
    try:
        state = record.initial_state()
    except (ValueError, OverflowError, TypeError) as error:
        raise ValueError(f"{where}: {error}") from None
    players = state.get_game().num_players()
    if len(record.agents) != players or len(record.returns) != players:
        raise ValueError(
            f"{where}: {record.spec} has {players} seats, but the record has "
            f"{len(record.agents)} agents and {len(record.returns)} returns"
        )
    for i, move in enumerate(record.moves):
        try:
            state.apply_action(state.string_to_action(move))
        except ValueError as error:
            raise ValueError(f"{where}: move {i + 1} ({shortened(move)}): {error}") from None
    if not state.is_terminal():
        raise ValueError(f"{where}: the game is not over after its {len(record.moves)} moves")
    # The writer keeps 10 significant digits (util/json_writer.h).
    if not all(
        math.isclose(a, b, rel_tol=1e-8, abs_tol=1e-9)
        for a, b in zip(state.returns(), record.returns)
    ):
        raise ValueError(
            f"{where}: returns {record.returns} differ from the replay's {list(state.returns())}"
        )
    return record


# Bytes of one record's line: the longest game of any game here is far shorter (a
# Knightmate game of 10,000 plies is about 70 KB); a longer line is something else, and
# is refused before it is held whole.
MOST_LINE_BYTES = 16 << 20


def read(path):
    """Every game of a records file, in order; ValueError names the file, line and problem
    (a line over MOST_LINE_BYTES among them)."""
    records = []
    with open(path, "rb") as file:
        for number, line in enumerate(iter(lambda: file.readline(MOST_LINE_BYTES + 1), b""), 1):
            if len(line) > MOST_LINE_BYTES:
                raise ValueError(
                    f"{path}:{number}: a line longer than {MOST_LINE_BYTES} bytes is no game record"
                )
            if line.strip():
                records.append(parse_line(line, f"{path}:{number}"))
    return records


def write(path, records):
    """Writes ``records`` (GameRecord objects) as JSON lines, all or nothing (a temporary
    file beside ``path``, renamed over it), under ``path``'s lock: a second writer is
    refused with BlockingIOError."""
    with replaced(path) as file:
        for record in records:
            file.write(record.to_json() + "\n")
