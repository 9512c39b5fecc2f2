"""knightgym view: a local web app to replay recorded games and to play against agents.

    python -m knightgym.viewer [FILE|DIR ...] [--folder DIR] [--model NAME=PATH]
        [--engine NAME=PATH] [--max-sims N] [--move-seconds S] [--port P] [--host H]
    (or: knightgym view ...)

FILE is a game records file (knightgym.records), DIR a balance run written with --record
(its records.jsonl). The server (server.py, Python's standard library) prints the address
it serves on, with the launch's token; the page (static/) draws every state with
knightgym.svg. What the page can ask is listed in routes.py and kept in app.py, its
games in sessions.py: replays of records, and games against agents, with the legal moves
from the mask and each agent's visit shares and value. Only its user's page can ask
(access.py), only for agents that start no program and load no file that the command
line did not name (agent_policy.py), and every request's work is bounded (transport.py,
the HTTP server).
"""

from knightgym.viewer.agent_policy import AgentPolicy
from knightgym.viewer.errors import ViewerError
from knightgym.viewer.server import make_server, serve
from knightgym.viewer.sessions import Library, PlayedGame

__all__ = ["AgentPolicy", "Library", "PlayedGame", "ViewerError", "make_server", "serve"]
