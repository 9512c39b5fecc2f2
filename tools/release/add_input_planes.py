#!/usr/bin/env python3
"""Gives a network the input planes its game's observation gained at the end, with zero
weights, so that it computes on the old planes exactly what it computed before.

    tools/release/add_input_planes.py IN OUT --planes N

A game whose observation gains planes (Knight Fight's rules, issue 55) would otherwise
refuse its shipped network, whose first convolution reads the planes it had. The new
planes' weights are zero, so every output is what it was (a test checks it to the bit);
training then learns what the planes say. OUT is written whole or not at all, and an
existing OUT is refused unless it is IN and --replace is given.
"""

import argparse
import os
import sys
from pathlib import Path

STEM = "stem_w"  # the first convolution's weights: [channels, planes, 3, 3] (agents/resnet.cc)


def add_planes(source, target, planes):
    import torch

    try:
        module = torch.jit.load(str(source), map_location="cpu")
    except (RuntimeError, ValueError) as error:
        sys.exit(f"{source}: not a TorchScript module ({str(error).splitlines()[0]})")
    if not hasattr(module, "game_spec") or not hasattr(module, STEM):
        sys.exit(f"{source}: not a knightgym network (no game_spec or {STEM})")
    weights = getattr(module, STEM)
    added = torch.zeros(weights.shape[0], planes, *weights.shape[2:], dtype=weights.dtype)
    setattr(module, STEM, torch.nn.Parameter(torch.cat([weights.detach(), added], 1)))
    temporary = target.with_name(f"{target.name}.tmp{os.getpid()}")
    try:
        module.save(str(temporary))
        os.replace(temporary, target)
    finally:
        if temporary.exists():
            temporary.unlink()
    return weights.shape[1], weights.shape[1] + planes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, metavar="IN")
    parser.add_argument("target", type=Path, metavar="OUT")
    parser.add_argument("--planes", type=int, required=True, help="planes added at the end")
    parser.add_argument("--replace", action="store_true", help="OUT may be IN, rewritten")
    args = parser.parse_args()
    if args.planes < 1:
        sys.exit(f"--planes must be at least 1, got {args.planes}")
    if not args.source.is_file():
        sys.exit(f"{args.source}: no such file")
    same = args.target.exists() and args.target.resolve() == args.source.resolve()
    if args.target.exists() and not (same and args.replace):
        sys.exit(f"{args.target} exists: give another OUT, or OUT = IN with --replace")
    before, after = add_planes(args.source, args.target, args.planes)
    print(f"{args.target}: {before} -> {after} input planes")


if __name__ == "__main__":
    main()
