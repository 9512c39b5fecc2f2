"""Imports of optional dependencies, each installed by an extra of pyproject.toml's
[project.optional-dependencies]. A missing one fails as a ModuleNotFoundError that names
the knightgym module needing it, the missing package and the extra that brings it,
instead of Python's bare "No module named ...":

    with extra("gymnasium", __name__):
        import gymnasium
        from gymnasium import spaces
"""

import contextlib
import importlib.metadata
import warnings

# The oldest Gymnasium that knightgym.gymnasium works with (gymnasium.vector.AutoresetMode),
# the gymnasium extra's lower bound.
OLDEST_GYMNASIUM = (1, 1)


@contextlib.contextmanager
def extra(name, module):
    """Within, a ModuleNotFoundError becomes one saying that `module` needs the missing
    package and that `pip install "knightgym[name]"` brings it: its `name` the missing
    top-level module (as Python's own error has it), its cause the original error."""
    try:
        yield
    except ModuleNotFoundError as error:
        if error.name is None:  # raised by hand, naming no module: nothing to add
            raise
        missing = error.name.partition(".")[0]
        raise ModuleNotFoundError(
            f'{module} needs {missing}: pip install "knightgym[{name}]"', name=missing
        ) from error


def supported_gymnasium():
    """Whether the installed Gymnasium is one knightgym.gymnasium works with; if not, a
    warning saying which extra brings one, so that `import knightgym` goes on without it."""
    installed = importlib.metadata.version("gymnasium")
    release = tuple(int(part) for part in installed.split(".")[:2] if part.isdigit())
    if release >= OLDEST_GYMNASIUM:
        return True
    oldest = ".".join(map(str, OLDEST_GYMNASIUM))
    warnings.warn(
        f"Gymnasium {installed} is older than {oldest}, which knightgym.gymnasium needs: "
        f'its ids are not registered (pip install "knightgym[gymnasium]")',
        stacklevel=3,
    )
    return False
