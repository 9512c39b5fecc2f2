"""The viewer's HTTP server: Python's standard library, hardened for a local app that only
its user drives, as Jupyter is. It knows nothing of the viewer's API: a request that
passes its checks goes to the routes (routes.py), and what they return is sent back.

Every request must come from the server's own page and carry the launch's token
(access.py): the printed address ``/?token=T`` turns the token into the session's
cookie, and a request without it gets 403. Each request's work is bounded: its query's
fields, its body's size (MOST_BODY, and a POST's body must be JSON), the time to send it
and to take the answer (SECONDS_TO_SEND), the connections served at once
(MOST_CONNECTIONS), and an agent's move, which stops when its client goes. A refused
request gets a 4xx status and {"error": message}; a fault of the viewer, 500 and its
description.
"""

import contextlib
import http.server
import io
import json
import select
import socket
import threading
import time
import urllib.parse

from knightgym.viewer.errors import ViewerError, shortened

MOST_BODY = 64 * 1024  # bytes of a request's body
MOST_CONNECTIONS = 256  # served at once; more are closed unanswered
SECONDS_TO_SEND = 10  # for a client to send its whole request, or take the answer
SECONDS_TO_EVICT = 2  # for a connection closed to make room to end
CLIENT_POLL_SECONDS = 0.1


def make_handler(routes, access):
    """The request handler of a server that answers by ``routes`` (routes.Routes) the
    requests that ``access`` (access.Access) lets through."""

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
            self._answer(routes.get)

        def do_POST(self):
            # The body is read once the request has passed the checks, before its route.
            self._answer(lambda path, query: routes.post(path, self._body(), self._while_connected))

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

        def _while_connected(self, cancel, work):
            """work() (an agent's move), with cancel() called if the client goes before
            it ends."""
            done = threading.Event()

            def watch():
                while not done.wait(CLIENT_POLL_SECONDS):
                    if _hung_up(self.connection):
                        cancel()
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


class Server(http.server.ThreadingHTTPServer):
    """A thread per connection, at most MOST_CONNECTIONS at once; when all are taken, a new
    connection closes the one that has waited longest for its request to come in (a
    client that trickles or idles loses its place to one that sends: whole requests come
    in a moment, so one local process holding connections open cannot lock the user
    out). ``on_close()`` is called when it closes (the viewer's games end their searches)."""

    daemon_threads = True
    request_queue_size = 128  # connections waiting to be accepted (the default is 5)

    def __init__(self, address, routes, access, on_close):
        self.access = access
        self._on_close = on_close
        self._slots = threading.BoundedSemaphore(MOST_CONNECTIONS)
        self._waiting = {}  # handler -> since when it waits for its request
        self._waiting_lock = threading.Lock()
        super().__init__(address, make_handler(routes, access))
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
        self._on_close()
        super().server_close()
