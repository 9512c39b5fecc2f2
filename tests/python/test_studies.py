"""Each game's study settings (env/games/<game>/studies.json) and training recipes
(env/games/<game>/recipes/), as tools/lib/studies.py and the tools read them: every file
parses and holds only the keys the tools know, every game spec in it loads as its own
game, every swept key is a parameter of the game and every swept value is accepted, every
agent spec names a kind and its parameters, every shipped network it plays exists, and
every recipe is accepted by `knightgym train` and `knightgym teach`. No game is named: a
game's studies are checked by its having them."""

import json
import pathlib
import re
import subprocess
import sys

import knightgym
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "lib"))
import studies  # noqa: E402

CLI = pathlib.Path(knightgym.__file__).resolve().parent.parent.parent / "knightgym"
FILES = sorted((ROOT / "env" / "games").glob("*/studies.json"))
RECIPES = sorted((ROOT / "env" / "games").glob("*/recipes/*.txt"))
PLOTS = {"seat_win_rates", "first_seat_advantage", "game_lengths"}

# The keys the tools read, each with the keys of its objects (None: a value).
RUN = {"spec": None, "agents": None, "games": None}
AT_STRENGTH = {"run": None, "agents": None, "games": None, "sprt": None, "plots": None}
SWEEP = {
    "title": None,
    "run": None,
    "sweep": None,
    "games": None,
    "sprt": None,
    "plots": None,
    "at_strength": AT_STRENGTH,
    "with_network": {
        "run": None,
        "sweep": None,
        "games": None,
        "sprt": None,
        "plots": None,
        "batch": None,
        "chunk": None,
    },
}
SCHEMA = {
    "main_job": None,
    "balance": {
        "ladder": {"name": None, "spec": None, "games": None},
        "games": {"medium": None, "strong": None, "net64": None},
        "strengths": {"level": None, "agents": None, "opening_plies": None},
        "example": None,
        "sweeps": SWEEP,
        "skill": {
            "sweep": None,
            "games": None,
            "to_the_top": {"sweep": None, "games": None, "batch": None, "agents": None},
        },
    },
    "throughput": RUN,
    "pictures": {"starts": None, "opponent": None},
    "openspiel": {"spec": None},
    "coverage": {"spec": None},
    "strength": {
        "ladders": {"name": None, "spec": None, "games": None, "extra_agents": None},
        "targets": {"file": None, "spec": None, "agents": None, "games_divisor": None},
        "networks": {
            "name": None,
            "spec": None,
            "gauntlet_games_divisor": None,
            "time_games_divisor": None,
            "extra_agents": None,
        },
    },
    "fuzz": {"spec": None, "spec_time": None, "balance": None},
}


def game_of(path):
    return path.parent.name


def unknown_keys(value, schema, where=""):
    """The keys of `value` (objects, lists of objects) that `schema` does not know."""
    if schema is None:
        return []
    if isinstance(value, list):
        return [key for item in value for key in unknown_keys(item, schema, where)]
    if not isinstance(value, dict):
        return [f"{where}: an object expected"]
    wrong = []
    for key, inner in value.items():
        if key not in schema:
            wrong.append(f"{where}.{key}".lstrip("."))
        else:
            wrong += unknown_keys(inner, schema[key], f"{where}.{key}")
    return wrong


def specs_of(settings):
    """Every game spec of a game's studies."""
    balance = settings.get("balance", {})
    strength = settings.get("strength", {})
    specs = [balance["ladder"]["spec"]] if "ladder" in balance else []
    specs += [run["spec"] for run in settings.get("throughput", [])]
    specs += settings.get("pictures", {}).get("starts", [])
    specs += [settings["openspiel"]["spec"]] if "openspiel" in settings else []
    specs += [settings["coverage"]["spec"]] if "coverage" in settings else []
    specs += [
        row["spec"] for key in ("ladders", "targets", "networks") for row in strength.get(key, [])
    ]
    fuzz = settings.get("fuzz", {})
    specs += fuzz.get("spec", []) + fuzz.get("spec_time", [])
    specs += [lines[0] for lines in fuzz.get("balance", [])]
    return specs


def agent_lists_of(settings):
    """Every agent spec, or comma-joined list of them, of a game's studies."""
    balance = settings.get("balance", {})
    strength = settings.get("strength", {})
    lists = [strength["agents"] for strength in balance.get("strengths", [])]
    lists += [
        sweep["at_strength"]["agents"]
        for sweep in balance.get("sweeps", [])
        if "at_strength" in sweep
    ]
    top = balance.get("skill", {}).get("to_the_top", {})
    lists += [top["agents"]] if "agents" in top else []
    lists += [run["agents"] for run in settings.get("throughput", [])]
    lists += (
        [settings["pictures"]["opponent"]] if "opponent" in settings.get("pictures", {}) else []
    )
    lists += [row["agents"] for row in strength.get("targets", [])]
    lists += [
        row["extra_agents"]
        for key in ("ladders", "networks")
        for row in strength.get(key, [])
        if row.get("extra_agents")
    ]
    return lists


def split_agents(text):
    """A comma-joined list of agent specs, one spec each: a new one starts at a word with
    no `=` (`random`) or with a `:` before its `=` (`mcts:sims=64`)."""
    agents = []
    for word in text.split(","):
        key = word.split("=")[0]
        if "=" not in word or ":" in key or not agents:
            agents.append(word)
        else:
            agents[-1] += "," + word
    return agents


def sweeps_of(settings):
    balance = settings.get("balance", {})
    sweeps = [text for sweep in balance.get("sweeps", []) for text in sweep["sweep"]]
    sweeps += [
        text
        for sweep in balance.get("sweeps", [])
        for text in sweep.get("with_network", {}).get("sweep", [])
    ]
    skill = balance.get("skill", {})
    return sweeps + skill.get("sweep", []) + skill.get("to_the_top", {}).get("sweep", [])


def test_there_are_studies_and_each_file_is_a_registered_game_s():
    assert FILES
    for path in FILES:
        assert game_of(path) in knightgym.games(), path


@pytest.mark.parametrize("path", FILES, ids=game_of)
def test_studies_parse_and_hold_only_the_keys_the_tools_read(path):
    settings = json.loads(path.read_text())
    assert settings == studies.of(game_of(path))
    assert not unknown_keys(settings, SCHEMA)


@pytest.mark.parametrize("path", FILES, ids=game_of)
def test_every_game_spec_loads_as_its_own_game(path):
    game = game_of(path)
    for spec in specs_of(studies.of(game)):
        assert knightgym.load_game(spec).name == game, spec


@pytest.mark.parametrize("path", FILES, ids=game_of)
def test_every_swept_key_is_a_parameter_of_the_game_and_every_value_is_accepted(path):
    game = game_of(path)
    parameters = {p["name"] for p in knightgym.describe_game(game)["parameters"]}
    for sweep in sweeps_of(studies.of(game)):
        key, values = sweep.split("=", 1)
        assert key in parameters, sweep
        for value in values.split(","):
            knightgym.load_game(f"{game}({key}={value})")


@pytest.mark.parametrize("path", FILES, ids=game_of)
def test_every_agent_spec_names_a_kind_and_its_parameters(path):
    kinds = knightgym.agents.kinds()
    for text in agent_lists_of(studies.of(game_of(path))):
        for agent in split_agents(text):
            kind, params = knightgym.agents.parse_spec(agent)
            assert kind in kinds, agent
            known = {p["name"] for p in knightgym.agents.params(kind)}
            assert {key for key, _ in params} <= known, agent


@pytest.mark.parametrize("path", FILES, ids=game_of)
def test_every_shipped_network_played_is_there(path):
    settings = studies.of(game_of(path))
    shipped = {model["game"] for model in knightgym.agents.pretrained()}
    runs = settings.get("throughput", []) + settings.get("strength", {}).get("targets", [])
    for run in runs:
        if "model=pretrained" in run["agents"]:
            assert knightgym.load_game(run["spec"]).spec in shipped, run
    if "balance" in settings:  # the report's net64 strength
        assert knightgym.load_game(settings["balance"]["ladder"]["spec"]).spec in shipped


@pytest.mark.parametrize(
    "path", [p for p in FILES if studies.of(game_of(p)).get("balance")], ids=game_of
)
def test_the_balance_runs_name_their_strengths_sequential_tests_and_plots(path):
    balance = studies.of(game_of(path))["balance"]
    levels = {"random", "weak", "medium", "strong", "net64"}
    levels |= {strength["level"] for strength in balance.get("strengths", [])}
    assert balance.get("example", "net64") in levels
    runs = [sweep["run"] for sweep in balance.get("sweeps", [])]
    for stronger in ("at_strength", "with_network"):
        runs += [sweep[stronger]["run"] for sweep in balance.get("sweeps", []) if stronger in sweep]
    reserved = levels | {"skill", "skill_top", "example"}
    assert len(set(runs)) == len(runs) and not set(runs) & reserved
    for sweep in balance.get("sweeps", []):
        for run in (sweep, sweep.get("at_strength", {}), sweep.get("with_network", {})):
            assert run.get("sprt", "one_sided") in ("one_sided", "two_sided")
            assert set(run.get("plots", [])) <= PLOTS


def test_the_main_job_trains_a_game_with_a_recipe_of_its_name():
    chosen = studies.games("main_job")
    assert chosen
    assert (ROOT / "env" / "games" / chosen[0] / "recipes" / f"{chosen[0]}.txt").exists()


def test_studies_come_in_the_registry_s_order_and_the_command_line_reads_them():
    order = list(knightgym.games())
    chosen = studies.games()
    assert chosen == [game for game in order if game in {game_of(p) for p in FILES}]
    tool = [sys.executable, str(ROOT / "tools" / "lib" / "studies.py")]
    listed = subprocess.run([*tool, "games", "--with", "balance"], capture_output=True, text=True)
    assert listed.stdout.split() == studies.games("balance")
    game = chosen[0]
    value = studies.get(game, "balance.ladder")
    got = subprocess.run(
        [*tool, "get", game, "balance.ladder.spec"], capture_output=True, text=True
    )
    assert got.stdout == value["spec"] + "\n"
    rows = subprocess.run(
        [*tool, "get", game, "balance.ladder"], capture_output=True, text=True, check=True
    )
    assert json.loads(rows.stdout) == value
    missing = subprocess.run([*tool, "get", game, "no.such.key"], capture_output=True, text=True)
    assert missing.returncode == 1


@pytest.mark.needs_networks
@pytest.mark.parametrize("recipe", RECIPES, ids=lambda path: path.stem)
def test_every_recipe_is_accepted_by_train_and_its_teacher_by_teach(recipe):
    game = recipe.parent.parent.name
    printed = subprocess.run(
        [str(CLI), "train", game, "--config", str(recipe), "--print-config"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert printed.returncode == 0, printed.stderr
    teach = recipe.with_suffix(".teach")
    if teach.exists():
        usage = subprocess.run([str(CLI), "teach", "--help"], capture_output=True, text=True)
        flags = set(re.findall(r"--[a-z-]+", usage.stdout + usage.stderr))
        lines = [line for line in teach.read_text().splitlines() if not line.startswith("#")]
        for line in filter(None, lines):
            if line.startswith("--"):
                assert set(re.findall(r"--[a-z-]+", line)) <= flags, line
            else:
                assert re.fullmatch(r"teacher_steps=\d+", line), line
