#!/usr/bin/env bash
# Makes the virtual environment VENV (default .venv) over Debian's Python, seeing the
# system's packages (numpy, torch: one libtorch for C++ and Python), and installs
# tools/setup/python_requirements.txt into it from PyPI. Does nothing when VENV is already up
# to date with those files; a failed install leaves no stamp, so the next run tries again.
# tools/setup/python_requirements_nodeps.txt is installed without dependencies (its comment says
# why).
#   tools/setup/make_venv.sh [VENV]
set -euo pipefail
venv=${1:-.venv}
requirements=$(dirname "$0")/python_requirements.txt
without_deps=$(dirname "$0")/python_requirements_nodeps.txt
stamp="$venv/.requirements"
if [[ -f "$stamp" ]] && cat "$requirements" "$without_deps" | cmp -s "$stamp" -; then exit 0; fi

[[ -x "$venv/bin/python" ]] || /usr/bin/python3 -m venv --system-site-packages "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -r "$without_deps"
# The venv must use Debian's numpy and torch, never a copy from PyPI.
"$venv/bin/python" - <<'PY'
import numpy, sys
if not numpy.__file__.startswith("/usr/lib/python3/"):
    sys.exit(f"{numpy.__file__}: the venv has its own numpy; it must use Debian's")
try:
    import torch
except ImportError:
    pass
else:
    if not torch.__file__.startswith("/usr/lib/python3/"):
        sys.exit(f"{torch.__file__}: the venv has its own torch; it must use Debian's")
PY
cat "$requirements" "$without_deps" > "$stamp.tmp" && mv "$stamp.tmp" "$stamp"
