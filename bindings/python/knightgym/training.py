"""Training from Python: `knightgym.training.train(...)` runs what `knightgym train` runs
(AlphaZero-style self-play, the learner, evaluations, checkpoints; docs/training.md) in
this process, with self-play here or, given `ray_address`, on a Ray cluster's actors
(knightgym.training_ray). Either way the run directory, its settings, `resume` and its
reports are the same.

    knightgym.training.train("tailten", "runs/t", minutes=30)
    knightgym.training.train("tailten", "runs/t", minutes=30, resume=True,
                             ray_address="10.0.0.1:6379")

`python -m knightgym.training run OPTIONS_JSON` is what `knightgym train --ray` runs.
"""

import json
import os
import signal
import sys
import threading

__all__ = ["train"]


def _settings_text(settings, config):
    lines = []
    if config is not None:
        with open(config) as file:
            lines.append(file.read())
    if settings:
        if isinstance(settings, str):
            lines.append(settings)
        else:
            lines.extend(f"{key}={value}" for key, value in settings.items())
    return "\n".join(lines)


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

    settings: a dict of training settings or "key=value" lines, over the game's defaults
    (`knightgym train GAME --print-config` lists them all); config: a settings file. A
    resumed run (resume=True) takes its own settings from out/config.txt.
    device: where the learner runs ("cpu", "cuda", "cuda:N").
    ray_address: None to play self-play here, or a Ray cluster's address ("HOST:PORT",
    "auto", "ray://HOST:PORT") to play it on `actors` actors there (None: one per CPU of
    the cluster).

    Returns {"finished": bool, "counters": {...}, "evaluation": [...]}. Ctrl-C stops the
    run with a checkpoint (resume=True goes on) and is raised again. Raises ValueError for
    bad settings or a directory that holds another run, and ConnectionError for an
    address where no cluster answers, before anything is written."""
    from knightgym import _knightgym_torch

    if minutes <= 0 and steps <= 0:
        raise ValueError("give minutes or steps (or both): when the run stops")
    out = os.fspath(out)
    if resume and (settings or config):
        raise ValueError(
            f"resume reads the run's own {out}/config.txt; settings and config are for new runs"
        )
    if resume and not os.path.exists(os.path.join(out, "config.txt")):
        raise ValueError(f"nothing to resume in '{out}': no config.txt")
    if not resume and os.path.exists(os.path.join(out, "config.txt")):
        raise ValueError(
            f"'{out}' already holds a run: resume=True continues it, or choose another out"
        )
    if actors is not None and ray_address is None:
        raise ValueError("actors are a Ray run's: give ray_address too")
    if actors is not None and (
        not isinstance(actors, int) or isinstance(actors, bool) or actors < 1
    ):
        raise ValueError(f"actors must be a positive number, got {actors!r}")
    text = _settings_text(settings, config)
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
    return {"finished": finished, "counters": training.counters, "evaluation": training.evaluation}


def _run(training, stop, minutes, steps, channel):
    """training.run on a thread of its own, so that this one takes signals: Ctrl-C stops
    the run, waits for its checkpoint and is raised again."""
    result, failure = [], []

    def target():
        try:
            result.append(training.run(minutes=minutes, steps=steps, channel=channel))
        except BaseException as error:  # noqa: B036 (handed to the caller's thread)
            failure.append(error)

    thread = threading.Thread(target=target, name="knightgym-training")
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.2)
    except KeyboardInterrupt:
        stop.set()
        training.stop()
        thread.join()
        raise
    if failure:
        raise failure[0]
    return result[0]


def _print_summary(result, out):
    c = result["counters"]
    print(
        f"{c['steps']} steps, {c['games']} self-play games, {c['decisions']} decisions, "
        f"{c['chunks']} chunks, {c['seconds'] / 60:.1f} min"
    )
    if result["evaluation"]:
        print("\n| opponent | games | wins | draws | losses | score (95%) |")
        print("|---|---|---|---|---|---|")
        for e in result["evaluation"]:
            print(
                f"| {e['opponent']} | {e['games']} | {e['wins']} | {e['draws']} | "
                f"{e['losses']} | {100 * e['score']:.1f}% +- {100 * e['half_width']:.1f}% |"
            )
    print(f"\nmodel: {out}/model.pt (best: {out}/best.pt), metrics: {out}/metrics.csv")


def _main(argv):
    """`python -m knightgym.training run OPTIONS_JSON`: what `knightgym train --ray` runs,
    the whole run from the JSON of train()'s keyword arguments (and game and out).
    SIGINT and SIGTERM stop it with a checkpoint, exiting with 128 + the signal."""
    if len(argv) != 2 or argv[0] != "run":
        print("usage: python -m knightgym.training run OPTIONS_JSON", file=sys.stderr)
        return 2
    options = json.loads(argv[1])
    received = []

    def on_signal(signum, frame):
        received.append(signum)
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        result = train(**options)
    except (ValueError, ConnectionError, RuntimeError) as error:
        print(f"knightgym train: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        signum = received[0] if received else signal.SIGINT
        print(
            f"stopped by signal {signum}: checkpoint written; --resume continues", file=sys.stderr
        )
        return 128 + signum
    _print_summary(result, options["out"])
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
