"""A seeded fuzz loop over the viewer's request handling, for a bounded time
(KNIGHTGYM_VIEWER_FUZZ_SECONDS, 10 by default; KNIGHTGYM_VIEWER_FUZZ_SEED picks the seed,
1 by default so that every run of the suite tries the same requests first).

Requests are drawn from the API's own shape and then broken: every route and method,
the token and the Host right or wrong, foreign origins, wrong content types and
lengths, bodies that are not JSON or not objects, fields of every JSON type, specs and
agent specs mutated character by character, huge numbers, long and non-ASCII texts. Each
answer must be a whole HTTP response whose status is 2xx-4xx (501 only for a method the
server has no handler for), whose error, if any, is short and quotes no long text of the
request; afterwards the server answers at once."""

import json
import os
import random
import socket
import threading
import time

import knightgym
import pytest
from knightgym.viewer import AgentPolicy, Library
from knightgym.viewer.server import make_server

SECONDS = float(os.environ.get("KNIGHTGYM_VIEWER_FUZZ_SECONDS", "10"))
SEED = int(os.environ.get("KNIGHTGYM_VIEWER_FUZZ_SEED", "1"))
TOKEN = "fuzz-token"
SPECS = [
    *knightgym.games(),
    "knightmate(max_turns=20)",
    "double_duel(max_turns=10)",
    "knights_challenge(mode=ffa3,max_turns=20)",
    "tailten(ringforts=12)",
    "knightmate(fen=[8/8/8/8/8/8/8/8 w - - 0 1])",
    "",
]
AGENTS = [
    "random",
    "greedy",
    "mcts:sims=8",
    "mcts(sims=4,c=2)",
    "az:model=uniform,sims=4",
    "az:model=resnet,sims=2,blocks=1,channels=8",
    "uci:nodes=1",
    "mcts:sims=999999999",
    "az:model=/etc/passwd",
    "uci:engine=/bin/sh,nodes=1",
    "mcts:",
    "mcts:sims=",
    "mcts:sims=[1,2]",
    ":",
    "az:model=pretrained,sims=2",
]
ROUTES = [
    "/",
    "/index.html",
    "/static/viewer.js",
    "/static/../server.py",
    "/api/games",
    "/api/game",
    "/api/agents",
    "/api/library",
    "/api/replay",
    "/api/open",
    "/api/play",
    "/api/play/1",
    "/api/play/1/move",
    "/api/play/1/step",
    "/api/play/1/close",
    "/api/play/x/move",
    "/api/play/99999999999999999999999",
    "/nothing",
]
TEXT = "()[],=:;/\\.-_ 0123456789abcdefghijklmnopqrstuvwxyz\u00e9\u2658\x00\n\"'"


def mutate(rng, text):
    text = list(text)
    for _ in range(rng.randrange(4)):
        where = rng.randrange(len(text) + 1)
        action = rng.randrange(3)
        if action == 0:
            text.insert(where, rng.choice(TEXT))
        elif action == 1 and where < len(text):
            del text[where]
        elif where < len(text):
            text[where] = rng.choice(TEXT)
    return "".join(text)


def value(rng, depth=0):
    """Any JSON value, most often a plausible one."""
    kind = rng.randrange(12)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, 1, -1, 2**31, 2**63, 10**30, rng.randrange(10)])
    if kind == 3:
        return rng.choice([0.5, 1e23, -0.0, 3.0])
    if kind == 4 and depth < 3:
        return [value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 5 and depth < 3:
        return {mutate(rng, "key"): value(rng, depth + 1) for _ in range(rng.randrange(3))}
    if kind == 6:
        return "x" * rng.choice([300, 5000])
    if kind == 7:
        return mutate(rng, rng.choice(SPECS))
    if kind == 8:
        return mutate(rng, rng.choice(AGENTS))
    return rng.choice(SPECS + AGENTS + ["d4", "a1", "e2e4", "pass", "/tmp", "."])


def body(rng):
    """A request body: a plausible object with broken fields, or not JSON at all."""
    kind = rng.randrange(10)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
    if kind == 1:
        return b"[" * rng.randrange(1, 30000)
    if kind == 2:
        return json.dumps(value(rng)).encode()
    fields = {
        "spec": rng.choice(SPECS),
        "agent": rng.choice(AGENTS),
        "seats": rng.choice([[0], [1], [], [0, 1]]),
        "seed": rng.randrange(100),
        "move": rng.choice(["d4", "a1", "e2e4"]),
        "path": rng.choice(["/tmp", "x"]),
    }
    if rng.random() < 0.5:  # else a plausible request, to reach the games' own checks
        for key in rng.sample(list(fields), rng.randrange(1, 3)):
            fields[key] = value(rng)
    return json.dumps(fields).encode()


def request(rng, port, game_id):
    """The bytes of one request (``game_id``: a game made lately), and the long texts it
    holds (which no answer may quote whole)."""
    method = rng.choice(["GET", "GET", "POST", "POST", "POST", "OPTIONS", "PUT", "FOO"])
    path = rng.choice(ROUTES).replace("/1", f"/{max(1, game_id - rng.randrange(3))}")
    if rng.random() < 0.3:
        path = "/" + mutate(rng, path).lstrip("/")
    if rng.random() < 0.4:
        path += "?" + "&".join(
            f"{k}={rng.choice(['0', '1', 'x', '-5', 'tailten', 'z' * 300])}"
            for k in rng.sample(["index", "ply", "spec", "token"], 2)
        )
    path = "".join(c if 32 < ord(c) < 127 else f"%{ord(c) & 0xFF:02X}" for c in path)
    headers = {"Host": f"127.0.0.1:{port}" if rng.random() < 0.9 else "evil.example"}
    if rng.random() < 0.9:
        headers["Authorization"] = f"token {TOKEN if rng.random() < 0.95 else 'guess'}"
    if rng.random() < 0.1:
        headers["Origin"] = rng.choice(["http://evil.example", f"http://127.0.0.1:{port}"])
    data = b""
    if method in ("POST", "PUT") or rng.random() < 0.05:
        data = body(rng)
        headers["Content-Type"] = "application/json" if rng.random() < 0.9 else "text/plain"
    length = str(len(data))
    if rng.random() < 0.05:
        length = rng.choice(["-1", "abc", str(len(data) // 2), ""])
    headers["Content-Length"] = length
    head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    longs = [t for t in data.decode(errors="ignore").split('"') + path.split("=") if len(t) > 200]
    return head.encode() + b"\r\n" + data, method, longs


def answer_of(port, raw):
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(raw)  # then read until the server closes (HTTP/1.0)
        chunks = []
        while chunk := connection.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz")
    server = make_server(
        Library(roots=[folder]), policy=AgentPolicy(max_sims=64, move_seconds=0.2), token=TOKEN
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_hostile_and_malformed_requests_are_answered_never_failed(server):
    port = server.server_address[1]
    rng = random.Random(SEED)
    deadline = time.monotonic() + SECONDS
    statuses, game_id = {}, 1
    while time.monotonic() < deadline:
        raw, method, longs = request(rng, port, game_id)
        answer = answer_of(port, raw)
        assert answer.startswith(b"HTTP/1.0 "), (raw[:300], answer[:300])
        status = int(answer[9:12])
        statuses[status] = statuses.get(status, 0) + 1
        known = method in ("GET", "POST", "OPTIONS")
        assert 200 <= status < 500 or (status == 501 and not known), (raw[:300], answer[:500])
        head, _, content = answer.partition(b"\r\n\r\n")
        if status == 200 and raw.startswith(b"POST /api/play "):
            game_id = json.loads(content)["id"]
        if status >= 400 and b"application/json" in head:
            message = json.loads(content)["error"]
            assert len(message) < 1000, (raw[:300], message[:300])
            assert not any(text in message for text in longs), (raw[:300], message[:300])
    assert sum(statuses.values()) > 50 and 200 in statuses and 403 in statuses, statuses
    assert game_id > 1, "no game was made"
    # Still answering: a server the fuzzing stalled would not answer at all, so the bound
    # leaves room for a machine flat out.
    start = time.monotonic()
    assert answer_of(
        port,
        f"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Authorization: token {TOKEN}\r\n\r\n".encode(),
    ).startswith(b"HTTP/1.0 200")
    assert time.monotonic() - start < 10
