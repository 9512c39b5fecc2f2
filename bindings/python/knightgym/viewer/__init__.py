"""knightgym view: a local web app to replay recorded games and to play against any agent.

    python -m knightgym.viewer [FILE|DIR ...] [--port P] [--host H]   (or: knightgym view)

FILE is a game records file (knightgym.records), DIR a balance run written with --record
(its records.jsonl). The server (server.py, Python's standard library) prints the address
it serves on; the page (static/) draws every state with knightgym.svg. What the page can
ask is in sessions.py: replays of records, and games against agents, with the legal moves
from the mask and each agent's visit shares and value.
"""

from knightgym.viewer.server import serve
from knightgym.viewer.sessions import Library, PlayedGame, ViewerError

__all__ = ["Library", "PlayedGame", "ViewerError", "serve"]
