"""knightgym view as a hostile web page and a careless or hostile client would use it: every
request that does not come from the page the server served is refused (a foreign Origin
or Host, DNS rebinding, no token, a preflight), a request names no program or file to
load, files open only from the folders the command line named, and no request can stall
or exhaust the server (huge bodies and specs, unbounded searches, silent connections,
the same file opened a thousand times): through all of it, another request is answered
(keeps_answering)."""

import contextlib
import http.client
import json
import pathlib
import socket
import subprocess
import threading
import time
import types

import knightgym
import pytest
from knightgym.viewer import AgentPolicy, Library
from knightgym.viewer.app import MOST_GAMES
from knightgym.viewer.server import make_server

CLI = pathlib.Path(knightgym.__file__).resolve().parent.parent.parent / "knightgym"
TOKEN = "the-launch-token"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """An allowed folder with one records file (two Tailten games)."""
    path = tmp_path_factory.mktemp("allowed")
    subprocess.run(
        [
            str(CLI),
            "play",
            "tailten(max_turns=20)",
            "--agents",
            "random",
            "--games",
            "2",
            "--record",
            str(path / "games.jsonl"),
        ],
        check=True,
        capture_output=True,
    )
    return path


@contextlib.contextmanager
def serving(folder, **policy):
    server = make_server(Library(roots=[folder]), policy=AgentPolicy(**policy), token=TOKEN)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def server(folder):
    with serving(folder, move_seconds=2.0) as running:
        yield running


def request(server, method, path, body=None, headers=None, token=TOKEN, timeout=30):
    """(status, headers, parsed JSON or text) of one request."""
    port = server.server_address[1]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    sent = {"Host": f"127.0.0.1:{port}"}
    if body is not None:
        sent["Content-Type"] = "application/json"
        body = body if isinstance(body, bytes) else json.dumps(body).encode()
    if token:
        sent["Authorization"] = f"token {token}"
    sent.update(headers or {})
    connection.request(method, path, body=body, headers=sent)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    try:
        data = json.loads(data)
    except ValueError:
        data = data.decode(errors="replace")
    return response.status, dict(response.getheaders()), data


# How long the server may take to answer while under attack. A server that stops
# answering never does, so the bound is loose: room for a SYN that a full accept queue
# dropped (Linux resends it after 1, 3 and 7 s) and for both cores flat out.
ANSWER_SECONDS = 10


@contextlib.contextmanager
def keeps_answering(server, within=ANSWER_SECONDS):
    """Asks for the library every 0.1 s while the body runs, and at least once; fails, in
    the test's thread, if a request failed or took `within` seconds or more."""
    stop, failures = threading.Event(), []

    def probe():
        try:
            while True:
                start = time.monotonic()
                status, _, _ = request(server, "GET", "/api/library", timeout=within)
                assert status == 200
                took = time.monotonic() - start
                assert took < within, f"an answer took {took:.1f} s"
                if stop.wait(0.1):
                    return
        except Exception as error:  # raised again in the test's thread
            failures.append(error)

    thread = threading.Thread(target=probe)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()  # each request ends within its timeout
    if failures:
        raise failures[0]


def test_the_probe_fails_on_a_listener_that_never_answers():
    # The kernel takes the connection into the listener's queue; nothing reads the request.
    with socket.create_server(("127.0.0.1", 0)) as silent:
        listener = types.SimpleNamespace(server_address=silent.getsockname())
        with pytest.raises(TimeoutError), keeps_answering(listener, within=1):
            pass


# ---- Only its user's page drives it ----


def test_a_request_without_the_token_is_refused(server):
    for token in [None, "wrong", TOKEN + "x"]:
        status, _, body = request(server, "GET", "/api/library", token=token)
        assert status == 403 and "token" in body["error"]
    status, _, body = request(server, "POST", "/api/play", {"spec": "tailten"}, token=None)
    assert status == 403
    assert request(server, "GET", "/", token=None)[0] == 403


def test_the_token_in_the_printed_address_becomes_a_strict_cookie(server):
    port = server.server_address[1]
    assert server.url == f"http://127.0.0.1:{port}/?token={TOKEN}"
    status, headers, _ = request(server, "GET", f"/?token={TOKEN}", token=None)
    assert status == 303 and headers["Location"] == "/"
    cookie = headers["Set-Cookie"]
    assert cookie.startswith(f"knightgym-view-{port}={TOKEN};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    jar = {"Cookie": f"knightgym-view-{port}={TOKEN}"}
    assert request(server, "GET", "/api/library", headers=jar, token=None)[0] == 200
    assert request(server, "GET", "/", headers=jar, token=None)[0] == 200
    wrong = {"Cookie": f"knightgym-view-{port + 1}={TOKEN}"}
    assert request(server, "GET", "/api/library", headers=wrong, token=None)[0] == 403
    assert request(server, "GET", "/?token=guess", token=None)[0] == 403


def test_a_cross_origin_request_is_refused_even_with_the_token(server):
    port = server.server_address[1]
    for origin in [
        "http://evil.example",
        "null",
        f"http://127.0.0.1:{port + 1}",
        f"https://127.0.0.1:{port}",
    ]:
        status, headers, body = request(
            server, "POST", "/api/play", {"spec": "tailten"}, headers={"Origin": origin}
        )
        assert status == 403 and "Origin" in body["error"]
        assert "Access-Control-Allow-Origin" not in headers
    status, _, _ = request(
        server, "POST", "/api/play/1/close", {}, headers={"Sec-Fetch-Site": "cross-site"}
    )
    assert status == 403
    # The page's own origin, by any of the server's names, is answered.
    for name in ["127.0.0.1", "localhost"]:
        status, _, _ = request(
            server,
            "GET",
            "/api/games",
            headers={"Origin": f"http://{name}:{port}", "Host": f"{name}:{port}"},
        )
        assert status == 200


def test_a_foreign_host_is_refused_against_dns_rebinding(server):
    port = server.server_address[1]
    for host in [
        f"evil.example:{port}",
        "evil.example",
        f"127.0.0.1:{port + 1}",
        f"127.0.0.1.evil.example:{port}",
        "",
    ]:
        status, _, body = request(server, "GET", "/api/games", headers={"Host": host})
        assert status == 403 and "Host" in body["error"]


def test_a_form_post_and_a_preflight_open_nothing(server):
    # A cross-site form can send text/plain without a preflight: not JSON to the viewer.
    status, _, body = request(
        server, "POST", "/api/play", b'{"spec": "tailten"}', headers={"Content-Type": "text/plain"}
    )
    assert status == 415
    status, headers, _ = request(
        server,
        "OPTIONS",
        "/api/play",
        token=None,
        headers={"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"},
    )
    assert status == 403 and not any(k.startswith("Access-Control") for k in headers)
    status, headers, _ = request(server, "OPTIONS", "/api/play", token=None)
    assert status == 204 and not any(k.startswith("Access-Control") for k in headers)


# ---- No program, model or file that the command line did not name ----


def test_an_agent_spec_names_no_program_and_no_model_file(server, tmp_path):
    marker = tmp_path / "ran"
    program = tmp_path / "engine.sh"
    program.write_text(f"#!/bin/sh\ntouch {marker}\n")
    program.chmod(0o755)
    for agent, named in [
        (f"uci:engine={program},nodes=1", "engine="),
        (f"uci(engine=[{program}],nodes=1)", "engine="),
        ("uci:engine=sh,nodes=1", "engine="),
        ("az:model=/etc/passwd", "model="),
        (f"az:model={tmp_path}/net.pt,sims=2", "model="),
    ]:
        status, _, body = request(
            server, "POST", "/api/play", {"spec": "knightmate", "agent": agent, "seats": [1]}
        )
        assert status == 400, agent
        assert named in body["error"] and "not one this viewer was started with" in body["error"]
    assert not marker.exists()
    # What loads nothing, or what the command line named, plays.
    for agent in ["az:model=uniform,sims=4", "greedy", "mcts:sims=8"]:
        status, _, view = request(
            server, "POST", "/api/play", {"spec": "tailten", "agent": agent, "seats": [1]}
        )
        assert status == 200 and len(view["moves"]) == 1, agent


def test_models_and_engines_are_named_on_the_command_line(folder, tmp_path):
    net = tmp_path / "net.pt"
    policy = AgentPolicy(models={"mine": str(net)}, engines={"fsf": "/usr/games/fairy-stockfish"})
    assert policy.resolve("az:model=mine,sims=3") == f"az(model={net},sims=3)"
    assert policy.resolve("uci:engine=fsf,nodes=5").startswith(
        "uci(engine=/usr/games/fairy-stockfish,nodes=5,movetime="
    )
    assert policy.resolve("random") == "random"
    with pytest.raises(ValueError, match="built-in name"):
        AgentPolicy(models={"pretrained": "x.pt"})
    with pytest.raises(ValueError, match="more than this viewer allows"):
        policy.resolve("az:model=resnet,channels=4096,blocks=100")


def test_files_open_only_from_the_folders_named_and_outside_reveal_nothing(
    server, folder, tmp_path
):
    status, _, body = request(server, "POST", "/api/open", {"path": str(folder / "games.jsonl")})
    assert status == 200 and len(body["games"]) == 2
    outside = tmp_path / "secret.json"
    outside.write_text('{"spec": "the secret"}\n')
    (folder / "link.jsonl").symlink_to(outside)
    # A run folder whose records.jsonl leads out of the folders named.
    (folder / "run").mkdir()
    (folder / "run" / "records.jsonl").symlink_to(outside)
    answers = set()
    for path in [
        str(outside),
        str(tmp_path / "missing.jsonl"),
        "/etc/passwd",
        "/etc",
        str(folder / ".." / "elsewhere.jsonl"),
        str(folder / "link.jsonl"),
        str(folder / "run"),
    ]:
        status, _, body = request(server, "POST", "/api/open", {"path": path})
        assert status == 403 and "secret" not in body["error"]
        answers.add(body["error"].split(":", 1)[1])
    assert len(answers) == 1  # one answer, whether or not the file exists


def test_opening_one_file_a_thousand_times_keeps_its_games_once(server, folder):
    with keeps_answering(server):
        for _ in range(1000):
            status, _, body = request(
                server, "POST", "/api/open", {"path": str(folder / "games.jsonl")}
            )
            assert status == 200
    assert len(body["games"]) == 2


# ---- Bounded work per request ----


def test_a_50_mb_body_is_refused_unread(server):
    port = server.server_address[1]
    body = b"[" * (50 * 2**20)
    with keeps_answering(server):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:

            def send():  # the whole body, as a client would, until the server hangs up
                try:
                    raw.sendall(
                        f"POST /api/play HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                        f"Authorization: token {TOKEN}\r\n"
                        f"Content-Type: application/json\r\n"
                        f"Content-Length: {len(body)}\r\n\r\n".encode()
                        + body
                    )
                except OSError:
                    pass

            sender = threading.Thread(target=send)
            sender.start()
            answer = b""
            try:  # the answer, then the end or a reset (the body is left unread)
                while chunk := raw.recv(65536):
                    answer += chunk
                raw.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sender.join(timeout=30)
            assert not sender.is_alive()
    answer = answer.decode()
    assert answer.startswith("HTTP/1.0 413") and len(answer) < 2000
    assert "at most 65536 bytes" in answer


def test_bad_lengths_deep_json_and_huge_seeds_are_refused_not_failed(server):
    port = server.server_address[1]
    for length in ["abc", "-5"]:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
            raw.sendall(
                f"POST /api/play HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                f"Authorization: token {TOKEN}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {length}\r\n\r\n".encode()
            )
            assert raw.recv(4096).startswith(b"HTTP/1.0 400")
    status, _, body = request(server, "POST", "/api/play", b"[" * 30000 + b"]" * 30000)
    assert status == 400 and "nested too deep" in body["error"]
    for seed in [1e23, 10**23, -1, True, "3"]:
        status, _, body = request(server, "POST", "/api/play", {"spec": "tailten", "seed": seed})
        assert status == 400 and "seed must be" in body["error"], seed
    status, _, body = request(
        server, "POST", "/api/play", b'{"spec": "tailten", "seed": ' + b"7" * 5000 + b"}"
    )
    assert status == 400 and "a number too long" in body["error"]


def test_a_100000_parameter_spec_is_refused_at_once_and_not_echoed(server):
    spec = "tailten(" + ",".join(f"p{i}=1" for i in range(100_000)) + ")"
    with keeps_answering(server):
        status, _, body = request(server, "POST", "/api/play", {"spec": spec, "seats": [0]})
        assert status == 413 and len(body["error"]) < 200
        status, _, body = request(server, "GET", "/api/game?spec=" + spec[:60000])
        assert status in (400, 413) and len(json.dumps(body)) < 1000
    # Within the text limit, the parser still refuses a long spec quickly and shortly.
    spec = "tailten(" + ",".join(f"p{i}=1" for i in range(500)) + ")"
    assert len(spec) < 4096
    status, _, body = request(server, "POST", "/api/play", {"spec": spec, "seats": [0]})
    assert status == 400 and len(body["error"]) < 400


def test_an_unbounded_search_is_refused_or_cut_to_the_move_time(server, folder):
    status, _, body = request(
        server,
        "POST",
        "/api/play",
        {"spec": "tailten", "agent": "mcts:sims=100000000", "seats": [1]},
    )
    assert status == 400 and "--max-sims" in body["error"]
    with serving(folder, max_sims=100_000_000, move_seconds=0.5) as generous:
        start = time.monotonic()
        status, _, view = request(
            generous,
            "POST",
            "/api/play",
            {"spec": "tailten", "agent": "mcts:sims=100000000", "seats": [1]},
        )
        assert status == 200 and len(view["moves"]) == 1
        # Uncut, 10^8 simulations take many minutes; the bound leaves room for a busy machine.
        assert time.monotonic() - start < 30


def test_a_search_whose_client_goes_is_cancelled(folder):
    # A minute's search may build a tree of gigabytes: the budget is raised to allow it.
    with serving(folder, max_sims=100_000_000, move_seconds=60, memory_mb=1 << 20) as slow:
        port = slow.server_address[1]
        with keeps_answering(slow):
            body = json.dumps(
                {"spec": "tailten", "agent": "mcts:sims=100000000", "seats": []}
            ).encode()
            with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
                raw.sendall(
                    f"POST /api/play HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                    f"Authorization: token {TOKEN}\r\nContent-Type: application/json\r\n"
                    f"Content-Length: {len(body)}\r\n\r\n".encode()
                    + body
                )
                # The game is made, with no people: nothing searches yet.
                assert raw.makefile("rb").readline().startswith(b"HTTP/1.0 200")
            # The step's search, which the client leaves, is the one to cancel.
            with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
                raw.sendall(
                    f"POST /api/play/1/step HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                    f"Authorization: token {TOKEN}\r\nContent-Type: application/json\r\n"
                    f"Content-Length: 2\r\n\r\n{{}}".encode()
                )
                time.sleep(0.5)
            deadline = time.monotonic() + 30  # half the minute the search would take
            while request(slow, "GET", "/api/play/1")[0] != 410:
                assert time.monotonic() < deadline, "the search went on after its client left"
                time.sleep(0.1)


def test_closing_a_game_and_dropping_the_oldest_end_their_games(server):
    ids = []
    for _ in range(MOST_GAMES + 2):
        status, _, view = request(
            server, "POST", "/api/play", {"spec": "tailten", "agent": "random", "seats": [0]}
        )
        ids.append(view["id"])
    assert request(server, "GET", f"/api/play/{ids[0]}")[0] == 404
    assert request(server, "GET", f"/api/play/{ids[-1]}")[0] == 200
    assert request(server, "POST", f"/api/play/{ids[-1]}/close", {})[0] == 200
    assert request(server, "GET", f"/api/play/{ids[-1]}")[0] == 404
    assert request(server, "POST", f"/api/play/{ids[-1]}/move", {"move": "a1"})[0] == 404


def test_200_silent_connections_do_not_stop_the_server(server):
    port = server.server_address[1]
    silent = []
    with keeps_answering(server):
        for i in range(200):
            connection = socket.create_connection(("127.0.0.1", port), timeout=10)
            if i % 2:  # half send headers and promise a body that never comes
                connection.sendall(
                    f"POST /api/play HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                    f"Authorization: token {TOKEN}\r\n"
                    "Content-Type: application/json\r\n"
                    "Content-Length: 100\r\n\r\n{".encode()
                )
            silent.append(connection)
        time.sleep(1.5)
    for connection in silent:
        connection.close()


def test_300_trickling_connections_do_not_lock_the_user_out(server):
    """A local process that opens more connections than the server serves at once and
    sends each a header byte every second: the user's requests are still answered (the
    connection that waited longest for its request makes room), and a trickle ends at
    the whole request's deadline however often it sends."""
    port = server.server_address[1]
    trickling = []
    for _ in range(300):
        connection = socket.create_connection(("127.0.0.1", port), timeout=10)
        connection.sendall(b"G")
        trickling.append(connection)
    stop = threading.Event()

    def trickle():
        while not stop.wait(1.0):
            for connection in trickling:
                with contextlib.suppress(OSError):
                    connection.sendall(b"E")

    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    try:
        for _ in range(3):
            status, _, body = request(server, "GET", "/api/games", timeout=ANSWER_SECONDS)
            assert status == 200 and body["games"]
            time.sleep(0.5)
    finally:
        stop.set()
        thread.join()
        for connection in trickling:
            connection.close()


@pytest.mark.needs_networks
def test_the_games_kept_stay_within_the_memory_budget():
    # Games of the biggest network a request may ask for (agent_policy.CAPS), under a
    # budget of two of them: the oldest close to make room, and the process grows by
    # about two networks, not six.
    from knightgym.viewer.agent_policy import AgentPolicy
    from knightgym.viewer.app import Viewer
    from knightgym.viewer.sessions import Library, ViewerError

    def resident_mb():
        return int(pathlib.Path("/proc/self/statm").read_text().split()[1]) * 4096 >> 20

    big = "az:model=resnet,blocks=20,channels=256,sims=8"
    viewer = Viewer(Library(roots=[]), AgentPolicy(memory_mb=700))
    viewer.new_game({"spec": "tailten", "agent": "az:model=resnet,blocks=1,channels=8"})
    before = resident_mb()
    ids = [viewer.new_game({"spec": "knight_fight", "agent": big})[0] for _ in range(6)]
    grown = resident_mb() - before
    assert sorted(viewer.games) == ids[-2:]
    assert sum(game.memory_bytes for game in viewer.games.values()) <= 700 << 20
    assert 200 < grown < 1000, f"the process grew by {grown} MB"
    with pytest.raises(ViewerError, match="is more than this viewer allows"):
        viewer.new_game({"spec": "knight_fight", "agent": "az:model=resnet,channels=512"})
    assert sorted(viewer.games) == ids[-2:] and viewer.reserved_bytes == 0
    viewer.close_all()
    # A game that alone would take more than the budget is refused, the others kept.
    small = Viewer(Library(roots=[]), AgentPolicy(memory_mb=200))
    kept, _ = small.new_game({"spec": "tailten", "agent": "mcts:sims=10"})
    with pytest.raises(ViewerError, match=r"about 287 MB, more than .* \(200 MB; .*--memory-mb"):
        small.new_game({"spec": "knight_fight", "agent": big})
    assert list(small.games) == [kept] and small.reserved_bytes == 0
