#!/usr/bin/env bash
# Makes the virtual environment VENV (default .venv-torch2) with a current PyTorch from PyPI
# for `make torch2`: over Debian's Python but WITHOUT the system's packages (never Debian's
# torch 1.13 or numpy: one process, one libtorch), holding exactly the pinned packages of
# tools/setup/python_requirements_torch2.txt, installed without resolving (pip --no-deps, the
# file pins every dependency) and then checked (pip check). Does nothing when VENV is
# already up to date with that file; otherwise VENV is made afresh, so that nothing of an
# older list stays. A failed install leaves no stamp, so the next run tries again.
#   tools/setup/make_torch2_venv.sh [VENV]
set -euo pipefail
venv=${1:-.venv-torch2}
requirements=$(dirname "$0")/python_requirements_torch2.txt
stamp="$venv/.requirements"
if [[ -f "$stamp" ]] && cmp -s "$stamp" "$requirements"; then exit 0; fi

rm -rf "$venv"
/usr/bin/python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
  -r "$requirements"
problems=$("$venv/bin/python" -m pip check --disable-pip-version-check) || {
  echo "$problems" >&2
  exit 1
}
# The venv must use its own numpy and torch, and that torch must be the pinned one, built
# with the C++11 ABI like everything g++ compiles here.
torch_pin=$(sed -n 's/^torch==//p' "$requirements")
"$venv/bin/python" - "$venv" "$torch_pin" <<'PY'
import os, sys
import numpy, torch
venv, pin = os.path.realpath(sys.argv[1]), sys.argv[2]
for module in (numpy, torch):
    if not os.path.realpath(module.__file__).startswith(venv + os.sep):
        sys.exit(f"{module.__file__}: the venv must use its own {module.__name__}")
if torch.__version__.split("+")[0] != pin:
    sys.exit(f"torch {torch.__version__} in the venv, {pin} pinned")
if not torch.compiled_with_cxx11_abi():
    sys.exit(f"torch {torch.__version__} is built without the C++11 ABI")
PY
cp "$requirements" "$stamp.tmp" && mv "$stamp.tmp" "$stamp"
