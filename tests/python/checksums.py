"""The hashes knightgym's files carry, for tests that write such files themselves."""

import struct


def fnv1a(data):
    """64-bit FNV-1a of `data`'s bytes, as knightgym hashes a network's bytes and a
    checkpoint's archive (util/binary_io.h)."""
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def as_checkpoint(archive):
    """`archive`'s bytes followed by the trailer a checkpoint ends with: "KGCKSUM1" and
    their hash (training/learner/learner.cc), so that only the archive itself is judged."""
    return archive + b"KGCKSUM1" + struct.pack("<Q", fnv1a(archive))
