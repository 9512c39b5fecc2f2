"""Connecting to a Ray cluster, for everything knightgym runs on one (balance runs,
training's self-play actors): the address checked at once and by name, the package put
on the workers' PYTHONPATH, and Ray's token authentication followed.

Every node needs the same knightgym build at the same path (the driver's package
directory goes to the workers as PYTHONPATH), started from the same Python: see
docs/balance.md, "On a Ray cluster".
"""

import logging
import os
import re
import socket
import time

from knightgym._optional import extra

__all__ = ["check_address", "connect"]

CONNECT_TIMEOUT = 5.0
# Ray's client server starts a server of its own for each ray:// driver; that start can
# fail for a moment (its gRPC poller losing a file descriptor, or the new server's process
# ending before the proxier reads its command line: psutil's ZombieProcess, seen on loaded
# cores), and is tried again.
CONNECT_ATTEMPTS = 3
_SERVER_FAILED_TO_START = ("Starting Ray client server failed", "psutil.ZombieProcess")

_ADDRESS = re.compile(r"^(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(?P<port>\d{1,5})$")


def check_address(address):
    """Refuses an address that names no reachable Ray head, quickly and by name:
    `ray.init` itself retries a dead address for minutes. "auto" (the cluster this
    machine joined with `ray start`) and "ray://" client addresses go to Ray as they are."""
    if not isinstance(address, str) or not address:
        raise ValueError(
            f"ray_address must be 'HOST:PORT', 'auto' or 'ray://HOST:PORT', got {address!r}"
        )
    if address == "auto" or address.startswith("ray://"):
        return
    match = _ADDRESS.match(address)
    if not match or not 0 < int(match["port"]) < 65536:
        raise ValueError(
            f"ray_address {address!r}: expected HOST:PORT (the head's GCS address, "
            f"as `ray start --head` prints it), 'auto' or 'ray://HOST:PORT'"
        )
    host, port = match["host"].strip("[]"), int(match["port"])
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT) as connection:
            speaks_grpc = _answers_http2(connection)
    except OSError as error:
        raise ConnectionError(
            f"no Ray cluster answers at {address}: {error.strerror or error}. "
            f"Start one with `ray start --head` (see docs/balance.md)"
        ) from None
    if not speaks_grpc:
        raise ConnectionError(
            f"{address} is no Ray cluster: something listens there but does not answer as "
            f"Ray's head (gRPC) does within {CONNECT_TIMEOUT:g} s"
        )


# What a client sends first on an HTTP/2 connection (RFC 9113, 3.4), gRPC's transport.
_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
_EMPTY_SETTINGS = bytes([0, 0, 0, 0x04, 0, 0, 0, 0, 0])  # length 0, SETTINGS, stream 0


def _answers_http2(connection):
    """Whether the server behind `connection` answers the HTTP/2 preface as Ray's head (a
    gRPC server) does: with a SETTINGS frame, within CONNECT_TIMEOUT in all."""
    connection.settimeout(CONNECT_TIMEOUT)
    connection.sendall(_HTTP2_PREFACE + _EMPTY_SETTINGS)
    header = b""
    try:
        while len(header) < 9:
            chunk = connection.recv(9 - len(header))
            if not chunk:
                return False
            header += chunk
    except TimeoutError:
        return False
    return header[3] == 0x04  # the frame's type: SETTINGS


def connect(address):
    """Connects this process to the cluster at `address` unless Ray is connected already;
    returns whether it connected (and so should disconnect with ray.shutdown())."""
    with extra("ray", __name__):
        import ray

    check_address(address)
    if ray.is_initialized():
        return False
    # `ray start --head` turns token authentication on when this machine holds a token
    # (~/.ray/auth_token); a driver must then send it, which Ray leaves to RAY_AUTH_MODE.
    if "RAY_AUTH_MODE" not in os.environ and os.path.exists(
        os.path.expanduser("~/.ray/auth_token")
    ):
        os.environ["RAY_AUTH_MODE"] = "token"
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.pathsep.join(p for p in (package_parent, os.environ.get("PYTHONPATH")) if p)
    for attempt in range(1, CONNECT_ATTEMPTS + 1):
        try:
            ray.init(
                address=address,
                runtime_env={"env_vars": {"PYTHONPATH": path}},
                log_to_driver=False,
                logging_level=logging.WARNING,
            )
            return True
        except (
            ConnectionError,
            RuntimeError,
            ValueError,
            ray.exceptions.AuthenticationError,
        ) as error:
            # A failed init leaves half a connection behind, which fails the next one.
            ray.shutdown()
            transient = any(sign in str(error) for sign in _SERVER_FAILED_TO_START)
            if attempt == CONNECT_ATTEMPTS or not transient:
                raise ConnectionError(f"Ray cluster at {address}: {error}") from None
            time.sleep(attempt)
