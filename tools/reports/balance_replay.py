"""The balance report's results played by networks shipped anew since: found (stale),
set aside into DATA/superseded/ with why they are played again (supersede), where the
report's "old against new" table finds them, and played again in the plan's order
(replay). Every result records the networks that played it (their files and hashes), so
the stale ones are found, not remembered.
"""

import datetime
import json
import shutil
from pathlib import Path

import knightgym.balance
from balance_runs import run_queue
from knightgym._outputs import write_text
from knightgym.balance_summary import load

# The folder of DATA holding the results set aside, in DATA's layout (NAME/, ladders/).
SUPERSEDED = "superseded"


def recorded_networks_differ(recorded, now):
    """Whether a result's record of its networks differs from the networks its agents
    load now. A result from before networks were recorded differs where any load one."""
    return bool(now) if recorded is None else recorded != now


def stale(data, plan):
    """The runs and ladders of DATA whose networks have been shipped anew since they were
    played: [run name, or "ladders/NAME"]."""
    names = []
    for name, run in plan.runs.items():
        result = load(data, name)
        if result:
            now = knightgym.balance.networks(run.game, run.agents, sweep=list(run.sweeps))
            if recorded_networks_differ(result.get("networks"), now):
                names.append(name)
    for name, (spec, agents, _) in plan.ladders.items():
        path = Path(data) / "ladders" / f"{name}.json"
        if path.exists():
            recorded = json.loads(path.read_text()).get("networks")
            if recorded_networks_differ(recorded, knightgym.balance.networks(spec, agents)):
                names.append(f"ladders/{name}")
    return names


def supersede(args, names, reason):
    """Moves each result (a run's folder, or ladders/NAME's JSON) of DATA into
    DATA/superseded/, replacing what an earlier replay put there, with why it was played
    again (replaced.json), and deletes the finished result in OUT."""
    data, out = Path(args.data), Path(args.out)
    for name in names:
        is_ladder = name.startswith("ladders/")
        source = data / (f"{name}.json" if is_ladder else name)
        if not source.exists():
            continue
        target = data / SUPERSEDED / source.relative_to(data)
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_dir():
            shutil.rmtree(target)
        target.unlink(missing_ok=True)
        source.replace(target)
        if not is_ladder:
            note = {"reason": reason, "replaced_on": datetime.date.today().isoformat()}
            write_text(target / "replaced.json", json.dumps(note, indent=1) + "\n")
            (target / "balance.progress").unlink(missing_ok=True)
        # The finished result in OUT too, with the progress a finished run keeps (a run
        # under way keeps its progress: one played by the old network is refused on
        # resume, by name).
        finished_files = [out / name / "balance.json", out / name / "records.jsonl"]
        if finished_files[0].exists():
            finished_files.append(out / name / "balance.progress")
        for played in [out / f"{name}.json"] if is_ladder else finished_files:
            played.unlink(missing_ok=True)


def replay(args, plan):
    """Sets aside the stale results (or those of --only) and plays them again."""
    names = args.only or stale(args.data, plan)
    if not names:
        print("every result was played by the networks shipped now")
        return
    supersede(args, names, args.reason)
    wanted = set(names)
    if any(name.startswith("ladders/") for name in names):
        wanted.add("ladders")
    run_queue(args, plan, [name for name in plan.queue() if name in wanted])
