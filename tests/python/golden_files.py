"""The golden files' names (tests/golden/README.md), for the tests that read or count them."""


def golden_name(spec):
    """The render golden file's name of a spec (tests/cpp/env/registry/render_golden_test.cc)."""
    out = []
    for c in spec:
        if c.isascii() and (c.isalnum() or c in "_=.+-"):
            out.append(c)
        elif c in "(,":
            out.append("__")
        elif c not in ")[]":
            out.append("-")
    return "".join(out)
