"""Playing the balance report's plan (tools/reports/balance_plan.py) and keeping what it
played: each run is `knightgym balance ... --resume` into OUT/NAME and each round robin
`knightgym ladder` into OUT/ladders, in the plan's order, skipping what OUT or DATA (the
committed docs/balance/runs) already holds, so that a stopped queue goes on where it
stopped (within a run too). archive() copies what OUT finished into DATA, with the
progress of every run under way, which restore_progress() takes back into OUT.

This module needs no Python package of knightgym: `run` plays where only the command line
is built (the balance phase of tools/gpu/). So it reads the few words of agent specs that
it must (where a network evaluates) as the command line writes them, rather than through
knightgym._specs.
"""

import json
import shutil
import subprocess
import time
from pathlib import Path

PROGRESS_BYTES = 1 << 24  # a run's progress is a few KB per rule set


def on_device(agents, device):
    """The agents (a comma-separated list whose params are commas too) with each network's
    search (az) evaluating on DEVICE."""
    words, network = [], False
    for word in agents.split(","):
        if ":" in word or "=" not in word:  # the next agent begins
            words += ["device=" + device] if network else []
            network = word.startswith("az:")
        words.append(word)
    return ",".join(words + (["device=" + device] if network else []))


def command_of(args, name, run):
    """The command that plays a run; with --device, its networks evaluate there and, with
    --batch, that many games are batched per thread (in the runs a network plays; the
    run's chunk stays where it holds that batch, and otherwise the batch's games start
    together)."""
    network = "az:" in run.agents
    agents = on_device(run.agents, args.device) if args.device else run.agents
    batch = args.batch if args.batch and network else run.batch
    chunk = run.chunk if batch and run.chunk >= batch else 0
    command = [
        str(Path(args.build) / "knightgym"),
        "balance",
        run.game,
        "--agents",
        agents,
        "--games",
        str(run.games),
        "--seed",
        "1",
        "--out",
        str(Path(args.out) / name),
        "--resume",
    ]
    command += ["--threads", str(args.threads)] + (["--batch", str(batch)] if batch else [])
    command += ["--chunk", str(chunk)] if chunk else []
    if run.opening_plies:
        command += ["--opening-plies", str(run.opening_plies)]
    for sweep in run.sweeps:
        command += ["--sweep", sweep]
    if run.sprt:
        command += ["--sprt", run.sprt]
    if run.record:
        command += ["--record", str(run.record)]
    return command


def finished(args, result):
    """Whether a result (a path under OUT and DATA) is in either: the report's data are
    committed, so a new machine plays only the runs they lack."""
    return (Path(args.out) / result).exists() or (Path(args.data) / result).exists()


def run_queue(args, plan, names=None):
    """Plays the jobs NAMES (default: --only, or the plan's whole queue) that have no
    result yet, in order."""
    for name in names or args.only or plan.queue():
        if name == "ladders":
            run_ladders(args, plan)
        elif not finished(args, Path(name) / "balance.json"):
            restore_progress(args, name)
            run_logged(name, command_of(args, name, plan.runs[name]))


def restore_progress(args, name):
    """Puts a run's committed progress (DATA/NAME/balance.progress) into OUT, where its
    --resume goes on from it, unless OUT holds progress of its own, or the progress's
    networks evaluated on another device (their games differ in the last bits: such a run
    goes on only where it began, or starts afresh)."""
    saved = Path(args.data) / name / "balance.progress"
    target = Path(args.out) / name / "balance.progress"
    if not saved.exists() or target.exists():
        return
    device, played_on = args.device or "cpu", network_device(saved)
    if played_on != device:
        print(
            f"{name}: its committed progress was played with networks on {played_on}; "
            f"it starts afresh on {device}",
            flush=True,
        )
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    copy_atomically(saved, target)


def network_device(progress):
    """Where the networks of a run's saved progress evaluate: its players' device=...
    (cpu, their default, where no network plays)."""
    with open(progress, "rb") as file:
        text = file.read(PROGRESS_BYTES + 1)
    try:
        if len(text) > PROGRESS_BYTES:
            raise ValueError(f"over {PROGRESS_BYTES} bytes")
        agents = json.loads(text)["run"]["agents"]
        specs = [spec for spec in agents if isinstance(spec, str)]
    except (ValueError, KeyError, TypeError) as error:
        raise SystemExit(f"{progress}: not a run's progress ({error!r})") from error
    devices = {
        word[len("device=") :]
        for spec in specs
        for word in spec.split(",")
        if word.startswith("device=")
    }
    return devices.pop() if len(devices) == 1 else "cpu"


def ladder_command(build, out, name, ladder):
    game, agents, games = ladder
    return [
        str(Path(build) / "knightgym"),
        "ladder",
        game,
        "--agents",
        ",".join(agents),
        "--games",
        str(games),
        "--batch",
        str(games),
        "--seed",
        "1",
        "--json",
        str(Path(out) / "ladders" / f"{name}.json"),
    ]


def print_commands(args, plan):
    """The command of every job, as `run` plays it (for the report)."""
    for name in args.only or plan.queue():
        commands = (
            [
                ladder_command(args.build, args.out, ladder, plan.ladders[ladder])
                for ladder in plan.ladders
            ]
            if name == "ladders"
            else [command_of(args, name, plan.runs[name])]
        )
        for command in commands:
            print(" ".join(f"'{word}'" if "(" in word else word for word in command))


def run_logged(name, command):
    print("$", " ".join(command), flush=True)
    start = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    print(f"{name}: {time.monotonic() - start:.0f} s", flush=True)


def run_ladders(args, plan):
    """The plan's round robins, batched so that a network's games share its calls."""
    (Path(args.out) / "ladders").mkdir(parents=True, exist_ok=True)
    for name, ladder in plan.ladders.items():
        if not finished(args, Path("ladders") / f"{name}.json"):
            run_logged(f"ladder {name}", ladder_command(args.build, args.out, name, ladder))


def copy_atomically(source, target):
    temporary = target.with_suffix(".tmp")
    shutil.copyfile(source, temporary)
    temporary.replace(target)


def archive(out, data, plan):
    """Copies every finished balance.json, game record and ladder of OUT into DATA (the
    same layout), and the progress of every run under way, which a finished run's
    replaces."""
    out, data = Path(out), Path(data)
    if out.resolve() == data.resolve():
        return
    sources = [out / name / "balance.json" for name in plan.runs]
    sources += [out / name / "records.jsonl" for name, run in plan.runs.items() if run.record]
    sources += [out / "ladders" / f"{name}.json" for name in plan.ladders]
    sources += [
        out / name / "balance.progress"
        for name in plan.runs
        if not (out / name / "balance.json").exists()
    ]
    for source in sources:
        if source.exists():
            target = data / source.relative_to(out)
            target.parent.mkdir(parents=True, exist_ok=True)
            copy_atomically(source, target)
    for name in plan.runs:
        if (data / name / "balance.json").exists():
            (data / name / "balance.progress").unlink(missing_ok=True)
