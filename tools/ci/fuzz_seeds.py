#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (tests/fuzz/corpus/NAME/) from what the
tests already use: the conformance specs (for the spec parser's time too), the golden
renders' serialized states, the FENs of the C++ tests, the UCI scripts of the engine's
tests, agent specs, the shipped networks' training settings (env/games/*/recipes/),
teacher shards of the golden states, the games' studies (JSON), balance progress files
round the C++ tests' tally, and metrics files; and each game's own seeds of a target,
its studies' `fuzz` (env/games/<game>/studies.json: more specs, balance strings). Each
seed is a file named by its content's hash; the corpus is exactly what this writes (a
seed no longer made is removed), and --check, which a test runs, says what differs
without writing.

    tools/ci/fuzz_seeds.py [--check]
"""

import hashlib
import json
import re
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))  # tools/lib: studies
import studies  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "fuzz" / "corpus"
FEN = re.compile(
    r'"([rnbqkmpRNBQKMP1-8]+(?:/[rnbqkmpRNBQKMP1-8]+){7}(?: [wb] [KQkq-]+ [a-h1-8-]+ '
    r'\d+ \d+)?)"'
)


def conformance_specs():
    """Every game's conformance specs (tests/cpp/env/games/<game>/conformance_specs.txt)."""
    specs = []
    for path in sorted((ROOT / "tests/cpp/env/games").glob("*/conformance_specs.txt")):
        lines = path.read_text().splitlines()
        specs += [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    return specs


def golden_states():
    """(spec, serialized state) of every state of the render golden files."""
    states = []
    for spec in conformance_specs():
        name = re.sub(
            r"[^A-Za-z0-9_=.+\-]",
            "-",
            spec.replace("(", "__")
            .replace(",", "__")
            .replace(")", "")
            .replace("[", "")
            .replace("]", ""),
        )
        text = (ROOT / "tests" / "golden" / "render" / f"{name}.txt").read_text()
        states += [
            (spec, line[len("serialized: ") :])
            for line in text.splitlines()
            if line.startswith("serialized: ")
        ]
    return states


def teacher_shards():
    """Shards of the golden states (training/teacher/teacher_shard.h), written here from
    the format's description: two players, each decision the whole policy on action 0; of
    format 2 (the game's rules, the shard's own or named) and, as written before it,
    format 1."""

    def text(value):
        data = value.encode()
        return struct.pack("<I", len(data)) + data

    by_spec = {}
    for spec, state in golden_states():
        by_spec.setdefault(spec, []).append(state)
    shards = []
    for number, (spec, states) in enumerate(list(by_spec.items())[:6]):
        form = 1 if number == 0 else 2
        body = b"KGTEACH1" + struct.pack("<I", form) + text(spec) + text("mcts:sims=4")
        body += struct.pack("<III", 2, 100, 1)
        body += struct.pack("<qQ", 0, 7)
        if form == 2:
            body += text(spec if number % 2 else "")
        body += struct.pack("<B", 0) + struct.pack("<ff", 1.0, -1.0)
        body += struct.pack("<I", len(states))
        for state in states:
            body += text(state) + struct.pack("<fI", 0.25, 1) + struct.pack("<if", 0, 1.0)
        digest = 0xCBF29CE484222325
        for byte in body:
            digest = ((digest ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
        shards.append(body + struct.pack("<Q", digest))
    return shards


def tally_json(games):
    """A balance tally (training/balance/tally.h) of `games` two-player games between two
    agents, each won by the first seat, as RuleSetTally::write_json writes it."""
    blocks = games // 2

    def sums(count, value):
        return {"count": count, "sum": value * count, "squares": value * count}

    return {
        "players": 2,
        "block_games": 2,
        "games": games,
        "blocks": blocks,
        "decisive": games,
        "natural_draws": 0,
        "truncated": 0,
        "truncated_draws": 0,
        "seats": [
            {
                "wins": games,
                "draws": 0,
                "losses": 0,
                "return_sum": float(games),
                "ranks": [games, 0],
            },
            {
                "wins": 0,
                "draws": 0,
                "losses": games,
                "return_sum": -float(games),
                "ranks": [0, games],
            },
        ],
        "game_advantage": sums(games, 1.0),
        "block_advantage": sums(blocks, 1.0),
        "lengths": [[40, games]],
        "agents": [
            {
                "games": games,
                "wins": blocks,
                "draws": 0,
                "losses": blocks,
                "block_score": sums(blocks, 0.5),
            }
            for _ in range(2)
        ],
        "points": [0.0, float(blocks), float(blocks), 0.0],
        "pentanomial": [0, 0, blocks, 0, 0],
    }


def balance_progress():
    """Progress files (training/balance/progress_file.h) after their run's identity line, and
    a tally alone."""
    identity = json.dumps({"game": "a game", "agents": ["mcts:sims=4"], "seed": 1})
    progress = {
        "format": "knightgym-balance-progress",
        "version": 2,
        "run": json.loads(identity),
        "rule_sets": [{"chunks_done": 2, "seconds": 1.5, "tally": tally_json(4)}],
    }
    return [
        f"{identity}\n{json.dumps(progress)}\n",
        f"{identity}\n{json.dumps(tally_json(2))}\n",
    ]


def metrics_files():
    """A metrics.csv as a run writes it (a header, then a row a period, some columns
    empty), and the same with its last row cut short, as a kill leaves it."""
    header = "step,samples,games,seconds,policy_loss,value_loss,score_vs_best,actor_pos_per_s\n"
    rows = [
        f"{160 * i},{40960 * i},{12 * i},{10.5 * i:.1f},{1.6 - 0.01 * i:.4f},0.2181,"
        f"{'0.55' if i % 5 == 0 else ''},{'312.0;298.5' if i % 2 else ''}\n"
        for i in range(1, 21)
    ]
    whole = header + "".join(rows)
    return [whole, whole[:-12]]


def game_seeds(target):
    """Every game's own seeds of a fuzz target (its studies' fuzz.TARGET; a seed written as
    a list of lines is those lines joined), in the registry's order."""
    seeds = []
    for game in studies.games(f"fuzz.{target}"):
        for seed in studies.get(game, f"fuzz.{target}"):
            seeds.append(seed if isinstance(seed, str) else "\n".join(seed))
    return seeds


def test_fens():
    fens = set()
    for path in (ROOT / "tests" / "cpp").rglob("*.cc"):
        fens.update(FEN.findall(path.read_text()))
    return sorted(fens)


SEEDS = {
    "spec": lambda: conformance_specs() + game_seeds("spec"),
    "spec_time": lambda: (
        conformance_specs()
        + game_seeds("spec_time")
        + [
            "g(a=[[x],[y,[z]]],b= c ,d=[ e ])",
            "g(a=1,a=2)",
            "g(a=[1,2)",
            "g(,)",
            "g(" + "x" * 200,
            "mcts:sims=4,c=2",
        ]
    ),
    "state": lambda: [f"{spec}\n{state}" for spec, state in golden_states()],
    "move_text": lambda: [
        "\x00\nc1\nj10\npass",
        "\x01\x05\x07\ne2e4\ne1f3\ne7e8q\ne1g1",
        "\x02\x01\x02\ne6\nreserve\nstop",
        "\x03\x04\nb2-c4\nl12-off",
        "\x04\x09\nd2-e4",
        "\x05\x11\x12\nd4\ne6",
    ],
    "fen": lambda: [f"{fen}\ne2e4 e7e5 e1f3" for fen in test_fens()],
    "uci": lambda: [
        "uci\nisready\nucinewgame\nposition startpos moves e2e4 e7e5\ngo nodes 50\n",
        "position fen R6k/5p2/6p1/8/8/8/8/K7 b - - 0 1\ngo\n",
        "go infinite\nisready\nstop\ngo movetime 10\nstop\nquit\n",
        "position startpos moves e2e4\ngo wtime 100 btime 3000 winc 0 binc 0 movestogo 20\n",
        "position startpos moves e2e5\nposition fen bad\ngo nodes many searchmoves e2e4\n"
        "frobnicate\n",
    ],
    "agent_spec": lambda: [
        "random",
        "greedy",
        "mcts:sims=4",
        "mcts(sims=4,c=2,rollouts=2)",
        "mcts:sims=4,solve=false",
        "az:sims=4,search=puct",
        "az:sims=4,model=uniform",
        "uci:nodes=10",
    ],
    # The recipes (key=value lines), and settings as a JSON object.
    "train_config": lambda: (
        [path.read_text() for path in studies.recipes()]
        + [
            '{"sims": 8, "search": "puct", "baselines": ["random", "mcts:sims=10"], '
            '"augment": false, "lr": 1e-3}'
        ]
    ),
    "teacher_shard": teacher_shards,
    "balance": lambda: game_seeds("balance"),
    "json": lambda: (
        [path.read_text() for path in sorted((ROOT / "env/games").glob("*/studies.json"))]
        + ['[1e400, -0.0, "\\u00e9\\ud83d\\ude00", {"": null}, [[[]]], true]', '{"a": 1, "a": 2}']
    ),
    "balance_progress": balance_progress,
    "metrics": metrics_files,
}


def seed_files():
    """{target: {file name: bytes}} of every seed."""
    files = {}
    for target, make in SEEDS.items():
        seeds = [seed if isinstance(seed, bytes) else seed.encode() for seed in make()]
        files[target] = {f"seed-{hashlib.sha1(data).hexdigest()[:16]}": data for data in seeds}
    return files


def differences(files):
    """What the committed corpus lacks, holds beyond the seeds, or holds otherwise."""
    found = []
    for target, seeds in files.items():
        folder = CORPUS / target
        present = {path.name for path in folder.iterdir()} if folder.is_dir() else set()
        found += [f"{target}/{name}: missing" for name in sorted(seeds.keys() - present)]
        found += [f"{target}/{name}: no longer a seed" for name in sorted(present - seeds.keys())]
        found += [
            f"{target}/{name}: other bytes"
            for name in sorted(present & seeds.keys())
            if (folder / name).read_bytes() != seeds[name]
        ]
    return found


def main(argv):
    files = seed_files()
    if argv == ["--check"]:
        found = differences(files)
        for line in found:
            print(line)
        if found:
            print(
                f"{len(found)} corpus files differ from their generator: run tools/ci/fuzz_seeds.py"
            )
        return 1 if found else 0
    if argv:
        print("usage: tools/ci/fuzz_seeds.py [--check]", file=sys.stderr)
        return 2
    for target, seeds in files.items():
        folder = CORPUS / target
        folder.mkdir(parents=True, exist_ok=True)
        for path in folder.iterdir():
            if path.name not in seeds:
                path.unlink()
        for name, data in seeds.items():
            (folder / name).write_bytes(data)
        print(f"{target}: {len(seeds)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
