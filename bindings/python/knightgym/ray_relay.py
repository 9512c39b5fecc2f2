"""python -m knightgym.ray_relay: the Ray side of `knightgym train --ray` and
`knightgym balance --ray`.

The program keeps the run (its flags, options, checks, learner and files, as on one
machine) and starts this module as its child, which carries the run's work to and from a
Ray cluster and does nothing else: one hand-over between the languages
(programs/cli/ray_relay.h). They speak in frames over this process's standard input and
output (util/python_process.h: a kind letter, the payload's length as 8 bytes
little-endian, the payload); anything printed here, Ray's forwarded logs included, goes
to standard error.

The program's first frame starts the relay:
  S  JSON {"run": "train", "address", "actors" (null: one per CPU), "game", "settings"}:
     self-play actors for a training run (knightgym.training_ray.RayChannel); answered
     with S, JSON {"actors": N}
  S  JSON {"run": "balance", "address", "options"} (BalanceChunkPlayer's arguments):
     tasks for a balance run (knightgym.balance_ray.RayRunner); answered with S, JSON
     {"cpus": N}
Then, for a training run:
  P  version (8 bytes, signed little-endian), then the weights' bytes: publish
  R  a chunk's number (8 bytes): request it
  G  a chunk's number (8 bytes): answered with C, the chunk's bytes
  A  seconds (a little-endian double): answered with A, the actors' rates (a JSON list)
and for a balance run:
  W  JSON {"rule_set", "first", "count"}: those chunks played; answered with a T per
     chunk (its serialized tally), in chunk order, then D
Any failure is answered with E (what went wrong, as text), and the relay exits with
status 1. The end of its input, or SIGTERM, ends the actors and the connection.
"""

import json
import os
import signal
import struct
import sys
import threading

# As the program bounds what it reads (PythonChild::kMostFrameBytes).
MOST_FRAME_BYTES = 1 << 30


def _read_exactly(stream, size):
    data = stream.read(size)
    if data is None or len(data) < size:
        return None
    return data


def _read_frame(stream):
    header = _read_exactly(stream, 9)
    if header is None:
        return None
    kind, length = header[:1], struct.unpack("<Q", header[1:])[0]
    if length > MOST_FRAME_BYTES:
        raise ValueError(f"a frame of {length} bytes, more than {MOST_FRAME_BYTES}")
    payload = _read_exactly(stream, length) if length else b""
    if payload is None:
        return None
    return kind, payload


def _write_frame(stream, kind, payload):
    stream.write(kind + struct.pack("<Q", len(payload)) + payload)
    stream.flush()


def _number(payload, form="<q"):
    return struct.unpack(form, payload[:8])[0]


def _serve_training(start, frames_in, frames_out, resources):
    from knightgym.training_ray import RayChannel

    channel = RayChannel(start["address"], threading.Event(), start["actors"])
    resources.append(channel)
    _take_sigterm()
    channel.start(start["game"], start["settings"])
    _write_frame(frames_out, b"S", json.dumps({"actors": channel.actors}).encode())
    while (frame := _read_frame(frames_in)) is not None:
        kind, payload = frame
        if kind == b"P":
            channel.publish(_number(payload), payload[8:])
        elif kind == b"R":
            channel.request(_number(payload))
        elif kind == b"G":
            _write_frame(frames_out, b"C", channel.receive(_number(payload)))
        elif kind == b"A":
            rates = channel.actor_rates(_number(payload, "<d"))
            _write_frame(frames_out, b"A", json.dumps(rates).encode())
        else:
            raise ValueError(f"a frame of kind {kind!r} in a training run")


def _serve_balance(start, frames_in, frames_out, resources):
    from knightgym.balance_ray import RayRunner

    runner = RayRunner(start["address"], start["options"])
    resources.append(runner)
    _take_sigterm()
    _write_frame(frames_out, b"S", json.dumps({"cpus": runner.cpus}).encode())
    while (frame := _read_frame(frames_in)) is not None:
        kind, payload = frame
        if kind != b"W":
            raise ValueError(f"a frame of kind {kind!r} in a balance run")
        window = json.loads(payload)
        runner(
            window["rule_set"],
            window["first"],
            window["count"],
            lambda tally: _write_frame(frames_out, b"T", tally),
        )
        _write_frame(frames_out, b"D", b"")


def serve(frames_in, frames_out):
    """Answers the program's frames until its input ends; returns the exit status."""
    resources = []  # what close() ends: the channel or the runner, once made
    try:
        first = _read_frame(frames_in)
        if first is None or first[0] != b"S":
            raise ValueError("the program's first frame must start the relay (S)")
        start = json.loads(first[1])
        runs = {"train": _serve_training, "balance": _serve_balance}
        if start.get("run") not in runs:
            raise ValueError(f"a run of kind {start.get('run')!r}: expected train or balance")
        runs[start["run"]](start, frames_in, frames_out, resources)
        return 0
    except Exception as error:  # noqa: BLE001 (every failure goes back to the program)
        try:
            _write_frame(frames_out, b"E", (str(error) or type(error).__name__).encode())
        except OSError:
            pass  # the program has gone: nobody to tell
        return 1
    finally:
        for resource in resources:
            resource.close()


def _take_sigterm():
    """SIGTERM ends the run through serve's `finally`; set after Ray's connection, whose
    own handler (installed by ray.init) only prints."""
    signal.signal(signal.SIGTERM, _ended)


def _ended(signum, frame):
    raise SystemExit(128 + signum)


def _main():
    # The frames keep the original standard output; every print goes to standard error.
    sys.stdout.flush()
    frames_out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    signal.signal(signal.SIGTERM, _ended)
    return serve(sys.stdin.buffer, frames_out)


if __name__ == "__main__":
    sys.exit(_main())
