"""Shared fixtures: the conformance specs of tests/conformance_specs.txt; the marker
`needs_networks` for tests that need the LibTorch networks, skipped in a build without
them (KNIGHTGYM_TORCH=OFF)."""

import importlib.util
import pathlib

import pytest

HAS_NETWORKS = importlib.util.find_spec("knightgym._knightgym_torch") is not None

SPECS_FILE = pathlib.Path(__file__).resolve().parent.parent / "conformance_specs.txt"


def read_conformance_specs():
    """The specs of the file, one per line, without '#' comments and blank lines."""
    lines = (line.strip() for line in SPECS_FILE.read_text().splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def pytest_generate_tests(metafunc):
    # A test taking `conformance_spec` runs once per spec; module scope lets the
    # module-scoped fixtures built on it (recorded random games) be shared.
    if "conformance_spec" in metafunc.fixturenames:
        metafunc.parametrize("conformance_spec", read_conformance_specs(), scope="module")


def pytest_configure(config):
    config.addinivalue_line("markers", "needs_networks: needs the LibTorch networks")


def pytest_collection_modifyitems(config, items):
    if HAS_NETWORKS:
        return
    skip = pytest.mark.skip(reason="built without LibTorch (KNIGHTGYM_TORCH=OFF)")
    for item in items:
        if "needs_networks" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def conformance_specs():
    return read_conformance_specs()
