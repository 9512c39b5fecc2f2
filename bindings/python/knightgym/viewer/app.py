"""The viewer's state and what the page can ask of it, apart from HTTP: the library of
recorded games, the agents a game may have (the policy), and the games being played,
each kept under an id. The routes (routes.py) hand it the fields of the page's JSON as
plain dicts; a request it refuses raises ViewerError with a message for the page and
changes nothing.

What it keeps is bounded: at most MOST_GAMES games, whose agents stay within the
policy's memory budget (the oldest games close to make room), and every text a request
gives is at most MOST_TEXT characters. The server calls it from a thread per connection:
the games are read and changed under one lock, and the library and each game have
their own.
"""

import threading

import knightgym
from knightgym.viewer.errors import ViewerError, shortened
from knightgym.viewer.sessions import PlayedGame

MOST_GAMES = 64  # games kept at once (and within the policy's memory); the oldest goes first
MOST_TEXT = 4096  # characters of a spec, an agent spec, a path or a move
MOST_SEATS = 16
MOST_SEED = 2**63 - 1


class Viewer:
    """The server's state: the library, the agents a game may have, the games played."""

    def __init__(self, library, policy):
        self.library = library
        self.policy = policy
        self.games = {}
        self.reserved_bytes = 0  # the estimates of games being made
        self.next_id = 1
        self.lock = threading.Lock()

    def new_game(self, body):
        """Makes the game that ``body`` asks for ({"spec", "agent", "seats", "seed"}),
        keeps it and returns its id and the game, its agents not yet moved."""
        seats = body.get("seats", [0])
        if (
            not isinstance(seats, list)
            or len(seats) > MOST_SEATS
            or not all(type(s) is int for s in seats)
        ):
            raise ViewerError(f"seats must be a list of seat numbers, got {shortened(seats)}")
        seed = body.get("seed", 0)
        if type(seed) is not int or not 0 <= seed <= MOST_SEED:
            raise ViewerError(f"seed must be a whole number in 0..2^63-1, got {shortened(seed)}")
        reserved = []
        try:
            game = PlayedGame(
                text_field(body, "spec", ""),
                text_field(body, "agent", "random"),
                seats,
                seed,
                policy=self.policy,
                move_seconds=self.policy.move_seconds,
                start=False,
                before_agents=lambda needed: reserved.append(self._make_room(needed)),
            )
        except BaseException:
            with self.lock:
                self.reserved_bytes -= sum(reserved)
            raise
        with self.lock:
            self.reserved_bytes -= sum(reserved)
            game_id = self.next_id
            self.next_id += 1
            self.games[game_id] = game
            while len(self.games) > MOST_GAMES:
                self.games.pop(min(self.games)).cancel()
        return game_id, game

    def _make_room(self, needed):
        """Closes the oldest games until ``needed`` more bytes fit the memory budget with
        the games kept and those being made; reserves them and returns ``needed``."""
        with self.lock:
            kept = sum(game.memory_bytes for game in self.games.values())
            while self.games and kept + self.reserved_bytes + needed > self.policy.memory_bytes:
                oldest = self.games.pop(min(self.games))
                oldest.cancel()
                kept -= oldest.memory_bytes
            if kept + self.reserved_bytes + needed > self.policy.memory_bytes:
                raise ViewerError(
                    "the viewer is making other games that take its memory: try again",
                    status=503,
                )
            self.reserved_bytes += needed
        return needed

    def game(self, game_id):
        """The game kept under ``game_id``; 404 if there is none, 410 if it was closed."""
        with self.lock:
            game = self.games.get(game_id)
        if game is None:
            raise ViewerError(
                f"no game {game_id} (it ended with the server, was closed, or was dropped)",
                status=404,
            )
        if game.closed:
            raise ViewerError(
                f"game {game_id} was closed: its client left during a search", status=410
            )
        return game

    def close(self, game_id):
        """Drops the game kept under ``game_id`` and ends its search."""
        with self.lock:
            game = self.games.pop(game_id, None)
        if game is None:
            raise ViewerError(f"no game {game_id}", status=404)
        game.cancel()

    def close_all(self):
        """Drops every game and ends their searches (when the server closes)."""
        with self.lock:
            games, self.games = list(self.games.values()), {}
        for game in games:
            game.cancel()


def describe(spec):
    """A spec's game for the page: its name, canonical spec and number of players."""
    try:
        game = knightgym.load_game(spec)
    except ValueError as error:
        raise ViewerError(f"game {shortened(spec)}: {error}") from None
    return {"name": game.name, "spec": game.spec, "players": game.num_players()}


def games_list():
    """Every registered game at its default rules, described."""
    return [describe(name) for name in knightgym.games()]


def text_field(fields, key, default):
    """The text under ``key`` of a request's fields (a JSON object, or a query's values),
    ``default`` where it is missing; refused if it is not text or is too long."""
    value = fields.get(key, default)
    if not isinstance(value, str):
        raise ViewerError(f"{key} must be text, got {shortened(value)}")
    if len(value) > MOST_TEXT:
        raise ViewerError(f"{key} is at most {MOST_TEXT} characters, got {len(value)}", status=413)
    return value
