"""The viewer's HTTP server: Python's standard library, JSON in and out, the page's files
from static/. A refused request gets a 4xx status and {"error": message}, which the page
shows (a fault of the viewer itself, 500 and its description).

    GET  /?token=T                      sets the session cookie, then the page
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

It is a local app that only its user drives (access.py): every request must carry the
launch's token and come from the server's own origin. Each request's work is bounded:
the body's size, the texts in it, the time to send it, the agents and the time of their
moves, the games kept, the connections served at once.
"""

import contextlib
import http.server
import io
import json
import os
import select
import socket
import sys
import threading
import time
import urllib.parse

import knightgym
from knightgym.viewer.access import Access
from knightgym.viewer.agent_policy import AgentPolicy
from knightgym.viewer.errors import ViewerError, shortened
from knightgym.viewer.sessions import Library, PlayedGame

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
}
MOST_GAMES = 64  # games kept at once (and within the policy's memory); the oldest goes first
MOST_BODY = 64 * 1024  # bytes of a request's body
MOST_TEXT = 4096  # characters of a spec, an agent spec, a path or a move
MOST_SEATS = 16
MOST_CONNECTIONS = 256  # served at once; more are closed unanswered
SECONDS_TO_SEND = 10  # for a client to send its whole request, or take the answer
SECONDS_TO_EVICT = 2  # for a connection closed to make room to end
MOST_SEED = 2**63 - 1
CLIENT_POLL_SECONDS = 0.1


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
                _text(body, "spec", ""),
                _text(body, "agent", "random"),
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
        with self.lock:
            game = self.games.pop(game_id, None)
        if game is None:
            raise ViewerError(f"no game {game_id}", status=404)
        game.cancel()

    def close_all(self):
        with self.lock:
            games, self.games = list(self.games.values()), {}
        for game in games:
            game.cancel()


def describe(spec):
    try:
        game = knightgym.load_game(spec)
    except ValueError as error:
        raise ViewerError(f"game {shortened(spec)}: {error}") from None
    return {"name": game.name, "spec": game.spec, "players": game.num_players()}


def games_list():
    return [describe(name) for name in knightgym.games()]


def make_handler(viewer, access):
    class Handler(http.server.BaseHTTPRequestHandler):
        server_version = "knightgym-view"
        timeout = SECONDS_TO_SEND  # on the socket: a client that stops sending is dropped
        deadline = 0.0  # when the request being read must be in, headers and body

        def setup(self):
            super().setup()
            # Every read of the request gets what is left of its deadline, not a fresh
            # timeout: a byte every few seconds does not keep a connection for ever.
            self.rfile = io.BufferedReader(_DeadlineReader(self.rfile.detach(), self))

        def handle_one_request(self):
            self.deadline = time.monotonic() + SECONDS_TO_SEND
            self.server.waiting(self, True)
            try:
                super().handle_one_request()
            finally:
                self.server.waiting(self, False)

        def log_message(self, format, *args):  # quiet: the terminal shows the address only
            pass

        unread_body = False  # a body refused unread: drained before closing (see _drain)

        def do_GET(self):
            self._answer(self._get)

        def do_POST(self):
            self._answer(self._post)

        def do_OPTIONS(self):
            # No CORS preflight succeeds: the answer allows no other origin.
            refusal = access.refusal(self.headers, self.command)
            if refusal:
                self._send(403, {"error": refusal}, None, {})
            else:
                self._send(204, b"", "text/plain", {"Allow": "GET, POST, OPTIONS"})

        def _answer(self, route):
            self.server.waiting(self, False)  # its request is in: working, not evicted
            url = urllib.parse.urlsplit(self.path)
            headers = {}
            try:
                query = _query(url.query)
                refusal = access.refusal(self.headers, self.command)
                if refusal:
                    raise ViewerError(refusal, status=403)
                if url.path in ("/", "/index.html") and access.token_in(query):
                    # The address printed: the token becomes the session's cookie.
                    status, body, content_type = 303, b"", "text/plain"
                    headers = {"Location": "/", "Set-Cookie": access.cookie()}
                elif not access.authorized(self.headers):
                    raise ViewerError(access.missing_token_message(), status=403)
                else:
                    status, body, content_type = route(url.path, query)
            except ViewerError as error:
                status, body, content_type = error.status, {"error": str(error)}, None
            except Exception as error:  # noqa: BLE001 - a fault of the viewer, said in the page
                status, body, content_type = 500, {"error": f"the viewer failed: {error!r}"}, None
            self._send(status, body, content_type, headers)

        def _send(self, status, body, content_type, headers):
            if content_type is None:
                body, content_type = json.dumps(body).encode(), "application/json"
            try:
                self.connection.settimeout(SECONDS_TO_SEND)  # to take the answer
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.send_header("X-Content-Type-Options", "nosniff")
                self.send_header("X-Frame-Options", "DENY")
                self.send_header("Content-Security-Policy", "frame-ancestors 'none'")
                self.send_header("Referrer-Policy", "no-referrer")
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(body)
            except OSError:  # the client went
                self.close_connection = True
                return
            if self.unread_body:
                _drain(self.connection)

        def _get(self, path, query):
            if path in ("/", "/index.html"):
                return self._file("index.html")
            if path.startswith("/static/"):
                return self._file(path[len("/static/") :])
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

        def _post(self, path, query):
            body = self._body()
            if path == "/api/open":
                added = viewer.library.open(_text(body, "path", ""))
                return 200, {"added": added, "games": viewer.library.summary()}, None
            if path == "/api/play":
                game_id, game = viewer.new_game(body)
                return 200, dict(self._while_connected(game, game.advance), id=game_id), None
            parts = path.strip("/").split("/")
            if len(parts) == 4 and parts[:2] == ["api", "play"]:
                game_id = _id(parts[2])
                if parts[3] == "close":
                    viewer.close(game_id)
                    return 200, {"closed": game_id}, None
                game = viewer.game(game_id)
                if parts[3] == "move":
                    move = _text(body, "move", "")
                    return (
                        200,
                        dict(self._while_connected(game, lambda: game.move(move)), id=game_id),
                        None,
                    )
                if parts[3] == "step":
                    return 200, dict(self._while_connected(game, game.step), id=game_id), None
            return 404, {"error": f"no such action: {shortened(path)}"}, None

        def _while_connected(self, game, work):
            """work() (an agent's move), cancelled if the client goes before it ends."""
            done = threading.Event()

            def watch():
                while not done.wait(CLIENT_POLL_SECONDS):
                    if _hung_up(self.connection):
                        game.cancel()
                        return

            watcher = threading.Thread(target=watch, daemon=True)
            watcher.start()
            try:
                return work()
            finally:
                done.set()
                watcher.join()

        def _body(self):
            if self.headers.get_content_type() != "application/json":
                raise ViewerError("the request's Content-Type must be application/json", status=415)
            declared = self.headers.get("Content-Length")
            try:
                length = int(declared) if declared is not None else 0
            except ValueError:
                length = -1
            if length < 0:
                raise ViewerError(f"bad Content-Length {shortened(declared)}")
            if length > MOST_BODY:
                self.close_connection = self.unread_body = True
                raise ViewerError(
                    f"the request's body is at most {MOST_BODY} bytes, got {length}", status=413
                )
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except (json.JSONDecodeError, UnicodeDecodeError) as error:
                raise ViewerError(f"the request is not JSON: {shortened(error)}") from None
            except RecursionError:
                raise ViewerError(
                    "the request is not JSON the viewer reads: nested too deep"
                ) from None
            except ValueError:  # Python's own limit: integers of more than 4,300 digits
                raise ViewerError(
                    "the request is not JSON the viewer reads: a number too long"
                ) from None
            if not isinstance(body, dict):
                raise ViewerError("the request must be a JSON object")
            return body

        def _file(self, name):
            # Only the files of static/ itself, by plain name.
            if name not in os.listdir(STATIC):
                return 404, {"error": f"no such file: {shortened(name)}"}, None
            with open(os.path.join(STATIC, name), "rb") as file:
                data = file.read()
            return (
                200,
                data,
                CONTENT_TYPES.get(os.path.splitext(name)[1], "application/octet-stream"),
            )

    return Handler


class _DeadlineReader(io.RawIOBase):
    """A connection's reads (``raw``, its socket's file), each allowed what is left of its
    handler's deadline."""

    def __init__(self, raw, handler):
        super().__init__()
        self._raw = raw
        self._handler = handler

    def readable(self):
        return True

    def readinto(self, buffer):
        left = self._handler.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"the request took more than {SECONDS_TO_SEND} s to send")
        self._handler.connection.settimeout(left)
        return self._raw.readinto(buffer)

    def close(self):
        self._raw.close()
        super().close()


def _hung_up(connection):
    """Whether the client closed its side (what it sent is read already, so a readable
    socket with nothing to read has ended)."""
    try:
        readable, _, _ = select.select([connection], [], [], 0)
        return bool(readable) and connection.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True


def _drain(connection, most=4 * MOST_BODY, seconds=1.0):
    """Reads and drops a little of a refused body after the answer: a socket closed with
    unread data resets the connection, and the client might lose the answer with it."""
    deadline = time.monotonic() + seconds
    try:
        connection.shutdown(socket.SHUT_WR)
        left = most
        while left > 0 and (wait := deadline - time.monotonic()) > 0:
            connection.settimeout(wait)
            chunk = connection.recv(min(left, 65536))
            if not chunk:
                break
            left -= len(chunk)
    except OSError:
        pass


def _query(text):
    try:
        return urllib.parse.parse_qs(text, max_num_fields=16)
    except ValueError:
        raise ViewerError("the address holds too many fields") from None


def _text(body, key, default):
    value = body.get(key, default)
    if not isinstance(value, str):
        raise ViewerError(f"{key} must be text, got {shortened(value)}")
    if len(value) > MOST_TEXT:
        raise ViewerError(f"{key} is at most {MOST_TEXT} characters, got {len(value)}", status=413)
    return value


def _query_text(query, key):
    return _text({key: query.get(key, [""])[0]}, key, "")


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


class Server(http.server.ThreadingHTTPServer):
    """A thread per connection, at most MOST_CONNECTIONS at once; when all are taken, a new
    connection closes the one that has waited longest for its request to come in (a
    client that trickles or idles loses its place to one that sends: whole requests come
    in a moment, so one local process holding connections open cannot lock the user
    out). The games' searches are cancelled when it closes."""

    daemon_threads = True
    request_queue_size = 128  # connections waiting to be accepted (the default is 5)

    def __init__(self, address, viewer, access):
        self.viewer = viewer
        self.access = access
        self._slots = threading.BoundedSemaphore(MOST_CONNECTIONS)
        self._waiting = {}  # handler -> since when it waits for its request
        self._waiting_lock = threading.Lock()
        super().__init__(address, make_handler(viewer, access))
        access.bind(self.server_address[1])

    @property
    def url(self):
        """The address to open, with the token."""
        return self.access.url(self.server_address[0], self.server_address[1])

    def waiting(self, handler, is_waiting):
        """Marks a connection as waiting for its request (evictable) or not."""
        with self._waiting_lock:
            if is_waiting:
                self._waiting[handler] = time.monotonic()
            else:
                self._waiting.pop(handler, None)

    def _evict_longest_waiting(self):
        with self._waiting_lock:
            if not self._waiting:
                return
            handler = min(self._waiting, key=self._waiting.get)
            del self._waiting[handler]
        with contextlib.suppress(OSError):
            handler.connection.shutdown(socket.SHUT_RDWR)  # its thread ends, its slot frees

    def process_request(self, request, client_address):
        if not self._slots.acquire(blocking=False):
            self._evict_longest_waiting()
            if not self._slots.acquire(timeout=SECONDS_TO_EVICT):
                self.shutdown_request(request)
                return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def server_close(self):
        self.viewer.close_all()
        super().server_close()


def make_server(library=None, host="127.0.0.1", port=0, *, policy=None, token=None):
    """The server, bound (port 0: a free one) but not yet serving; server.url is the
    address to open and server.access.token its token (a fresh one unless given)."""
    viewer = Viewer(library if library is not None else Library(roots=[]), policy or AgentPolicy())
    return Server((host, port), viewer, Access(host, token))


def serve(library, host="127.0.0.1", port=8000, *, policy=None):
    """Serves until interrupted, after printing the address with its token (the first
    line of output)."""
    try:
        server = make_server(library, host, port, policy=policy)
    except OSError as error:
        print(f"knightgym view: cannot serve on {host}:{port}: {error.strerror}", file=sys.stderr)
        return 1
    print(f"knightgym view: serving on {server.url}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
