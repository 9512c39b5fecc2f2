"""Each command's flags have one source, its usage in programs/cli/main.cc's table: the
flags a command's code reads are the ones its usage names, docs/api.md's command list
names the same, and an unknown flag is refused by name before anything else is checked
(a missing GAME or required flag)."""

import pathlib
import re
import subprocess

import knightgym

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = pathlib.Path(knightgym.__file__).resolve().parent.parent.parent / "knightgym"
FLAG = re.compile(r"--([a-z][a-z-]*)")
READ = re.compile(r'get_(?:int|double|string|strings|switch|threads)\("([a-z-]+)"')
COMMAND = re.compile(r"^int (\w+)_command\(Args& args\)", re.MULTILINE)
# Commands whose arguments go unread to the Python program that declares them (its parser
# refuses an unknown flag: test_view_hands_its_arguments_to_the_viewer_which_declares_them).
HANDED_OVER = {"view"}


def cli(*args):
    return subprocess.run([str(CLI), *args], capture_output=True, text=True, timeout=60)


def commands():
    listing = cli("--help").stdout
    return re.findall(r"^  (\S+)", listing, re.MULTILINE)


def usage_flags(command):
    """The flags `knightgym COMMAND --help` names, from its usage (before the blank line)."""
    usage = cli(command, "--help").stdout.split("\n\n")[0]
    return set(FLAG.findall(usage))


def flags_read():
    """{command: the flags its code reads}, from programs/cli/*_command.cc: a function
    NAME_command reads what its body names; helpers before the first command of a file
    count for every command of the file."""
    read = {}
    for path in sorted((ROOT / "programs" / "cli").glob("*_command.cc")):
        text = path.read_text()
        starts = list(COMMAND.finditer(text))
        shared = set(READ.findall(text[: starts[0].start()])) if starts else set()
        for i, start in enumerate(starts):
            end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
            name = start.group(1).replace("_", "-")
            read[name] = shared | set(READ.findall(text[start.start() : end]))
    return read


def test_every_flag_a_command_reads_is_in_its_usage_and_back():
    read = flags_read()
    for command in set(commands()) - HANDED_OVER:
        assert command in read, f"no {command}_command in programs/cli"
        declared = usage_flags(command)
        assert read[command] == declared, (command, read[command] ^ declared)


def test_docs_api_names_each_commands_flags():
    text = (ROOT / "docs" / "api.md").read_text()
    block = text.split("## Command line\n\n```\n", 1)[1].split("```", 1)[0]
    documented = {}
    command = None
    for line in block.splitlines():
        if line.startswith("build/knightgym "):
            command = line.split()[1]
            documented[command] = set()
        documented[command] |= set(FLAG.findall(line))
    assert set(documented) == set(commands())
    for command, flags in documented.items():
        declared = set() if command in HANDED_OVER else usage_flags(command)
        assert flags == declared, (command, flags ^ declared)


def test_an_unknown_flag_is_named_first_by_every_command():
    for command in set(commands()) - HANDED_OVER:
        done = cli(command, "--no-such-flag")
        assert done.returncode == 1, (command, done.stderr)
        assert (
            f"knightgym {command}: unknown flag --no-such-flag (knightgym {command} takes --"
            in (done.stderr)
        ), done.stderr


def test_a_switch_takes_no_value_and_a_flag_needs_one():
    done = cli("list", "--names", "--agents")
    assert done.returncode == 0
    done = cli("play", "tailten", "--agents")
    assert done.returncode == 1 and "flag --agents needs a value" in done.stderr
    done = cli("play", "tailten", "--agents", "random,random", "--seed", "1", "--seed", "2")
    assert done.returncode == 1 and "flag --seed is given twice" in done.stderr
    done = cli("play", "--agents", "random,random")
    assert done.returncode == 1 and "usage: knightgym play GAME --agents" in done.stderr


def test_view_hands_its_arguments_to_the_viewer_which_declares_them():
    assert flags_read()["view"] == set()
    listing = cli("--help").stdout
    assert "view [FILE|DIR...] [FLAGS...]" in listing
    helped = cli("view", "--help")  # the viewer's parser answers
    assert helped.returncode == 0
    assert {"folder", "model", "engine", "max-sims", "port", "host"} <= set(
        FLAG.findall(helped.stdout)
    )
    refused = cli("view", "--port", "70000")
    assert refused.returncode == 2 and "expected a port from 0 to 65535" in refused.stderr
    unknown = cli("view", "--colour", "red")
    assert unknown.returncode == 2 and "unrecognized arguments: --colour" in unknown.stderr
