"""The snippets of docs/api.md that show each library's way in run as they are: the
first Python block of each section below, in make test all but those whose libraries
need PyTorch 2 (make torch2 runs those)."""

import pathlib
import re

import pytest
from conftest import NEEDS_TORCH_2, TORCH_2

API = pathlib.Path(__file__).resolve().parent.parent.parent / "docs" / "api.md"

# Section title: the modules its snippet needs.
SECTIONS = {
    "Gymnasium": ["gymnasium"],
    "PettingZoo": ["pettingzoo"],
    "Stable-Baselines3": ["stable_baselines3", "sb3_contrib"],
    "OpenSpiel": ["pyspiel"],
    "RLlib": ["ray.rllib", "torch"],
    "Tianshou": ["tianshou"],
}
# Those whose libraries need PyTorch 2, which make torch2 brings.
NEEDING_TORCH_2 = {"RLlib", "Tianshou"}


def snippet(title):
    """The first ```python block of the section `## title`."""
    text = API.read_text()
    section = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert section, f"docs/api.md has no section '## {title}'"
    block = re.search(r"^```python\n(.*?)^```", section.group(1), re.M | re.S)
    assert block, f"the section '## {title}' has no Python snippet"
    return block.group(1)


@pytest.mark.parametrize("title", sorted(SECTIONS))
def test_the_snippet_runs(title):
    if title in NEEDING_TORCH_2 and not TORCH_2:
        pytest.skip(NEEDS_TORCH_2)
    for module in SECTIONS[title]:
        pytest.importorskip(module)
    code = snippet(title)
    exec(compile(code, f"docs/api.md ({title})", "exec"), {"__name__": "snippet"})
