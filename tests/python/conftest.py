"""Shared fixtures: the conformance specs of tests/conformance_specs.txt."""

import pathlib

import pytest

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


@pytest.fixture(scope="session")
def conformance_specs():
    return read_conformance_specs()
