"""tools/release/add_input_planes.py: a network given zero-weight input planes at the end computes
on its old planes exactly what it did, whatever the new planes hold; a target that exists,
a bad count and a file that is no network are refused, and nothing is written then."""

import pathlib
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
TOOL = ROOT / "tools" / "release" / "add_input_planes.py"
NETWORK = ROOT / "models" / "knight_fight.pt"


def run(*args):
    return subprocess.run(
        [sys.executable, str(TOOL), *map(str, args)], capture_output=True, text=True, timeout=120
    )


def test_added_planes_change_nothing_the_old_planes_give(tmp_path):
    target = tmp_path / "wider.pt"
    done = run(NETWORK, target, "--planes", 3)
    assert done.returncode == 0, done.stderr
    before, after = torch.jit.load(str(NETWORK)), torch.jit.load(str(target))
    planes = before.stem_w.shape[1]
    assert after.stem_w.shape[1] == planes + 3
    assert after.game_spec == before.game_spec
    generator = torch.Generator().manual_seed(1)
    old = torch.rand(5, planes, 10, 10, generator=generator)
    new = torch.cat([old, torch.rand(5, 3, 10, 10, generator=generator)], 1)
    with torch.no_grad():
        for expected, got in zip(before(old), after(new)):
            assert torch.equal(expected, got)


def test_refusals_write_nothing(tmp_path):
    target = tmp_path / "wider.pt"
    target.write_bytes(b"kept")
    done = run(NETWORK, target, "--planes", 1)
    assert done.returncode != 0 and "exists" in done.stderr
    assert target.read_bytes() == b"kept"
    assert "at least 1" in run(NETWORK, tmp_path / "a.pt", "--planes", 0).stderr
    junk = tmp_path / "junk.pt"
    junk.write_bytes(b"not a module")
    assert "not a TorchScript module" in run(junk, tmp_path / "b.pt", "--planes", 1).stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.pt", "wider.pt"]
