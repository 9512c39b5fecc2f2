"""What the viewer's page can ask, apart from HTTP: replays of recorded games (Library)
and games against agents (PlayedGame). Every answer is a plain dict for JSON; a bad
request raises ViewerError with a message for the page, and changes nothing.

Both are bounded: a library opens files only from the folders and files it was given
(``roots``), each file once, and keeps the states of a few replayed games; a played game
takes its agents from an AgentPolicy and gives each move at most ``move_seconds``, and
``cancel()`` ends its search at once (the server calls it when the game is dropped or
its client goes).
"""

import collections
import os
import threading

import knightgym
from knightgym import records, svg
from knightgym.viewer.agent_policy import DEFAULT_MOVE_SECONDS, AgentPolicy
from knightgym.viewer.errors import ViewerError, shortened

MOST_RECORDED = 100_000  # recorded games a library holds
REPLAYS_KEPT = 16  # replayed games whose states are kept


def legal_moves(state, picture):
    """The mover's legal moves, from the legal-action mask: action, text, and the squares
    the text names (which the page highlights and clicks)."""
    if state.is_terminal():
        return []
    mask = state.legal_actions_mask()
    moves = []
    for action in mask.nonzero()[0].tolist():
        text = state.action_to_string(action)
        moves.append({"action": action, "text": text, "squares": svg.squares_of(text, picture)})
    return moves


def board(state, *, shares=None, value=None, flip=False):
    """The page's view of a state: its SVG and what the controls need."""
    picture = state.picture()
    over = state.is_terminal()
    return {
        "svg": svg.draw(state, targets=shares, value=value, flip=flip),
        "sides": picture["sides"],
        "to_move": -1 if over else state.current_player(),
        "over": over,
        "returns": [float(r) for r in state.returns()] if over else None,
        "legal": legal_moves(state, picture),
        "last_move": state.last_move(),
    }


def share_squares(state, visit_shares):
    """A search's visit shares ({action: share} in ``state``) by the square each move lands
    on (the last square its text names; moves landing on one square add up), and the
    shares of the moves that name no square (pass) by their text."""
    picture = state.picture()
    by_square, by_text = {}, {}
    for action, share in visit_shares.items():
        text = state.action_to_string(action)
        squares = svg.squares_of(text, picture)
        by_text[text] = share
        if squares:
            by_square[squares[-1]] = by_square.get(squares[-1], 0.0) + share
    return by_square, by_text


class Library:
    """Recorded games opened from files and balance runs, replayed ply by ply.

    ``roots`` are the folders (with everything under them) and files that open() may
    read; None lets it read any (Python's own use), [] none. A path outside them gets one
    answer whether or not it exists, so that the page learns nothing of other files."""

    def __init__(self, roots=None):
        self._roots = None if roots is None else [os.path.realpath(r) for r in roots]
        self._games = []  # (source, GameRecord)
        self._opened = set()  # the real paths read so far
        self._states = collections.OrderedDict()  # index -> its states, the latest last
        self._lock = threading.Lock()

    def allow(self, path):
        """Lets open() read ``path`` (a folder: everything under it) from now on."""
        if self._roots is not None:
            self._roots.append(os.path.realpath(path))

    def open(self, path):
        """Adds the games of a records file, or of DIR/records.jsonl for a balance run
        (written with --record). Returns how many were added: 0 for a file already open."""
        path = os.fspath(path)
        self._check_allowed(path)
        if os.path.isdir(path):
            inner = os.path.join(path, "records.jsonl")
            if not os.path.isfile(inner):
                raise ViewerError(
                    f"{path} holds no records.jsonl (run knightgym balance with "
                    "--record N, or knightgym play with --record FILE)"
                )
            path = inner
            self._check_allowed(path)  # a link in the folder may lead out of it
        if not os.path.isfile(path):
            raise ViewerError(f"{path}: no such file")
        # Read where it resolved to: a link switched after the check leads nowhere new.
        real = os.path.realpath(path)
        self._check_allowed(real)
        with self._lock:
            if real in self._opened:
                return 0
        try:
            games = records.read(real)
        except (ValueError, OSError) as error:
            raise ViewerError(str(error)) from None
        with self._lock:
            if real in self._opened:
                return 0
            if len(self._games) + len(games) > MOST_RECORDED:
                raise ViewerError(
                    f"{path}: the library holds at most {MOST_RECORDED} games "
                    f"({len(self._games)} are open, the file has {len(games)})",
                    status=413,
                )
            self._opened.add(real)
            self._games.extend((path, game) for game in games)
        return len(games)

    def _check_allowed(self, path):
        if not self._allowed(path):
            raise ViewerError(
                f"cannot open {shortened(path)}: the viewer opens only the "
                "files, and the files under the folders, that it was started "
                "with",
                status=403,
            )

    def _allowed(self, path):
        if self._roots is None:
            return True
        try:
            real = os.path.realpath(path)
        except (ValueError, OSError):  # a NUL in the path, a loop of links
            return False
        return any(
            real == root or (os.path.isdir(root) and os.path.commonpath([root, real]) == root)
            for root in self._roots
        )

    def summary(self):
        with self._lock:
            games = list(self._games)
        return [
            {
                "index": i,
                "source": source,
                "game": game.game,
                "spec": game.spec,
                "agents": game.agents,
                "returns": game.returns,
                "moves": len(game.moves),
                "truncated": game.truncated,
            }
            for i, (source, game) in enumerate(games)
        ]

    def replay(self, index, ply):
        """The view of game ``index`` after ``ply`` moves (0: the start)."""
        with self._lock:
            if not 0 <= index < len(self._games):
                raise ViewerError(f"no recorded game {index} (there are {len(self._games)})")
            source, game = self._games[index]
            if index not in self._states:
                self._states[index] = list(game.states())
                if len(self._states) > REPLAYS_KEPT:
                    self._states.popitem(last=False)
            self._states.move_to_end(index)
            states = self._states[index]
        if not 0 <= ply < len(states):
            raise ViewerError(f"ply {ply} is outside the game's 0..{len(game.moves)}")
        view = board(states[ply])
        view.update(
            index=index,
            ply=ply,
            moves=game.moves,
            spec=game.spec,
            agents=game.agents,
            source=source,
            opening_plies=game.opening_plies,
            game=game.game,
            record_returns=game.returns,
            legal=[],
        )
        return view


class PlayedGame:
    """A game of any spec in which people take the seats in ``human_seats`` and an agent of
    ``agent_spec`` (one per seat, each seeded) takes the others. The agents move whenever
    it is their turn and a person has moved, or one at a time through step().

    ``policy`` (an AgentPolicy) says which agents a request may ask for; each agent move
    searches at most ``move_seconds``. With ``start=False`` the agents make their first
    moves only at advance(), which the server runs where cancel() can reach it.
    ``before_agents(bytes)``, if given, is called with the memory the agents will take
    (the policy's estimate, ``memory_bytes``) before they are made: the server makes room
    there."""

    def __init__(
        self,
        spec,
        agent_spec,
        human_seats,
        seed=0,
        *,
        policy=None,
        move_seconds=DEFAULT_MOVE_SECONDS,
        start=True,
        before_agents=None,
    ):
        try:
            self.game = knightgym.load_game(spec)
        except ValueError as error:
            raise ViewerError(f"game {shortened(spec)}: {error}") from None
        players = self.game.num_players()
        seats = sorted(set(human_seats))
        if any(not 0 <= seat < players for seat in seats):
            raise ViewerError(
                f"seats must be in 0..{players - 1} for {self.game.spec}, "
                f"got {shortened(human_seats)}"
            )
        self.human_seats = seats
        self.seed = seed
        self.move_seconds = move_seconds
        self.agents = {}
        policy = policy or AgentPolicy()
        resolved = policy.resolve(agent_spec)
        # What the agents will take, estimated before they are made.
        self.memory_bytes = (
            policy.game_bytes(self.game, resolved, players - len(seats))
            if len(seats) < players
            else 0
        )
        if before_agents is not None:
            before_agents(self.memory_bytes)
        if len(seats) < players:
            try:
                factory = knightgym.agents.Factory(resolved, self.game)
                self.agents = {
                    seat: factory.make(seed=seed + seat)
                    for seat in range(players)
                    if seat not in seats
                }
            except ValueError as error:
                raise ViewerError(f"agent {shortened(agent_spec)}: {error}") from None
        self.agent_spec = next(iter(self.agents.values())).spec if self.agents else agent_spec
        self.state = self.game.new_initial_state(seed=seed)
        self.moves = []
        self.report = None  # the last agent move's search: value and shares
        self._lock = threading.Lock()
        self._cancelled = threading.Event()
        if start:
            self.advance()

    def cancel(self):
        """Ends the search in progress, if any, at once, and every later one: the game is
        closed. Safe from any thread."""
        self._cancelled.set()
        for agent in self.agents.values():
            agent.stop()

    @property
    def closed(self):
        return self._cancelled.is_set()

    def _agent_to_move(self):
        return not self.state.is_terminal() and self.state.current_player() in self.agents

    def _agent_move(self):
        agent = self.agents[self.state.current_player()]
        before = self.state.clone()
        action = agent.act(self.state, time_limit=self.move_seconds)
        if self.closed:  # stopped mid-search: its move is not played
            raise ViewerError("the game was closed", status=410)
        report = agent.last_report
        self.report = {
            "move": before.action_to_string(action),
            "seat": before.current_player(),
            "sims": report["sims"],
        }
        if report["sims"] > 0:  # a search: its value and visit shares
            by_square, by_text = share_squares(before, report["visit_shares"])
            self.report.update(
                value=round(report["value"], 4),
                squares={k: round(v, 4) for k, v in by_square.items()},
                moves={k: round(v, 4) for k, v in by_text.items()},
            )
        self._play(action)

    def _play(self, action):
        self.moves.append(self.state.action_to_string(action))
        self.state.apply_action(action)

    def _check_open(self):
        if self.closed:
            raise ViewerError("the game was closed", status=410)

    def advance(self):
        """The agents' moves until a person is to move, when there is one."""
        with self._lock:
            self._advance()
            return self.view()

    def _advance(self):
        self._check_open()
        if self.human_seats:
            while self._agent_to_move():
                self._check_open()  # closed between two moves: no search starts
                self._agent_move()

    def move(self, text):
        """A person's move, by its text; then the agents reply."""
        with self._lock:
            self._check_open()
            if self.state.is_terminal():
                raise ViewerError("the game is over")
            seat = self.state.current_player()
            if seat not in self.human_seats:
                raise ViewerError(f"it is seat {seat}'s turn, which an agent plays")
            try:
                action = self.state.string_to_action(str(text))
            except ValueError as error:
                raise ViewerError(f"move {shortened(text)}: {error}") from None
            if not self.state.legal_actions_mask()[action]:
                raise ViewerError(f"move {shortened(text)} is not legal here")
            self.report = None
            self._play(action)
            self._advance()
            return self.view()

    def step(self):
        """One agent move, for games that agents play alone."""
        with self._lock:
            self._check_open()
            if not self._agent_to_move():
                raise ViewerError("no agent is to move")
            self._agent_move()
            return self.view()

    def record(self):
        return records.GameRecord.from_state(
            self.state,
            self.moves,
            seed=self.seed,
            agents=[
                "human" if seat in self.human_seats else self.agent_spec
                for seat in range(self.game.num_players())
            ],
        )

    def view(self):
        flip = self.game.num_players() == 2 and self.human_seats == [1]
        report = self.report
        searched = report is not None and "value" in report
        view = board(
            self.state,
            shares=report["squares"] if searched else None,
            value=report["value"] if searched else None,
            flip=flip,
        )
        if view["to_move"] not in self.human_seats:
            view["legal"] = []
        view.update(
            spec=self.game.spec,
            agent=self.agent_spec,
            human_seats=self.human_seats,
            moves=self.moves,
            report=report,
            agent_to_move=self._agent_to_move(),
        )
        if self.state.is_terminal():
            view["record"] = self.record().to_json()
        return view
