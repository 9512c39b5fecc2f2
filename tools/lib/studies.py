#!/usr/bin/env python3
"""Each game's study settings, read from its folder: env/games/<game>/studies.json holds
what the tools run on the game (the balance report's ladder, strengths and rule sweeps;
the strength ladders and the networks' matches; the throughput runs, the docs' pictures,
OpenSpiel's comparison, the fuzz seeds; whether `make run` trains it), and
env/games/<game>/recipes/NAME.txt (and NAME.teach) the training recipes of its shipped
networks. A game without studies.json has none of these studies (Nim, of the test tree).
Games come in the registry's order (`knightgym list --names`). Every key is optional:

    main_job        true: `make run` (tools/demo/main_job.py) trains the first such game, with
                    its recipe recipes/GAME.txt
    balance         tools/reports/balance_report.py, docs/balance.md:
      ladder          the round robin rating its strengths: name (the ladder's and its
                      JSON's), spec (the game spec), games (per pair)
      games           games per run where 2000 (4000 for the network) do not suit the
                      game on two cores, by level: medium (MCTS at 64, the most its
                      sequential test may use), strong (MCTS at 256), net64 (the network)
      strengths       more strengths across strength, after the five levels: level (the
                      run is GAME_LEVEL), agents, opening_plies
      example         the level whose agents play the recorded example game (net64)
      sweeps          rule sweeps: title (the report's), run (GAME_RUN, weak MCTS), sweep
                      (--sweep KEY=V1,V2 strings), games, sprt (one_sided, two_sided or
                      none), plots (of knightgym.balance.plot, besides the table), and
                      at_strength: the same sweep again, its run, agents (the strongest
                      MCTS the sweep affords on two cores), games, sprt and plots;
                      with_network: again with the game's network (rules=any), its run,
                      games, plots and a narrower sweep where the game's networks do not
                      cover every rule set
      skill           the skill-depth run (GAME_skill): sweep, games, and to_the_top:
                      the run up to the strongest player (GAME_skill_top: games, batch,
                      a narrower sweep, agents other than random, MCTS at 400 and the
                      network)
    throughput      tools/reports/balance_throughput.py networks: [{spec, agents, games}]
    pictures        tools/reports/doc_pictures.py: starts (more specs whose start is drawn),
                    opponent (the search its network's example game is played against)
    openspiel       tools/experiments/openspiel_vs_mcts/openspiel_vs_mcts.py: spec (the game
                    as it is compared)
    coverage        tools/reports/coverage_study.py: spec (the game whose random players play its
                    simulation study; the first game that sets it)
    strength        docs/strength.md: ladders (tools/reports/strength_ladders.sh: name, spec,
                    games per pair, extra_agents beside the searches); targets
                    (tools/reports/strength_networks.sh: file, spec, agents, games_divisor of
                    TARGET); networks (its gauntlets: name, spec, gauntlet_games_divisor
                    and time_games_divisor of LADDER, extra_agents beside the field)
    fuzz            tools/ci/fuzz_seeds.py: the game's own seeds of a fuzz target, by the
                    target's name (spec, spec_time, balance; a seed that is a list of
                    lines is those lines joined)

    tools/lib/studies.py games [--with KEY.PATH]
    tools/lib/studies.py get GAME KEY.PATH [FIELD ...]

`games` prints the games with studies (with KEY.PATH: those whose studies set it, not
false or empty), one a line. `get` prints a value: a text or number as it is, a list of
them one a line, anything else as JSON; with FIELDs, the value is a list of objects and
each prints as one line of its FIELDs' values, tab-separated (a missing field empty: put
optional fields last). A path's parts are keys, or indices into lists
(`strength.ladders.0.name`). Exits 1 where the path is not there.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "env" / "games"


def registered(build=None):
    """The registered games in the registry's order: knightgym.games() where the Python
    module is on the path, else `BUILD/knightgym list --names` (BUILD: build/)."""
    try:
        import knightgym
    except ImportError:
        cli = Path(build or ROOT / "build") / "knightgym"
        try:
            listing = subprocess.run(
                [str(cli), "list", "--names"], check=True, capture_output=True, text=True
            )
        except (OSError, subprocess.CalledProcessError) as error:
            raise RuntimeError(
                f"the games' order needs the knightgym module or {cli} ({error})"
            ) from error
        return listing.stdout.split()
    return list(knightgym.games())


def of(game):
    """The studies of a game (a name, not a spec): its studies.json, or {} without one."""
    path = GAMES / game / "studies.json"
    return json.loads(path.read_text()) if path.exists() else {}


def lookup(value, path):
    """The value at a dotted path (keys, or indices into lists); KeyError if not there."""
    for part in path.split(".") if path else []:
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            raise KeyError(path)
    return value


def get(game, path, default=KeyError):
    """A game's study setting at a dotted path; `default` where it is not there (raises
    KeyError without one)."""
    try:
        return lookup(of(game), path)
    except KeyError:
        if default is KeyError:
            raise
        return default


def games(key=None, build=None):
    """The registered games that have studies (where `key`, a dotted path, is given: whose
    value there is set, neither false nor empty), in the registry's order."""
    chosen = []
    for game in registered(build):
        studies = of(game)
        try:
            value = lookup(studies, key or "")
        except KeyError:
            continue
        if studies and value not in (False, None, "", [], {}):
            chosen.append(game)
    return chosen


def recipe(name):
    """The settings file of a training recipe, env/games/<game>/recipes/NAME.txt (its
    teacher, where it has one, is NAME.teach beside it)."""
    found = sorted(GAMES.glob(f"*/recipes/{name}.txt"))
    if len(found) != 1:
        raise FileNotFoundError(f"no recipe {name} (env/games/*/recipes/{name}.txt)")
    return found[0]


def recipes():
    """Every training recipe's settings file, by game folder and name."""
    return sorted(GAMES.glob("*/recipes/*.txt"))


def text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else json.dumps(value)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", help="the build whose knightgym lists the games (build/)")
    commands = parser.add_subparsers(dest="command", required=True)
    listing = commands.add_parser("games", help="the games with studies, in registry order")
    listing.add_argument("--with", dest="key", help="only those holding this KEY.PATH")
    reading = commands.add_parser("get", help="a game's setting at KEY.PATH")
    reading.add_argument("game")
    reading.add_argument("path")
    reading.add_argument("fields", nargs="*", help="of each object of a list: these")
    args = parser.parse_args()
    if args.command == "games":
        try:
            chosen = games(args.key, args.build)
        except RuntimeError as error:
            print(f"studies.py: {error}", file=sys.stderr)
            return 1
        for game in chosen:
            print(game)
        return 0
    try:
        value = get(args.game, args.path)
        if args.fields:
            for row in value:
                print("\t".join(text(row.get(field, "")) for field in args.fields))
        elif isinstance(value, list) and not any(isinstance(v, (list, dict)) for v in value):
            for item in value:
                print(text(item))
        else:
            print(text(value))
    except (KeyError, AttributeError, TypeError):
        print(f"studies.py: {args.game} has no {args.path} of that form", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
