# knightgym's version, in one place: knightgym.__version__, and pyproject.toml reads this
# line for the package's metadata.
__version__ = "0.1.0"
