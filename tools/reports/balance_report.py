#!/usr/bin/env python3
"""The runs behind docs/balance.md, and its tables and plots.

    PYTHONPATH=build/python .venv/bin/python tools/reports/balance_report.py run [--only NAME ...]
    PYTHONPATH=build/python .venv/bin/python tools/reports/balance_report.py summarize

The runs come from each game's balance studies (env/games/<game>/studies.json, read by
tools/lib/studies.py; games in the registry's order): its ladder, the games per run where the
game is slow, its further strengths, its rule sweeps and its skill-depth sweep
(balance_plan.py). `run` plays every job of the plan's queue that has no result yet (in
OUT or DATA), in order: each balance run is `knightgym balance ... --resume` into OUT/NAME,
so a stopped queue goes on where it stopped (within a run too), and "ladders" plays the
round robins that give each strength its Elo (random = 0) into OUT/ladders
(balance_runs.py).

`summarize` first copies every finished result from OUT into DATA (docs/balance/runs,
committed: a few hundred KB of JSON that hours of games produced), and the progress of
every unfinished run (NAME/balance.progress, which `run` takes back into OUT, so that a
run goes on in a fresh clone); then it prints the report's tables (Markdown) from DATA
alone (knightgym.balance_summary), or with --into REPORT puts each in place of REPORT's
table with the same columns (balance_splice.py), and draws its plots into DOCS. So the
report can be made again from the committed data without playing a game, and a later
session adds runs to it.

Each result records the networks that played it (their files and hashes). `stale` lists
the runs and ladders whose networks have been shipped anew since; `replay` moves them
(or the runs given with --only, for another reason given with --reason) into
DATA/superseded/, where the report's "old against new" section finds them, and plays
them again (balance_replay.py):

    PYTHONPATH=build/python .venv/bin/python tools/reports/balance_report.py replay

`run` and `commands` need no Python package of knightgym (the balance phase of tools/gpu/
plays the runs where only the command line is built), so the other commands import what
needs it when they start.
"""

import argparse
import sys

from balance_plan import plan_of
from balance_runs import archive, print_commands, run_queue


def summarize(args, plan):
    """The tables on standard output or, with --into, in place of the report's own."""
    from balance_replay import SUPERSEDED
    from balance_splice import splice
    from knightgym.balance_summary import summary

    archive(args.out, args.data, plan)
    text = summary(args.data, args.docs, plan.contents(SUPERSEDED))
    if not args.into:
        print(text, end="")
        return
    for header in splice(args.into, text):
        print(f"{args.into} has no table that begins like this one; place it by hand:\n{header}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["run", "summarize", "commands", "stale", "replay"])
    parser.add_argument("--build", default="build")
    parser.add_argument("--out", default="out/balance", help="where the runs play")
    parser.add_argument(
        "--data",
        default="docs/balance/runs",
        help="the results the report is made from (committed)",
    )
    parser.add_argument("--docs", default="docs/balance", help="where the plots go")
    parser.add_argument(
        "--into",
        help="summarize: put the tables into this report (docs/balance.md) in place of "
        "those with the same columns, rather than print them",
    )
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--device",
        help="run, commands: where the networks evaluate (cuda on a GPU machine; default: "
        "the CPU); the results name it among their players",
    )
    parser.add_argument(
        "--batch",
        type=int,
        help="run, commands: games batched per thread in the runs a network plays "
        "(default: the plan's); a GPU wants hundreds",
    )
    parser.add_argument(
        "--only",
        nargs="*",
        help="run only these jobs, in this order (replay: these, stale or not; a ladder "
        "as ladders/NAME)",
    )
    parser.add_argument(
        "--reason",
        default="its network was shipped anew",
        help="replay: why the results were played again (kept beside the old ones)",
    )
    args = parser.parse_args()
    plan = plan_of(args.build)
    jobs = plan.queue()
    if args.what == "replay":
        jobs = jobs + [f"ladders/{name}" for name in plan.ladders]
    if args.only and any(name not in jobs for name in args.only):
        parser.error(f"unknown run; the jobs are: {', '.join(jobs)}")
    if args.what == "run":
        run_queue(args, plan)
    elif args.what == "commands":
        print_commands(args, plan)
    elif args.what == "stale":
        from balance_replay import stale

        print("\n".join(stale(args.data, plan)))
    elif args.what == "replay":
        from balance_replay import replay

        replay(args, plan)
    else:
        summarize(args, plan)
    return 0


if __name__ == "__main__":
    sys.exit(main())
