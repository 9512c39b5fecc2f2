"""The viewer's HTTP server: Python's standard library, JSON in and out, the page's files
from static/. A bad request gets status 400 and {"error": message}, which the page shows (a fault of the
viewer itself, 500 and its description).

    GET  /                              the page
    GET  /api/games                     the games: name, canonical spec, players
    GET  /api/game?spec=S               one spec: canonical, players
    GET  /api/library                   the recorded games opened so far
    POST /api/open    {"path"}          opens a records file or a balance run
    GET  /api/replay?index=I&ply=P      game I of the library after P moves
    POST /api/play    {"spec", "agent", "seats", "seed"}   a new game; seats are people's
    GET  /api/play/ID                   its view
    POST /api/play/ID/move {"move"}     a person's move, then the agents'
    POST /api/play/ID/step              one agent move (games without people)
"""

import http.server
import json
import os
import sys
import threading
import urllib.parse

import knightgym
from knightgym.viewer.sessions import PlayedGame, ViewerError

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8"}
MOST_GAMES = 64  # games kept at once; the oldest goes first


class Viewer:
    """The server's state: the library and the games being played."""

    def __init__(self, library):
        self.library = library
        self.games = {}
        self.next_id = 1
        self.lock = threading.Lock()

    def new_game(self, body):
        seats = body.get("seats", [0])
        if not isinstance(seats, list) or not all(isinstance(s, int) for s in seats):
            raise ViewerError(f"seats must be a list of seat numbers, got {seats!r}")
        seed = body.get("seed", 0)
        if not isinstance(seed, int) or seed < 0:
            raise ViewerError(f"seed must be a number >= 0, got {seed!r}")
        game = PlayedGame(str(body.get("spec", "")), str(body.get("agent", "random")), seats,
                          seed)
        with self.lock:
            game_id = self.next_id
            self.next_id += 1
            self.games[game_id] = game
            while len(self.games) > MOST_GAMES:
                del self.games[min(self.games)]
        return dict(game.view(), id=game_id)

    def game(self, game_id):
        with self.lock:
            game = self.games.get(game_id)
        if game is None:
            raise ViewerError(f"no game {game_id} (it ended with the server, or was dropped)")
        return game


def describe(spec):
    try:
        game = knightgym.load_game(spec)
    except ValueError as error:
        raise ViewerError(f"game {spec!r}: {error}") from None
    return {"name": game.name, "spec": game.spec, "players": game.num_players()}


def games_list():
    return [describe(name) for name in knightgym.games()]


def make_handler(viewer):
    class Handler(http.server.BaseHTTPRequestHandler):
        server_version = "knightgym-view"

        def log_message(self, format, *args):  # quiet: the terminal shows the address only
            pass

        def do_GET(self):
            self._answer(self._get)

        def do_POST(self):
            self._answer(self._post)

        def _answer(self, route):
            url = urllib.parse.urlsplit(self.path)
            try:
                status, body, content_type = route(url.path, urllib.parse.parse_qs(url.query))
            except ViewerError as error:
                status, body, content_type = 400, {"error": str(error)}, None
            except Exception as error:  # noqa: BLE001 - a fault of the viewer, said in the page
                status, body, content_type = 500, {"error": f"the viewer failed: {error!r}"}, None
            if content_type is None:
                body, content_type = json.dumps(body).encode(), "application/json"
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _get(self, path, query):
            if path in ("/", "/index.html"):
                return self._file("index.html")
            if path.startswith("/static/"):
                return self._file(path[len("/static/"):])
            if path == "/api/games":
                return 200, {"games": games_list()}, None
            if path == "/api/game":
                return 200, describe(query.get("spec", [""])[0]), None
            if path == "/api/library":
                return 200, {"games": viewer.library.summary()}, None
            if path == "/api/replay":
                return 200, viewer.library.replay(_int(query, "index"), _int(query, "ply")), None
            parts = path.strip("/").split("/")
            if len(parts) == 3 and parts[:2] == ["api", "play"]:
                return 200, dict(viewer.game(_id(parts[2])).view(), id=_id(parts[2])), None
            return 404, {"error": f"no such page: {path}"}, None

        def _post(self, path, query):
            body = self._body()
            if path == "/api/open":
                added = viewer.library.open(str(body.get("path", "")))
                return 200, {"added": added, "games": viewer.library.summary()}, None
            if path == "/api/play":
                return 200, viewer.new_game(body), None
            parts = path.strip("/").split("/")
            if len(parts) == 4 and parts[:2] == ["api", "play"]:
                game_id = _id(parts[2])
                game = viewer.game(game_id)
                if parts[3] == "move":
                    return 200, dict(game.move(body.get("move", "")), id=game_id), None
                if parts[3] == "step":
                    return 200, dict(game.step(), id=game_id), None
            return 404, {"error": f"no such action: {path}"}, None

        def _body(self):
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except json.JSONDecodeError as error:
                raise ViewerError(f"the request is not JSON: {error}") from None
            if not isinstance(body, dict):
                raise ViewerError("the request must be a JSON object")
            return body

        def _file(self, name):
            # Only the files of static/ itself, by plain name.
            if name not in os.listdir(STATIC):
                return 404, {"error": f"no such file: {name}"}, None
            with open(os.path.join(STATIC, name), "rb") as file:
                data = file.read()
            return 200, data, CONTENT_TYPES.get(os.path.splitext(name)[1], "application/octet-stream")

    return Handler


def _int(query, key):
    values = query.get(key)
    if not values:
        raise ViewerError(f"{key} is missing")
    try:
        return int(values[0])
    except ValueError:
        raise ViewerError(f"{key} must be a whole number, got {values[0]!r}") from None


def _id(text):
    try:
        return int(text)
    except ValueError:
        raise ViewerError(f"no game {text!r}") from None


def make_server(library, host="127.0.0.1", port=0):
    """The server, bound (port 0: a free one) but not yet serving."""
    return http.server.ThreadingHTTPServer((host, port), make_handler(Viewer(library)))


def serve(library, host="127.0.0.1", port=8000):
    """Serves until interrupted, after printing the address (the first line of output)."""
    try:
        server = make_server(library, host, port)
    except OSError as error:
        print(f"knightgym view: cannot serve on {host}:{port}: {error.strerror}", file=sys.stderr)
        return 1
    print(f"knightgym view: serving on http://{host}:{server.server_address[1]}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
