"""Specs as text, one rule for every caller: Python values as the text of game specs
(make, balance), and agent specs read by the C++ parser (agents.parse_spec), so that a
value in brackets with commas inside reads as it does on the command line."""

from knightgym import _knightgym


def spec_value(value):
    """A parameter value as spec text: booleans as true/false, anything else as str()."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def spec_params(params):
    """Keyword parameters ({key: value}) as the (key, text) pairs that the C++ entry points
    taking a spec set over its own (make_spec, load_game, VectorEnv, OpponentEnv)."""
    return [(key, spec_value(value)) for key, value in params.items()]


def agent_params(spec):
    """(kind, {key: value}) of an agent spec as written; ValueError if it is not a spec."""
    kind, params = _knightgym.agents.parse_spec(spec)
    return kind, dict(params)


def agent_spec(kind, params):
    """The spec of `kind` with `params` ({key: value}), a value with commas in brackets."""
    written = [
        f"{key}=[{value}]" if "," in value else f"{key}={value}" for key, value in params.items()
    ]
    return f"{kind}:{','.join(written)}" if written else kind


def agent_label(spec):
    """An agent spec's kind and budget, for titles and tables: "az:sims=64",
    "uci:nodes=1000", "random" (balance.json and balance.md name it in full)."""
    kind, values = agent_params(spec)
    budget = next((f"{key}={values[key]}" for key in ("sims", "nodes") if key in values), "")
    return f"{kind}:{budget}" if budget else kind
