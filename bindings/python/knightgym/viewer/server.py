"""The viewer's server put together: its state (app.py), answered through its routes
(routes.py) by the hardened HTTP server (transport.py), which lets through only the
requests of its user's page (access.py)."""

import sys

from knightgym.viewer.access import Access
from knightgym.viewer.agent_policy import AgentPolicy
from knightgym.viewer.app import Viewer
from knightgym.viewer.routes import Routes
from knightgym.viewer.sessions import Library
from knightgym.viewer.transport import Server


def make_server(library=None, host="127.0.0.1", port=0, *, policy=None, token=None):
    """The server, bound (port 0: a free one) but not yet serving; server.url is the
    address to open and server.access.token its token (a fresh one unless given)."""
    viewer = Viewer(library if library is not None else Library(roots=[]), policy or AgentPolicy())
    return Server((host, port), Routes(viewer), Access(host, token), on_close=viewer.close_all)


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
