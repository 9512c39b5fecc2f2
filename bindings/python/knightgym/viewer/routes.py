"""The viewer's JSON API: which address asks what of the viewer's state (app.py), and the
page's own files from static/. The HTTP server (transport.py) has already checked that
the request comes from the page with the launch's token, and read its JSON body within
bounds; a route only answers. Answers and refusals are JSON: a refused request gets a
4xx status and {"error": message}, which the page shows.

    GET  /?token=T                      sets the session cookie, then the page (transport.py)
    GET  /api/games                     the games: name, canonical spec, players
    GET  /api/game?spec=S               one spec: canonical, players
    GET  /api/agents                    the models and engines a game may ask for
    GET  /api/library                   the recorded games opened so far
    POST /api/open    {"path"}          opens a records file or a balance run
    GET  /api/replay?index=I&ply=P      game I of the library after P moves
    POST /api/play    {"spec", "agent", "seats", "seed"}   a new game; seats are people's
    GET  /api/play/ID                   its view
    POST /api/play/ID/move {"move"}     a person's move, then the agents'
    POST /api/play/ID/step              one agent move (games without people)
    POST /api/play/ID/close             ends the game and its search
"""

import os

from knightgym.viewer.app import describe, games_list, text_field
from knightgym.viewer.errors import ViewerError, shortened

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
}


class Routes:
    """The answers to one viewer's requests, each (status, body, content type): bytes of
    that type, or a value sent as JSON where the type is None. It keeps no state of its
    own (the viewer's is behind the viewer's lock), so connections call it at once."""

    def __init__(self, viewer):
        self.viewer = viewer

    def get(self, path, query):
        """The answer to GET ``path`` with ``query`` (lists of values by name)."""
        viewer = self.viewer
        if path in ("/", "/index.html"):
            return _file("index.html")
        if path.startswith("/static/"):
            return _file(path[len("/static/") :])
        if path == "/api/games":
            return 200, {"games": games_list()}, None
        if path == "/api/game":
            return 200, describe(_query_text(query, "spec")), None
        if path == "/api/agents":
            return 200, viewer.policy.describe(), None
        if path == "/api/library":
            return 200, {"games": viewer.library.summary()}, None
        if path == "/api/replay":
            return 200, viewer.library.replay(_int(query, "index"), _int(query, "ply")), None
        parts = path.strip("/").split("/")
        if len(parts) == 3 and parts[:2] == ["api", "play"]:
            game_id = _id(parts[2])
            return 200, dict(viewer.game(game_id).view(), id=game_id), None
        return 404, {"error": f"no such page: {shortened(path)}"}, None

    def post(self, path, body, while_connected):
        """The answer to POST ``path`` with its JSON object ``body``. An agent's move runs
        as ``while_connected(cancel, work)``, which calls the game's cancel() if the client
        goes before the move is made, so that its search stops."""
        viewer = self.viewer
        if path == "/api/open":
            added = viewer.library.open(text_field(body, "path", ""))
            return 200, {"added": added, "games": viewer.library.summary()}, None
        if path == "/api/play":
            game_id, game = viewer.new_game(body)
            return 200, dict(while_connected(game.cancel, game.advance), id=game_id), None
        parts = path.strip("/").split("/")
        if len(parts) == 4 and parts[:2] == ["api", "play"]:
            game_id = _id(parts[2])
            if parts[3] == "close":
                viewer.close(game_id)
                return 200, {"closed": game_id}, None
            game = viewer.game(game_id)
            if parts[3] == "move":
                move = text_field(body, "move", "")
                view = while_connected(game.cancel, lambda: game.move(move))
                return 200, dict(view, id=game_id), None
            if parts[3] == "step":
                return 200, dict(while_connected(game.cancel, game.step), id=game_id), None
        return 404, {"error": f"no such action: {shortened(path)}"}, None


def _file(name):
    # Only the files of static/ itself, by plain name.
    if name not in os.listdir(STATIC):
        return 404, {"error": f"no such file: {shortened(name)}"}, None
    with open(os.path.join(STATIC, name), "rb") as file:
        data = file.read()
    return 200, data, CONTENT_TYPES.get(os.path.splitext(name)[1], "application/octet-stream")


def _query_text(query, key):
    return text_field({key: query.get(key, [""])[0]}, key, "")


def _int(query, key):
    values = query.get(key)
    if not values:
        raise ViewerError(f"{key} is missing")
    try:
        return int(values[0][:32])
    except ValueError:
        raise ViewerError(f"{key} must be a whole number, got {shortened(values[0])}") from None


def _id(text):
    try:
        return int(text[:32])
    except ValueError:
        raise ViewerError(f"no game {shortened(text)}", status=404) from None
