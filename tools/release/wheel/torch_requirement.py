"""The wheel's dependencies (pyproject.toml's [[tool.dynamic-metadata]], run by
scikit-build-core): the fixed ones given as `with`, and the torch the build links. Its
modules and program link that torch's libtorch, whose C++ ABI changes with every minor
release, so the wheel requires the same minor release (patch releases keep the ABI), as
torchvision and torchaudio do."""

from importlib.metadata import PackageNotFoundError, version


def torch_requirement():
    try:
        built = version("torch")
    except PackageNotFoundError as missing:
        raise RuntimeError(
            "the wheel builds against an installed torch: none in this environment"
        ) from missing
    major, minor = (int(part) for part in built.split("+")[0].split(".")[:2])
    return f"torch>={major}.{minor},<{major}.{minor + 1}"


def dynamic_metadata(settings, project):
    del project  # the dependencies need no other field
    return {"dependencies": [*settings.get("with", []), torch_requirement()]}


def dynamic_wheel(settings):
    """The dependencies depend on the environment that builds the wheel, not on the
    source: an sdist's metadata says so (PKG-INFO's Dynamic)."""
    del settings
    return {"dependencies": True}
