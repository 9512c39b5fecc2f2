"""python -m knightgym.viewer [FILE|DIR ...] [--port P] [--host H]: see knightgym.viewer."""

import argparse
import sys

from knightgym.viewer.server import serve
from knightgym.viewer.sessions import Library, ViewerError


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="knightgym view",
        description="Replay recorded games and play against agents in a browser.")
    parser.add_argument("paths", nargs="*", metavar="FILE|DIR",
                        help="game records (JSON lines), or balance runs holding records.jsonl")
    parser.add_argument("--port", type=int, default=8000,
                        help="the port to serve on (default 8000; 0 picks a free one)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to serve on (default 127.0.0.1, this machine only)")
    args = parser.parse_args(argv)
    library = Library()
    try:
        for path in args.paths:
            library.open(path)
    except ViewerError as error:
        print(f"knightgym view: {error}", file=sys.stderr)
        return 2
    return serve(library, args.host, args.port)


if __name__ == "__main__":
    sys.exit(main())
