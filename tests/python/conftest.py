"""Shared fixtures: the conformance specs, those of every game's test folder
(tests/cpp/env/games/<game>/conformance_specs.txt, read as
tests/cpp/env/registry/conformance_specs.h reads them), or of the one file
$KNIGHTGYM_CONFORMANCE_SPECS names (a game defined in the test tree runs the suites on its
own); the marker `every_spec` on each test that runs once per spec; the marker
`needs_networks` for tests that need the LibTorch networks, skipped in a build without
them (KNIGHTGYM_TORCH=OFF).

A skip is allowed only where EXPECTED_SKIPS below declares it for this run: any other
fails the session, naming the test and its reason, so that a test never stops running
unseen (a package that make test installs gone missing, a parameter that no longer
applies)."""

import dataclasses
import importlib.metadata
import importlib.util
import os
import pathlib

import pytest

HAS_NETWORKS = importlib.util.find_spec("knightgym._knightgym_torch") is not None
# A current PyTorch (make torch2's .venv-torch2, the GPU check's), not Debian's 1.13; read
# from its metadata, for importing torch would load libtorch (test_lazy_torch.py).
TORCH_2 = int(importlib.metadata.version("torch").split(".")[0]) >= 2

GAME_TESTS = pathlib.Path(__file__).resolve().parent.parent / "cpp" / "env" / "games"

NO_NETWORKS = "built without LibTorch (KNIGHTGYM_TORCH=OFF)"
NEEDS_TORCH_2 = "needs PyTorch 2 (make torch2)"


@dataclasses.dataclass(frozen=True)
class ExpectedSkip:
    reason: str  # how the skip's reason begins
    expected: bool  # whether this run may skip for it
    why: str


EXPECTED_SKIPS = [
    ExpectedSkip(
        NO_NETWORKS,
        not HAS_NETWORKS,
        "make notorch builds the package without LibTorch: its tests that need a network wait "
        "for make test's build",
    ),
    ExpectedSkip(
        "built with LibTorch",
        HAS_NETWORKS,
        "what a build without LibTorch refuses is tested in make notorch's build",
    ),
    ExpectedSkip(
        NEEDS_TORCH_2,
        not TORCH_2,
        "RLlib and Tianshou need PyTorch 2, which make torch2 brings; make test and make "
        "notorch have Debian's 1.13",
    ),
    ExpectedSkip(
        "RLlib is whole here",
        TORCH_2,
        "what knightgym.rllib says without RLlib's dependencies is seen where they are "
        "missing, in make test's .venv, not in make torch2's, which has them",
    ),
    ExpectedSkip(
        "could not import",
        TORCH_2,
        "make torch2's .venv-torch2 holds tools/setup/python_requirements_torch2.txt alone, "
        "none of Debian's packages (psutil, statsmodels, selenium) that make test's .venv sees; in "
        ".venv, where make test installs every package a test imports, a missing one fails",
    ),
    ExpectedSkip(
        "the test-game module is not built",
        TORCH_2,
        "make torch2 builds the package's modules and the command line, not the test game's",
    ),
    ExpectedSkip(
        "the test-game training module is not built",
        TORCH_2 or not HAS_NETWORKS,
        "it needs LibTorch, which make notorch's build lacks, and make torch2 builds no test game",
    ),
    ExpectedSkip(
        "the test-game program needs LibTorch",
        not HAS_NETWORKS,
        "the test game's program needs LibTorch, which make notorch's build lacks",
    ),
]


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
    if not hasattr(config, "workerinput"):  # pytest-xdist's workers report to this process
        config.pluginmanager.register(SkipGuard(), "knightgym_skip_guard")


def pytest_collection_modifyitems(config, items):
    skip = pytest.mark.skip(reason=NO_NETWORKS)
    for item in items:
        if "conformance_spec" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.every_spec)
        if not HAS_NETWORKS and "needs_networks" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def conformance_specs():
    return read_conformance_specs()


def is_declared(reason):
    return any(skip.expected and reason.startswith(skip.reason) for skip in EXPECTED_SKIPS)


class SkipGuard:
    """Notes the skips of tests and of whole modules that EXPECTED_SKIPS does not allow in
    this run, lists them after the summary and fails the session."""

    def __init__(self):
        self.undeclared = []  # (test or module, reason)

    def note(self, report):
        # An expected failure (xfail) is reported as skipped too, with wasxfail.
        if report.skipped and not hasattr(report, "wasxfail"):
            reason = report.longrepr[2].removeprefix("Skipped: ")  # (path, line, message)
            if not is_declared(reason):
                self.undeclared.append((report.nodeid, reason))

    def pytest_runtest_logreport(self, report):
        self.note(report)

    def pytest_collectreport(self, report):
        self.note(report)

    def pytest_sessionfinish(self, session):
        if self.undeclared and session.exitstatus in (
            pytest.ExitCode.OK,
            pytest.ExitCode.NO_TESTS_COLLECTED,
        ):
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter):
        if not self.undeclared:
            return
        terminalreporter.write_sep(
            "=", "skips that tests/python/conftest.py's EXPECTED_SKIPS does not allow", red=True
        )
        for test, reason in self.undeclared:
            terminalreporter.write_line(f"{test}: {reason}")
