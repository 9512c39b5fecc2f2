"""Shared fixtures: the conformance specs, those of every game's test folder
(tests/cpp/env/games/<game>/conformance_specs.txt, read as
tests/cpp/env/registry/conformance_specs.h reads them), or of the one file
$KNIGHTGYM_CONFORMANCE_SPECS names (a game defined in the test tree runs the suites on its
own); the marker `every_spec` on each test that runs once per spec; the marker
`needs_networks` for tests that need the LibTorch networks, skipped in a build without
them (KNIGHTGYM_TORCH=OFF)."""

import importlib.util
import os
import pathlib

import pytest

HAS_NETWORKS = importlib.util.find_spec("knightgym._knightgym_torch") is not None

GAME_TESTS = pathlib.Path(__file__).resolve().parent.parent / "cpp" / "env" / "games"


def read_specs(path):
    """The specs of a file, one per line, without '#' comments and blank lines."""
    lines = (line.strip() for line in path.read_text().splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def read_conformance_specs():
    if "KNIGHTGYM_CONFORMANCE_SPECS" in os.environ:
        return read_specs(pathlib.Path(os.environ["KNIGHTGYM_CONFORMANCE_SPECS"]))
    return [
        spec
        for path in sorted(GAME_TESTS.glob("*/conformance_specs.txt"))
        for spec in read_specs(path)
    ]


def pytest_generate_tests(metafunc):
    # A test taking `conformance_spec` runs once per spec; module scope lets the
    # module-scoped fixtures built on it (recorded random games) be shared.
    if "conformance_spec" in metafunc.fixturenames:
        metafunc.parametrize("conformance_spec", read_conformance_specs(), scope="module")


def pytest_configure(config):
    config.addinivalue_line("markers", "needs_networks: needs the LibTorch networks")
    config.addinivalue_line("markers", "every_spec: runs once per conformance spec")


def pytest_collection_modifyitems(config, items):
    skip = pytest.mark.skip(reason="built without LibTorch (KNIGHTGYM_TORCH=OFF)")
    for item in items:
        if "conformance_spec" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.every_spec)
        if not HAS_NETWORKS and "needs_networks" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def conformance_specs():
    return read_conformance_specs()
