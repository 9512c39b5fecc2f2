"""Builds the compiled module with CMake (see pyproject.toml for the package metadata).

pip install --no-build-isolation .
"""

import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        output_dir = Path(self.get_ext_fullpath(ext.name)).parent.resolve()
        build_dir = Path(self.build_temp).resolve() / "cmake"
        subprocess.check_call(
            [
                "cmake",
                "-S",
                str(ROOT),
                "-B",
                str(build_dir),
                "-G",
                "Ninja",
                "-DCMAKE_BUILD_TYPE=Release",
                f"-DPython_EXECUTABLE={sys.executable}",
                "-DKNIGHTGYM_TESTS=OFF",
                f"-DKNIGHTGYM_PYTHON_OUTPUT_DIR={output_dir}",
            ]
        )
        subprocess.check_call(
            ["cmake", "--build", str(build_dir), "--target", "_knightgym", "_knightgym_torch"]
        )
        # The shipped networks travel with the package (knightgym/__init__.py points at them).
        shutil.copytree(ROOT / "models", output_dir / "models", dirs_exist_ok=True)


setup(ext_modules=[CMakeExtension("knightgym._knightgym")], cmdclass={"build_ext": CMakeBuild})
