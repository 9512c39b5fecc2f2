"""Balance runs on a real Ray cluster of two nodes on this machine (ray.cluster_utils:
a head and a second raylet, each with its own worker processes): the figures equal the
one-machine run's, a worker killed in the middle of a task loses no games, the command
line's --ray gives the same balance.json, a client server that fails to start is tried
again, and bad addresses fail at once, writing nothing."""

import contextlib
import json
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

# One worker runs the clusters of this file, one after the other (make test's pytest-xdist).
pytestmark = pytest.mark.xdist_group("ray")

ray = pytest.importorskip("ray", reason="Ray comes from PyPI into .venv (tools/setup/make_venv.sh)")
psutil = pytest.importorskip("psutil")

import knightgym.balance  # noqa: E402
from local_ray import two_node_cluster  # noqa: E402

CLI = Path(knightgym.__file__).resolve().parent.parent.parent / "knightgym"

SWEPT = dict(
    agents="mcts:sims=16",
    games=240,
    seed=5,
    sprt={"a1": 0.05},
    check_every=60,
    sweep={"double_erase": ["optional", "off"]},
    progress=False,
)


def without_timings(result):
    """A balance result without what may differ between runs of the same games."""
    result = {k: v for k, v in result.items() if k not in ("seconds", "threads", "plots")}
    result["rule_sets"] = [
        {k: v for k, v in s.items() if k != "seconds"} for s in result["rule_sets"]
    ]
    return result


@pytest.fixture(scope="module")
def cluster():
    with pytest.MonkeyPatch.context() as env, two_node_cluster(env) as cluster:
        yield cluster


def test_a_cluster_run_equals_the_one_machine_run(cluster, tmp_path):
    here = knightgym.balance.run("knight_fight", threads=2, **SWEPT)
    there = knightgym.balance.run(
        "knight_fight", ray_address=cluster.address, out=tmp_path / "ray", plots=False, **SWEPT
    )
    assert not ray.is_initialized()  # run() connected, and disconnected at the end
    assert without_timings(there) == without_timings(here)
    # The sequential test stopped on the same look, with every figure to the last bit.
    assert [s["games"] for s in there["rule_sets"]] == [s["games"] for s in here["rule_sets"]]
    assert (
        json.loads((tmp_path / "ray" / "balance.json").read_text())["rule_sets"][0][
            "first_seat_advantage"
        ]
        == here["rule_sets"][0]["first_seat_advantage"]
    )

    # Batched chunks of two agents, over the two nodes.
    batched = dict(agents=["mcts:sims=8", "greedy"], games=64, batch=16, seed=2, progress=False)
    assert without_timings(
        knightgym.balance.run("tailten", ray_address=cluster.address, **batched)
    ) == without_timings(knightgym.balance.run("tailten", threads=2, **batched))


def test_a_run_through_rays_client_equals_the_one_machine_run(cluster, tmp_path):
    # A ray:// address: the driver is Ray's client (ray[client], grpcio), the games the
    # cluster's tasks.
    settings = dict(SWEPT, games=60, sprt=None, sweep={})
    here = knightgym.balance.run("knight_fight", threads=2, **settings)
    there = knightgym.balance.run(
        "knight_fight",
        ray_address=cluster.client_address,
        out=tmp_path / "client",
        plots=False,
        **settings,
    )
    assert not ray.is_initialized()
    assert without_timings(there) == without_timings(here)


def _balance_tasks_of_this_process():
    """The worker processes running a balance task among this process's descendants: the
    test's cluster's (this process started its raylets, which start the workers), never
    those of another Ray run on the machine."""
    tasks = []
    for process in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):  # it ended since it was listed
            if "".join(process.cmdline()[:1]).startswith("ray::play_chunks"):
                tasks.append(process)
    return tasks


def _kill_the_first_task(killed, finished):
    """SIGKILLs the first balance task of this process's cluster that shows up."""
    while not finished.is_set():
        for task in _balance_tasks_of_this_process():
            with contextlib.suppress(psutil.NoSuchProcess):  # it ended since it was listed
                task.kill()
                killed.append(task.pid)
                return
        time.sleep(0.02)


def test_the_killer_leaves_another_rays_tasks_alone():
    """A process that looks like a balance task (its argv[0]) but does not descend from
    this one, as another Ray run's would not, is left alone; one started here is killed."""
    look_alike = "exec -a ray::play_chunks sleep 60"
    # bash backgrounds it and exits: it is adopted outside this process's tree.
    started = subprocess.run(
        ["bash", "-c", f"({look_alike}) > /dev/null 2>&1 & echo $!"],
        capture_output=True,
        text=True,
        check=True,
    )
    stranger = psutil.Process(int(started.stdout))
    killed, finished = [], threading.Event()
    killer = threading.Thread(target=_kill_the_first_task, args=(killed, finished))
    killer.start()
    try:
        time.sleep(1)  # the killer looks through the processes many times
        assert killed == [] and stranger.is_running()
        own = subprocess.Popen(["bash", "-c", look_alike])
        killer.join(timeout=30)
        assert killed == [own.pid] and own.wait(timeout=30) == -signal.SIGKILL
    finally:
        finished.set()
        killer.join()
        stranger.kill()


@pytest.mark.parametrize(
    "failure",
    [
        "RuntimeError: Starting Ray client server failed. See ray_client_server_23000.err for "
        "detailed logs.",
        "Traceback (most recent call last): ... in start_specific_server ... "
        "psutil.ZombieProcess: PID still exists but it's a zombie (pid=15692)",
    ],
    ids=["start failed", "server gone at once"],
)
def test_a_client_server_that_fails_to_start_is_tried_again(cluster, monkeypatch, failure):
    # Ray's client server starts a server per ray:// driver, and that start can fail for a
    # moment; the connection is tried again (the failure injected, the cluster real), and
    # another failure is not.
    from knightgym.ray_cluster import connect

    real_init, calls = ray.init, []

    def init_failing_once(*args, **kwargs):
        calls.append(kwargs["address"])
        if len(calls) == 1:
            raise ConnectionError(f"Initialization failure from server: {failure}")
        return real_init(*args, **kwargs)

    monkeypatch.setattr(ray, "init", init_failing_once)
    assert connect(cluster.client_address)
    try:
        # The injected failure, then the attempt that connected; on a loaded machine the
        # real client server may fail to start too, and is tried again the same way.
        assert len(calls) >= 2 and set(calls) == {cluster.client_address}
        assert ray.cluster_resources()["CPU"] == 2
    finally:
        ray.shutdown()

    def init_refused(*args, **kwargs):
        calls.append(kwargs["address"])
        raise ConnectionError("something else")

    calls.clear()
    monkeypatch.setattr(ray, "init", init_refused)
    with pytest.raises(ConnectionError, match="something else"):
        connect(cluster.client_address)
    assert len(calls) == 1 and not ray.is_initialized()


def test_a_worker_killed_mid_run_loses_no_games(cluster):
    options = dict(agents="mcts:sims=64", games=160, seed=8, progress=False)
    killed, finished = [], threading.Event()
    killer = threading.Thread(target=_kill_the_first_task, args=(killed, finished))
    killer.start()
    try:
        there = knightgym.balance.run("knight_fight", ray_address=cluster.address, **options)
    finally:
        finished.set()
        killer.join()
    assert len(killed) == 1  # a task really died, and Ray ran it again
    assert not psutil.pid_exists(killed[0]) or psutil.Process(killed[0]).status() == "zombie"
    here = knightgym.balance.run("knight_fight", threads=2, **options)
    assert without_timings(there) == without_timings(here)
    assert there["rule_sets"][0]["games"] == 160


def test_the_command_line_runs_on_the_cluster(cluster, tmp_path):
    common = [
        "knight_fight",
        "--agents",
        "mcts:sims=8",
        "--games",
        "80",
        "--seed",
        "3",
        "--sweep",
        "mirror_on_moves=true,false",
        "--no-plots",
    ]
    # The driver finds out for itself whether the cluster wants a token (~/.ray/auth_token).
    subprocess.run(
        [str(CLI), "balance", *common, "--ray", cluster.address, "--out", str(tmp_path / "ray")],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [str(CLI), "balance", *common, "--threads", "2", "--out", str(tmp_path / "here")],
        check=True,
        capture_output=True,
    )
    there = json.loads((tmp_path / "ray" / "balance.json").read_text())
    here = json.loads((tmp_path / "here" / "balance.json").read_text())
    assert without_timings(there) == without_timings(here)
    assert (tmp_path / "ray" / "balance.md").read_text().startswith("# Balance")


@pytest.mark.parametrize(
    "address, error, message",
    [
        ("127.0.0.1:1", ConnectionError, "no Ray cluster answers at 127.0.0.1:1"),
        ("localhost", ValueError, "expected HOST:PORT"),
        ("localhost:99999", ValueError, "expected HOST:PORT"),
        ("", ValueError, "ray_address must be"),
        ("no-such-host.invalid:6379", ConnectionError, "no Ray cluster answers"),
    ],
)
def test_bad_addresses_fail_at_once_and_write_nothing(tmp_path, address, error, message):
    # The messages are knightgym's own: the address was refused before ray.init, which
    # would retry a dead address for minutes.
    with pytest.raises(error, match=message):
        knightgym.balance.run(
            "knight_fight",
            agents="random",
            games=10,
            ray_address=address,
            out=tmp_path / "out",
            progress=False,
        )
    assert not (tmp_path / "out").exists()
    assert not ray.is_initialized()


def test_bad_options_fail_before_connecting(tmp_path):
    # The address is dead too: the typo in the options is what gets reported.
    with pytest.raises(ValueError, match="no_such_key"):
        knightgym.balance.run(
            "knight_fight(no_such_key=1)",
            agents="random",
            games=10,
            ray_address="127.0.0.1:1",
            out=tmp_path / "out",
        )
    with pytest.raises(ValueError, match="batch"):
        knightgym.balance.run(
            "knight_fight",
            agents="random,greedy",
            games=10,
            batch=3,
            ray_address="127.0.0.1:1",
            out=tmp_path / "out",
        )
    assert not (tmp_path / "out").exists()


def test_the_command_line_refuses_a_dead_address(tmp_path):
    process = subprocess.run(
        [
            str(CLI),
            "balance",
            "knight_fight",
            "--agents",
            "random",
            "--games",
            "10",
            "--ray",
            "127.0.0.1:1",
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
    )
    assert process.returncode != 0
    assert "no Ray cluster answers at 127.0.0.1:1" in process.stderr
    assert not (tmp_path / "out").exists()
