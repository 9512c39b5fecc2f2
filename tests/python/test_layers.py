"""The architecture's rules that a reading of the sources can check (the project's
ARCHITECTURE.md, kept beside the repository in ../shared/; README.md lists the layers):
each layer includes only the layers below it, env includes neither torch nor pybind11, a
game's folder includes no other game's, and no code outside env/games names a game (the
one list, env/registry/game_list.h, aside): not the C++ code, the Python package, the
scripts of tools/ (Python and shell; what they run on each game is in its folder,
env/games/<game>/studies.json) nor the Makefile. Comments and docstrings may name games,
as docs do: only code is read."""

import ast
import io
import pathlib
import re
import tokenize

import knightgym
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.MULTILINE)

# What each folder may include from the project, bottom to top.
ALLOWED = {
    "util": {"util"},
    "env": {"util", "env"},
    "agents": {"util", "env", "agents"},
    "training": {"util", "env", "agents", "training"},
    "programs": {"util", "env", "agents", "training", "programs"},
}
PROJECT_FOLDERS = {"util", "env", "agents", "training", "programs", "bindings", "tests"}


def cpp_files(folder):
    return sorted(p for p in (ROOT / folder).rglob("*") if p.suffix in {".h", ".cc"})


def includes(path):
    return INCLUDE.findall(path.read_text())


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_each_layer_includes_only_the_layers_below_it(layer):
    wrong = []
    for path in cpp_files(layer):
        for kind, name in includes(path):
            top = name.split("/")[0]
            if kind == '"' and top in PROJECT_FOLDERS and top not in ALLOWED[layer]:
                wrong.append(f"{path.relative_to(ROOT)} includes {name}")
    assert not wrong, "\n".join(wrong)


def test_env_includes_neither_torch_nor_pybind11():
    wrong = [
        f"{path.relative_to(ROOT)} includes {name}"
        for path in cpp_files("env")
        for _, name in includes(path)
        if name.split("/")[0] in {"torch", "pybind11", "ATen", "c10", "Python.h"}
    ]
    assert not wrong, "\n".join(wrong)


def test_env_core_vector_and_registry_include_no_game_and_a_game_no_other_game():
    wrong = []
    for path in cpp_files("env"):
        part = path.relative_to(ROOT / "env").parts
        for _, name in includes(path):
            if not name.startswith("env/games/"):
                continue
            own = part[0] == "games" and name.split("/")[2] == part[1]
            listed = path == ROOT / "env/registry/game_list.h"
            if not own and not listed:
                wrong.append(f"{path.relative_to(ROOT)} includes {name}")
    assert not wrong, "\n".join(wrong)


def game_words():
    """Each game's name and its CamelCase type name."""
    words = set()
    for name in knightgym.games():
        words.add(name)
        words.add("".join(part.title() for part in name.split("_")))
    return words


def cpp_code(path):
    """The text of a C++ file without its comments."""
    text = re.sub(r"/\*.*?\*/", " ", path.read_text(), flags=re.DOTALL)
    return re.sub(r"//[^\n]*", " ", text)


def python_code(path):
    """The text of a Python file without its comments and docstrings."""
    source = path.read_text()
    docstrings = set()
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                docstrings.add((value.lineno, value.col_offset))
    kept = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT or token.start in docstrings:
            continue
        kept.append(token.string)
    return " ".join(kept)


def shell_code(path):
    """The text of a shell script or Makefile without its comments (a # that starts a
    word, to the end of its line)."""
    return re.sub(r"(^|\s)#[^\n]*", " ", path.read_text())


def code_outside_the_games():
    for folder in ("util", "env", "agents", "training", "programs", "bindings"):
        for path in cpp_files(folder):
            if "games" not in path.relative_to(ROOT).parts[:2]:
                yield path, cpp_code(path)
    for folder in ("bindings/python", "tools"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            yield path, python_code(path)
    for path in sorted((ROOT / "bindings/python").rglob("*.js")):
        yield path, cpp_code(path)
    for path in sorted((ROOT / "tools").rglob("*.sh")):
        yield path, shell_code(path)
    yield ROOT / "Makefile", shell_code(ROOT / "Makefile")


def naming(words):
    """A game's word standing alone or as part of a longer name (knight_fight_random,
    KnightFightRules), not inside another word."""
    return re.compile(r"(?<![a-z0-9])(" + "|".join(sorted(words)) + r")(?![a-z0-9])")


def test_no_code_outside_the_games_names_a_game():
    pattern = naming(game_words())
    wrong = []
    for path, code in code_outside_the_games():
        if path == ROOT / "env/registry/game_list.h":
            continue
        for word in sorted(set(pattern.findall(code))):
            wrong.append(f"{path.relative_to(ROOT)} names {word}")
    assert not wrong, "\n".join(wrong)
