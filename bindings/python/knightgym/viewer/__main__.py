"""python -m knightgym.viewer [FILE|DIR ...] [options] (or: knightgym view, which hands
its arguments here unread): the one declaration of the viewer's flags; see
knightgym.viewer."""

import argparse
import sys

from knightgym.viewer.agent_policy import (
    DEFAULT_MAX_SIMS,
    DEFAULT_MEMORY_MB,
    DEFAULT_MOVE_SECONDS,
    AgentPolicy,
)
from knightgym.viewer.server import serve
from knightgym.viewer.sessions import Library, ViewerError


def named_file(text):
    """NAME=PATH, as --model and --engine take it."""
    name, equals, path = text.partition("=")
    if not equals or not name or not path or "," in name or ":" in name:
        raise argparse.ArgumentTypeError(f"expected NAME=PATH, got {text!r}")
    return name, path


def port_number(text):
    """A TCP port, 0 (pick a free one) to 65535."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 0 to 65535, got {text!r}")
    return port


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="knightgym view",
        description="Replay recorded games and play against agents in a browser.",
    )
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="FILE|DIR",
        help="game records (JSON lines), or balance runs holding records.jsonl, "
        "opened at start; the page may open them again",
    )
    parser.add_argument(
        "--folder",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder whose records the page may open (repeatable); the page opens nothing else",
    )
    parser.add_argument(
        "--model",
        action="append",
        default=[],
        type=named_file,
        metavar="NAME=PATH",
        help="a network that games may play as az:model=NAME (repeatable)",
    )
    parser.add_argument(
        "--engine",
        action="append",
        default=[],
        type=named_file,
        metavar="NAME=PATH",
        help="a UCI engine that games may play as uci:engine=NAME (repeatable)",
    )
    parser.add_argument(
        "--max-sims",
        type=int,
        default=DEFAULT_MAX_SIMS,
        help=f"the most simulations a game's agent may ask for (default {DEFAULT_MAX_SIMS})",
    )
    parser.add_argument(
        "--move-seconds",
        type=float,
        default=DEFAULT_MOVE_SECONDS,
        help=f"the longest an agent thinks about a move (default {DEFAULT_MOVE_SECONDS:g})",
    )
    parser.add_argument(
        "--memory-mb",
        type=int,
        default=DEFAULT_MEMORY_MB,
        help="the memory the games kept at once may take, by an estimate of their agents; "
        f"the oldest games close to make room (default {DEFAULT_MEMORY_MB})",
    )
    parser.add_argument(
        "--port",
        type=port_number,
        default=8000,
        help="the port to serve on (default 8000; 0 picks a free one)",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to serve on (default 127.0.0.1, this machine only)",
    )
    args = parser.parse_args(argv)
    if args.max_sims < 1 or not args.move_seconds > 0 or args.memory_mb < 1:
        parser.error("--max-sims, --move-seconds and --memory-mb must be positive")
    library = Library(roots=args.paths + args.folder)
    try:
        policy = AgentPolicy(
            dict(args.model),
            dict(args.engine),
            args.max_sims,
            args.move_seconds,
            memory_mb=args.memory_mb,
        )
        for path in args.paths:
            library.open(path)
    except ViewerError as error:
        print(f"knightgym view: {error}", file=sys.stderr)
        return 2
    return serve(library, args.host, args.port, policy=policy)


if __name__ == "__main__":
    sys.exit(main())
