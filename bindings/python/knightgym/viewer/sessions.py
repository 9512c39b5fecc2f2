"""What the viewer's page can ask, apart from HTTP: replays of recorded games (Library)
and games against agents (PlayedGame). Every answer is a plain dict for JSON; a bad
request raises ViewerError with a message for the page, and changes nothing."""

import os
import threading

import knightgym
from knightgym import records, svg


class ViewerError(ValueError):
    """A request the viewer refuses; its message is shown in the page."""


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
    """Recorded games opened from files and balance runs, replayed ply by ply."""

    def __init__(self):
        self._games = []   # (source, GameRecord)
        self._states = {}  # index -> the record's states, replayed once
        self._lock = threading.Lock()

    def open(self, path):
        """Adds the games of a records file, or of DIR/records.jsonl for a balance run
        (written with --record). Returns how many were added."""
        path = os.fspath(path)
        if os.path.isdir(path):
            inner = os.path.join(path, "records.jsonl")
            if not os.path.isfile(inner):
                raise ViewerError(f"{path} holds no records.jsonl (run knightgym balance with "
                                  "--record N, or knightgym play with --record FILE)")
            path = inner
        if not os.path.isfile(path):
            raise ViewerError(f"{path}: no such file")
        try:
            games = records.read(path)
        except (ValueError, UnicodeDecodeError) as error:
            raise ViewerError(str(error)) from None
        with self._lock:
            self._games.extend((path, game) for game in games)
        return len(games)

    def summary(self):
        with self._lock:
            games = list(self._games)
        return [{"index": i, "source": source, "game": game.game, "spec": game.spec,
                 "agents": game.agents, "returns": game.returns, "moves": len(game.moves),
                 "truncated": game.truncated}
                for i, (source, game) in enumerate(games)]

    def replay(self, index, ply):
        """The view of game ``index`` after ``ply`` moves (0: the start)."""
        with self._lock:
            if not 0 <= index < len(self._games):
                raise ViewerError(f"no recorded game {index} (there are {len(self._games)})")
            source, game = self._games[index]
            if index not in self._states:
                self._states[index] = list(game.states())
            states = self._states[index]
        if not 0 <= ply < len(states):
            raise ViewerError(f"ply {ply} is outside the game's 0..{len(game.moves)}")
        view = board(states[ply])
        view.update(index=index, ply=ply, moves=game.moves, spec=game.spec, agents=game.agents,
                    source=source, opening_plies=game.opening_plies, game=game.game,
                    record_returns=game.returns, legal=[])
        return view


class PlayedGame:
    """A game of any spec in which people take the seats in ``human_seats`` and an agent of
    ``agent_spec`` (one per seat, each seeded) takes the others. The agents move whenever
    it is their turn and a person has moved, or one at a time through step()."""

    def __init__(self, spec, agent_spec, human_seats, seed=0):
        try:
            self.game = knightgym.load_game(spec)
        except ValueError as error:
            raise ViewerError(f"game {spec!r}: {error}") from None
        players = self.game.num_players()
        seats = sorted(set(human_seats))
        if any(not 0 <= seat < players for seat in seats):
            raise ViewerError(f"seats must be in 0..{players - 1} for {self.game.spec}, "
                              f"got {human_seats}")
        self.human_seats = seats
        self.seed = seed
        self.agents = {}
        try:
            for seat in range(players):
                if seat not in seats:
                    self.agents[seat] = knightgym.agents.make(agent_spec, self.game,
                                                              seed=seed + seat)
        except ValueError as error:
            raise ViewerError(f"agent {agent_spec!r}: {error}") from None
        self.agent_spec = next(iter(self.agents.values())).spec if self.agents else agent_spec
        self.state = self.game.new_initial_state(seed=seed)
        self.moves = []
        self.report = None  # the last agent move's search: value and shares
        self._lock = threading.Lock()
        self._advance()

    def _agent_to_move(self):
        return not self.state.is_terminal() and self.state.current_player() in self.agents

    def _agent_move(self):
        agent = self.agents[self.state.current_player()]
        before = self.state.clone()
        action = agent.act(self.state)
        report = agent.last_report
        self.report = {"move": before.action_to_string(action), "seat": before.current_player(),
                       "simulations": report["simulations"]}
        if report["simulations"] > 0:  # a search: its value and visit shares
            by_square, by_text = share_squares(before, report["visit_shares"])
            self.report.update(value=round(report["value"], 4),
                               squares={k: round(v, 4) for k, v in by_square.items()},
                               moves={k: round(v, 4) for k, v in by_text.items()})
        self._play(action)

    def _play(self, action):
        self.moves.append(self.state.action_to_string(action))
        self.state.apply_action(action)

    def _advance(self):
        """The agents' moves until a person is to move, when there is one."""
        if self.human_seats:
            while self._agent_to_move():
                self._agent_move()

    def move(self, text):
        """A person's move, by its text; then the agents reply."""
        with self._lock:
            if self.state.is_terminal():
                raise ViewerError("the game is over")
            seat = self.state.current_player()
            if seat not in self.human_seats:
                raise ViewerError(f"it is seat {seat}'s turn, which an agent plays")
            try:
                action = self.state.string_to_action(str(text))
            except ValueError as error:
                raise ViewerError(f"move {text!r}: {error}") from None
            if not self.state.legal_actions_mask()[action]:
                raise ViewerError(f"move {text!r} is not legal here")
            self.report = None
            self._play(action)
            self._advance()
            return self.view()

    def step(self):
        """One agent move, for games that agents play alone."""
        with self._lock:
            if not self._agent_to_move():
                raise ViewerError("no agent is to move")
            self._agent_move()
            return self.view()

    def record(self):
        return records.GameRecord.from_state(
            self.state, self.moves, seed=self.seed,
            agents=["human" if seat in self.human_seats else self.agent_spec
                    for seat in range(self.game.num_players())])

    def view(self):
        flip = self.game.num_players() == 2 and self.human_seats == [1]
        report = self.report
        searched = report is not None and "value" in report
        view = board(self.state, shares=report["squares"] if searched else None,
                     value=report["value"] if searched else None, flip=flip)
        if view["to_move"] not in self.human_seats:
            view["legal"] = []
        view.update(spec=self.game.spec, agent=self.agent_spec, human_seats=self.human_seats,
                    moves=self.moves, report=report, agent_to_move=self._agent_to_move())
        if self.state.is_terminal():
            view["record"] = self.record().to_json()
        return view
