"""Python values as the text of game specs, one rule for every caller (make, balance)."""


def spec_value(value):
    """A parameter value as spec text: booleans as true/false, anything else as str()."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
