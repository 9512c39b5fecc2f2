"""Network files and checkpoints checked before they inflate (issue 58): a few-MB file whose
member inflates to 1 GiB (a zip bomb) is refused by name, through the command line, the
Python agents and a resumed run, in bounded memory; the file's directory alone is read.
Bounded means within a margin of the same command's peak with a sound file: a libtorch's
own libraries (PyPI's loads CUDA's) set the floor, an inflated member would add its 1 GiB."""

import pathlib
import subprocess
import sys
import zipfile

import knightgym
import pytest
from checksums import as_checkpoint

pytestmark = pytest.mark.needs_networks

CLI = pathlib.Path(knightgym.__file__).resolve().parent.parent.parent / "knightgym"
MODELS = pathlib.Path(knightgym.__file__).resolve().parents[3] / "models"
GIB = 1 << 30
MARGIN_KB = 256 * 1024  # what refusing a bomb may cost beyond a sound file's run: a quarter of it


def bomb(path, member):
    """The shipped Tailten network with `member` replaced by 1 GiB of zeros, deflated (about
    1 MB), the others stored as PyTorch stores them: an archive whose directory tells the
    truth, as a real bomb's does. Written by streaming: the test never holds 1 GiB either."""
    with (
        zipfile.ZipFile(MODELS / "tailten.pt") as source,
        zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as out,
    ):
        for info in source.infolist():
            if info.filename != member:
                out.writestr(
                    zipfile.ZipInfo(info.filename, info.date_time),
                    source.read(info),
                    compress_type=zipfile.ZIP_STORED,
                )
                continue
            with out.open(member, "w", force_zip64=True) as inflating:
                zeros = bytes(16 << 20)
                for _ in range(GIB // len(zeros)):
                    inflating.write(zeros)
    return path


def peak_rss_kb(*command):
    """(the command's CompletedProcess, its peak resident memory in KB), measured in a
    child of its own so that no other process of this test run counts."""
    probe = (
        "import resource, subprocess, sys;"
        "r = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=240);"
        "sys.stderr.write(r.stderr); sys.stdout.write(r.stdout);"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr);"
        "sys.exit(r.returncode)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *map(str, command)], capture_output=True, text=True
    )
    *lines, peak = done.stderr.rstrip("\n").split("\n")
    done.stderr = "\n".join(lines)
    return done, int(peak)


def play_two_games(model):
    return peak_rss_kb(
        CLI, "play", "tailten", "--agents", f"az:model={model},sims=2,random", "--games", 2
    )


@pytest.fixture(scope="module")
def sound_play_peak_kb():
    done, peak = play_two_games(MODELS / "tailten.pt")
    assert done.returncode == 0, done.stderr
    return peak


@pytest.fixture(scope="module", params=["archive/version", "archive/data.pkl"])
def bomb_file(request, tmp_path_factory):
    return bomb(tmp_path_factory.mktemp("bomb") / "bomb.pt", request.param), request.param


def test_a_zip_bomb_network_is_refused_by_name_in_bounded_memory(bomb_file, sound_play_peak_kb):
    path, member = bomb_file
    assert path.stat().st_size < 8 << 20
    done, peak = play_two_games(path)
    assert done.returncode == 1
    assert f"model '{path}' is not a TorchScript module: member '{member}' inflates to {GIB} " in (
        done.stderr
    )
    assert "(refused before inflating it)" in done.stderr
    assert done.stdout == ""
    assert peak < sound_play_peak_kb + MARGIN_KB, f"peak {peak} KB, {sound_play_peak_kb} KB sound"


def test_python_agents_refuse_a_zip_bomb_with_value_error(bomb_file):
    import knightgym.agents

    path, member = bomb_file
    with pytest.raises(ValueError, match=f"member '{member}' inflates to {GIB} bytes"):
        knightgym.agents.make(f"az:model={path},sims=2", "tailten")


def test_a_checkpoint_bomb_with_a_valid_hash_is_set_aside_and_the_run_goes_on(tmp_path):
    config = tmp_path / "tiny.cfg"
    config.write_text("blocks=1\nchannels=8\ngames=8\nsims=4\nbatch=32\nmin_replay=64\n")
    run = tmp_path / "run"
    first, sound_peak = peak_rss_kb(
        CLI, "train", "tailten", "--out", run, "--steps", 4, "--config", config
    )
    assert first.returncode == 0, first.stderr
    # The bomb as the newest checkpoint, its bytes hashed as a checkpoint's are: only the
    # archive's own directory can tell it from a real one.
    payload = bomb(tmp_path / "bomb.zip", "archive/version").read_bytes()
    newest = run / "checkpoints" / "step-000999999.ckpt"
    newest.write_bytes(as_checkpoint(payload))
    done, peak = peak_rss_kb(CLI, "train", "tailten", "--out", run, "--steps", 8, "--resume")
    assert done.returncode == 0, done.stderr
    assert f"member 'archive/version' inflates to {GIB} bytes" in done.stderr
    assert (run / "checkpoints" / "step-000999999.ckpt.damaged").is_file()
    assert peak < sound_peak + MARGIN_KB, f"peak {peak} KB, {sound_peak} KB sound"
