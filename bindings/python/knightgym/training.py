"""Training from Python: `knightgym.training.train(...)` runs what `knightgym train` runs
(AlphaZero-style self-play, the learner, match rounds, checkpoints; docs/training.md) in
this process, with self-play here or, given `ray_address`, on a Ray cluster's actors
(knightgym.training_ray). Either way the run directory, its settings, `resume` and its
reports are the same.

    knightgym.training.train("tailten", "runs/t", minutes=30)
    knightgym.training.train("tailten", "runs/t", minutes=30, resume=True,
                             ray_address="10.0.0.1:6379")

`knightgym train --ray` keeps its run in the program, whose self-play travels through
knightgym.ray_relay; `python -m knightgym.training report OUT/summary.json` prints a run's
summary.
"""

import json
import os
import sys
import threading

from knightgym import _knightgym
from knightgym import _result_files as result_files
from knightgym.markdown import table

__all__ = ["markdown", "run_config", "train"]


def _settings_of(text, where):
    """{key: value} of settings text (a JSON object or key=value lines), read by the C++
    reader that `knightgym train --config` uses; ValueError names ``where``."""
    try:
        return dict(_knightgym.training_settings(text))
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None


def run_config(out):
    """The game (its canonical spec) and every setting ({name: typed value}) of the run in
    `out`, from its config.json, as `--resume` reads them. Raises ValueError where there is
    no run."""
    return _knightgym.run_config(os.fspath(out))


def _settings_json(settings, config):
    """The settings file's and the call's settings as one JSON object; a key in both is
    refused, as one given twice in a file is."""
    merged = {}
    parts = []
    if config is not None:
        with open(config) as file:
            parts.append(_settings_of(file.read(), os.fspath(config)))
    if settings:
        parts.append(
            _settings_of(settings, "settings") if isinstance(settings, str) else dict(settings)
        )
    for part in parts:
        for key, value in part.items():
            if key in merged:
                raise ValueError(f"training settings: '{key}' twice")
            merged[key] = value
    return json.dumps(merged)


def train(
    game,
    out,
    *,
    minutes=0,
    steps=0,
    settings=None,
    config=None,
    resume=False,
    device="cpu",
    ray_address=None,
    actors=None,
    verbose=True,
):
    """Trains `game` (a spec) into the run directory `out` until `minutes` of training or
    `steps` optimizer steps (whichever comes first; give at least one).

    settings: a dict of training settings, or their JSON object or "key=value" lines, over
    the game's defaults (`knightgym train GAME --print-config` lists them all); config: a
    settings file (the same). A resumed run (resume=True) takes its own settings from
    out/config.json.
    device: where the learner runs ("cpu", "cuda", "cuda:N").
    ray_address: None to play self-play here, or a Ray cluster's address ("HOST:PORT",
    "auto", "ray://HOST:PORT") to play it on `actors` actors there (None: one per CPU of
    the cluster).

    Returns {"finished": bool, "counters": {...}, "last_match_round": [...]}. Ctrl-C
    stops the run with a checkpoint (resume=True goes on) and is raised again. Raises
    ValueError for bad settings or a directory that holds another run, and
    ConnectionError for an address where no cluster answers, before anything is
    written."""
    from knightgym import _knightgym_torch

    if minutes <= 0 and steps <= 0:
        raise ValueError("give minutes or steps (or both): when the run stops")
    out = os.fspath(out)
    holds_run = _knightgym.holds_run(out)
    if resume and (settings or config):
        raise ValueError(
            f"resume reads the run's own {out}/config.json; settings and config are for new runs"
        )
    if resume and not holds_run:
        raise ValueError(f"nothing to resume in '{out}': no config.json")
    if not resume and holds_run:
        raise ValueError(
            f"'{out}' already holds a run: resume=True continues it, or choose another out"
        )
    if actors is not None and ray_address is None:
        raise ValueError("actors are a Ray run's: give ray_address too")
    if actors is not None and (
        not isinstance(actors, int) or isinstance(actors, bool) or actors < 1
    ):
        raise ValueError(f"actors must be a positive number, got {actors!r}")
    text = _settings_json(settings, config)
    stop = threading.Event()
    channel = None
    if ray_address is not None:  # connected before anything is written
        from knightgym.training_ray import RayChannel

        channel = RayChannel(ray_address, stop, actors)
    try:
        training = _knightgym_torch.Training(game, out, text, device, resume, verbose)
        if channel is not None:
            channel.start(training.game, training.settings)
            if verbose:
                print(
                    f"{training.game}: {training.parameters} parameters, {device}; "
                    f"{channel.actors} self-play actors on the Ray cluster at {ray_address}; "
                    f"run in {out}",
                    file=sys.stderr,
                )
        finished = _run(training, stop, minutes, steps, channel)
    finally:
        if channel is not None:
            channel.close()
    return {
        "finished": finished,
        "counters": training.counters,
        "last_match_round": training.last_match_round,
    }


def _run(training, stop, minutes, steps, channel):
    """training.run on a thread of its own, so that this one takes signals: Ctrl-C stops
    the run, waits for its checkpoint (a second Ctrl-C meanwhile waits on) and is raised
    again, with the training thread ended. Waited for by an Event, not Thread.join:
    Python 3.11's join, interrupted by Ctrl-C, marks a thread that still runs as stopped
    (its bpo-45274 fix), and a later join then returns at once."""
    result, failure = [], []
    ended = threading.Event()

    def target():
        try:
            result.append(training.run(minutes=minutes, steps=steps, channel=channel))
        except BaseException as error:  # noqa: B036 (handed to the caller's thread)
            failure.append(error)
        finally:
            ended.set()

    thread = threading.Thread(target=target, name="knightgym-training")
    thread.start()
    try:
        while not ended.wait(0.2):
            pass
    except KeyboardInterrupt:
        stop.set()
        training.stop()
        while True:
            try:
                ended.wait()
                break
            except KeyboardInterrupt:
                continue  # the run is stopping already: its checkpoint comes first
        raise
    finally:
        if ended.is_set():
            thread.join()
    if failure:
        raise failure[0]
    return result[0]


def markdown(summary):
    """A run's summary (OUT/summary.json, which a run writes when it returns; a dict or the
    file's path) as Markdown: its totals, its last match round, and where its files are."""
    if not isinstance(summary, dict):
        out = os.path.dirname(os.fspath(summary)) or "."
        summary = dict(result_files.load(summary), out=out)
    c = summary["counters"]
    lines = [
        f"{summary['game']}: {c['steps']} steps, {c['games']} self-play games, "
        f"{c['decisions']} decisions, {c['chunks']} chunks, {c['seconds'] / 60:.1f} min"
    ]
    if summary["last_match_round"]:
        names = ["opponent", "games", "wins", "draws", "losses", "score (95%)"]
        rows = [
            [
                e["opponent"],
                e["games"],
                e["wins"],
                e["draws"],
                e["losses"],
                f"{100 * e['score']:.1f}% +- {100 * e['half_width']:.1f}%",
            ]
            for e in summary["last_match_round"]
        ]
        lines += ["", table(names, rows)]
    out = summary.get("out", ".")
    lines += ["", f"model: {out}/model.pt (best: {out}/best.pt), metrics: {out}/metrics.csv"]
    return "\n".join(lines) + "\n"


def _main(argv):
    """`python -m knightgym.training report OUT/summary.json`: a run's summary as Markdown."""
    if len(argv) == 2 and argv[0] == "report":
        return result_files.report(
            "python -m knightgym.training report", "a training summary", argv[1:], markdown
        )
    print("usage: python -m knightgym.training report OUT/summary.json", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
