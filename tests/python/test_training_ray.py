"""Training with self-play on a real Ray cluster of two nodes on this machine
(ray.cluster_utils: a head and a second raylet, one CPU each; the learner in this
process): two actors train a network that plays, and one actor trains the same network;
an actor killed with SIGKILL mid-run is restarted and the run ends with every chunk
counted once (the undisturbed run's counters and network); the learner killed with
SIGKILL goes on with --resume from its checkpoint's step; bad addresses fail at once,
writing nothing."""

import csv
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

# One worker runs the clusters of this file, one after the other (make test's pytest-xdist).
pytestmark = [pytest.mark.xdist_group("ray"), pytest.mark.needs_networks]

ray = pytest.importorskip("ray", reason="Ray comes from PyPI into .venv (tools/setup/make_venv.sh)")
psutil = pytest.importorskip("psutil")
torch = pytest.importorskip("torch")
import knightgym  # noqa: E402
import knightgym.training  # noqa: E402
from knightgym.training_report import read_metrics, write_report  # noqa: E402
from local_ray import plays_a_whole_game, two_node_cluster  # noqa: E402

CLI = Path(knightgym.__file__).resolve().parent.parent.parent / "knightgym"
GAME = "tailten"
# A chunk is 8 games (about 370 decisions); at ratio 1 a chunk is about 10 steps, so a
# run of STEPS takes about 8 chunks, and the actors' weights are stale by a few steps.
TINY = dict(
    blocks=1,
    channels=8,
    games=8,
    sims=4,
    batch=32,
    min_replay=64,
    ratio=1,
    match_seconds=0,
    match_games=4,
    match_sims=2,
    baselines="random",
    log_seconds=1,
    checkpoint_seconds=1,
    chunk_games=8,
    chunks_ahead=4,
    publish_steps=5,
)
STEPS = 80


@pytest.fixture(scope="module")
def cluster():
    with pytest.MonkeyPatch.context() as env, two_node_cluster(env) as cluster:
        yield cluster


def train(cluster, out, actors, **options):
    return knightgym.training.train(
        GAME,
        out,
        steps=STEPS,
        settings=TINY,
        ray_address=cluster.address,
        actors=actors,
        verbose=False,
        **options,
    )


@pytest.fixture(scope="module")
def two_actors(cluster, tmp_path_factory):
    out = tmp_path_factory.mktemp("ray_train") / "two"
    return out, train(cluster, out, actors=2)


def without_time(counters):
    return {k: v for k, v in counters.items() if k != "seconds"}


def assert_same_network(a, b):
    a, b = torch.jit.load(str(a)).state_dict(), torch.jit.load(str(b)).state_dict()
    assert a.keys() == b.keys()
    for name in a:
        assert torch.equal(a[name], b[name]), name


def metrics(out):
    with open(out / "metrics.csv") as file:
        return list(csv.DictReader(file))


def test_two_actors_train_a_network_that_plays(two_actors):
    out, result = two_actors
    counters = result["counters"]
    assert result["finished"] and counters["steps"] == STEPS
    assert counters["chunks"] >= 4
    assert counters["games"] == counters["chunks"] * TINY["chunk_games"]
    rows = metrics(out)
    assert int(rows[-1]["step"]) == STEPS and int(rows[-1]["decisions"]) == counters["decisions"]
    # Both actors played, and weights published every 5 steps went out behind the learner.
    assert any(
        len(r["actor_pos_per_s"].split(";")) == 2
        and all(float(x) > 0 for x in r["actor_pos_per_s"].split(";"))
        for r in rows
    )
    assert max(int(r["staleness_max"] or 0) for r in rows) > 0
    assert all(float(r["learner_steps_per_s"]) >= 0 for r in rows)

    # The report reads a cluster's metrics: one rate per actor.
    text = write_report(str(out), str(out.parent / "report.md"))
    assert "- 2 self-play actors, each " in text
    assert all(len(v) == 2 for v in read_metrics(out / "metrics.csv")["actor_pos_per_s"] if v)

    plays_a_whole_game(out / "model.pt", GAME)


def test_one_actor_trains_the_same_network(cluster, two_actors, tmp_path):
    # Which weights play which chunk follows from the settings alone, not the actors.
    out, two = two_actors
    one = train(cluster, tmp_path / "one", actors=1)
    assert without_time(one["counters"]) == without_time(two["counters"])
    assert_same_network(tmp_path / "one" / "model.pt", out / "model.pt")


def playing_actors():
    """This cluster's actors playing a chunk now (Ray titles them by the method)."""
    found = []
    for process in psutil.Process().children(recursive=True):
        try:
            cmdline = process.cmdline()
        except psutil.Error:
            continue
        if cmdline and cmdline[0].startswith("ray::SelfPlayActor.play"):
            found.append(process.pid)
    return found


def playing_on(node):
    """The actors of `playing_actors` that run on NODE (its raylet started them)."""
    raylet = node.all_processes["raylet"][0].process.pid
    found = []
    for pid in playing_actors():
        try:
            if psutil.Process(pid).ppid() == raylet:
                found.append(pid)
        except psutil.Error:
            continue
    return found


def until_done(action):
    """A thread that calls action() until it returns True or the run ends (set the event
    returned)."""
    finished = threading.Event()

    def wait():
        while not finished.is_set():
            if action():
                return
            time.sleep(0.02)

    thread = threading.Thread(target=wait)
    thread.start()
    return thread, finished


def once_a_row_is_logged(out, action):
    """until_done(action), from when the run in `out` has logged a row (taken its first
    chunk)."""
    return until_done(
        lambda: (out / "metrics.csv").exists() and len(metrics(out)) >= 1 and action()
    )


def test_an_actor_killed_mid_run_is_restarted_and_counts_no_chunk_twice(
    cluster, two_actors, tmp_path, capfd
):
    out, killed = tmp_path / "killed", []

    def kill_an_actor_in_the_middle_of_a_chunk():
        for pid in playing_actors()[:1]:
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
        return bool(killed)

    killer, finished = once_a_row_is_logged(out, kill_an_actor_in_the_middle_of_a_chunk)
    try:
        result = train(cluster, out, actors=2)
    finally:
        finished.set()
        killer.join()
    assert len(killed) == 1
    assert "self-play actor" in capfd.readouterr().err  # the loss was seen, and survived
    # Every chunk taken once: the undisturbed run's counters and network, to the bit.
    reference, undisturbed = two_actors
    assert result["finished"]
    assert without_time(result["counters"]) == without_time(undisturbed["counters"])
    assert_same_network(out / "model.pt", reference / "model.pt")


def test_a_node_that_leaves_loses_only_the_games_in_flight_on_it(two_actors, tmp_path, capfd):
    # A cluster of its own, whose second node goes while its actor plays its first chunk
    # (one the run needs, so that the loss is certain to be seen: a chunk asked for ahead
    # may go unneeded); that actor cannot come back (the head's one CPU is taken), so the
    # other actor plays every chunk from then on.
    with pytest.MonkeyPatch.context() as env, two_node_cluster(env) as cluster:
        second = cluster.list_all_nodes()[1]
        out = tmp_path / "run"

        def remove_the_second_node_mid_chunk():
            if not playing_on(second):
                return False
            cluster.remove_node(second, allow_graceful=False)
            return True

        remover, finished = until_done(remove_the_second_node_mid_chunk)
        try:
            result = train(cluster, out, actors=2)
        finally:
            finished.set()
            remover.join()
    assert "self-play actor" in capfd.readouterr().err
    reference, undisturbed = two_actors
    assert without_time(result["counters"]) == without_time(undisturbed["counters"])
    assert_same_network(out / "model.pt", reference / "model.pt")


# Two runs one after the other, each under its own bound: longer than a test's usual limit.
@pytest.mark.timeout(600)
def test_the_learner_killed_goes_on_with_resume_from_its_checkpoint(cluster, tmp_path):
    run, config = tmp_path / "run", tmp_path / "tiny.cfg"
    config.write_text("".join(f"{k}={v}\n" for k, v in TINY.items()))
    command = [
        str(CLI),
        "train",
        GAME,
        "--out",
        str(run),
        "--ray",
        cluster.address,
        "--actors",
        "2",
    ]
    learner = subprocess.Popen(
        [*command, "--steps", "100000", "--config", str(config)],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not list((run / "checkpoints").glob("step-*.ckpt")):
            assert learner.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        time.sleep(1.5)  # a checkpoint or two more, and rows past them
    finally:
        os.killpg(learner.pid, signal.SIGKILL)  # the program (its Ray relay reads the end)
        learner.wait()
    newest = max(int(p.stem.split("-")[1]) for p in (run / "checkpoints").glob("step-*.ckpt"))
    resumed = subprocess.run(
        [*command, "--steps", str(newest + 30), "--resume"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"(step {newest})" in resumed.stderr
    assert f"{newest + 30} steps" in resumed.stdout
    steps = [int(r["step"]) for r in metrics(run)]
    assert steps == sorted(steps) and steps[-1] == newest + 30


@pytest.mark.parametrize(
    "address, error, message",
    [
        ("127.0.0.1:1", ConnectionError, "no Ray cluster answers at 127.0.0.1:1"),
        ("localhost", ValueError, "expected HOST:PORT"),
    ],
)
def test_bad_addresses_fail_at_once_and_write_nothing(tmp_path, address, error, message):
    with pytest.raises(error, match=message):
        knightgym.training.train(GAME, tmp_path / "out", steps=10, ray_address=address)
    assert not (tmp_path / "out").exists()
    process = subprocess.run(
        [
            str(CLI),
            "train",
            GAME,
            "--out",
            str(tmp_path / "out"),
            "--steps",
            "10",
            "--ray",
            address,
        ],
        capture_output=True,
        text=True,
    )
    assert process.returncode == 1 and message in process.stderr
    assert not (tmp_path / "out").exists()


def test_actors_need_a_cluster(tmp_path):
    with pytest.raises(ValueError, match="actors are a Ray run's"):
        knightgym.training.train(GAME, tmp_path / "out", steps=10, actors=2)
    process = subprocess.run(
        [str(CLI), "train", GAME, "--out", str(tmp_path / "out"), "--steps", "10", "--actors", "2"],
        capture_output=True,
        text=True,
    )
    assert process.returncode == 1 and "--actors N is for runs on a Ray cluster" in process.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("answer", [None, b"220 an SMTP server, say\r\n"], ids=["silent", "other"])
def test_something_else_listening_is_no_cluster_and_said_so_at_once(tmp_path, answer):
    """A port where something other than Ray's head listens (silent, or answering in
    another protocol) is refused within the connect timeout, not tried for minutes."""
    import socket
    import threading

    listener = socket.create_server(("127.0.0.1", 0))
    held = []

    def serve():
        connection, _ = listener.accept()
        held.append(connection)
        if answer:
            connection.sendall(answer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    address = f"127.0.0.1:{listener.getsockname()[1]}"
    try:
        with pytest.raises(ConnectionError, match=f"{address} is no Ray cluster"):
            knightgym.training.train(GAME, tmp_path / "out", steps=10, ray_address=address)
    finally:
        thread.join(timeout=10)
        for connection in held:
            connection.close()
        listener.close()
    assert not (tmp_path / "out").exists()
