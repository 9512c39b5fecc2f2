#!/usr/bin/env bash
# The wheel as users get it (make wheel-test): a clean virtual environment over Debian's
# Python without its packages, the wheel installed from dist/ with the compilers replaced
# by `false` (a package that needs one fails; moviepy 1.x, the render extra's, comes only
# as a pure-Python sdist), its dependencies held to the pins of
# tools/setup/python_requirements_torch2.txt but gymnasium's (whose version ray[rllib] pins
# exactly, as a user's pip then finds: see that file); then tools/release/wheel/smoke_test.py,
# run from outside the checkout, first on the wheel alone and then with every extra.
set -euo pipefail
venv=$(realpath -m "${1:?usage: test_wheel.sh VENV}")
root=$(cd "$(dirname "$0")/../../.." && pwd)
version=$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' "$root/bindings/python/knightgym/_version.py")
wheels=("$root"/dist/knightgym-"$version"-*manylinux*.whl)
[[ -f "${wheels[0]}" ]] || { echo "no dist/knightgym-$version-*manylinux*.whl: make wheel" >&2; exit 1; }
(( ${#wheels[@]} == 1 )) || { echo "more than one wheel of $version in dist/: ${wheels[*]}" >&2; exit 1; }

rm -rf "$venv"
/usr/bin/python3 -m venv "$venv"
cd "$(mktemp -d)"
grep -v '^gymnasium==' "$root/tools/setup/python_requirements_torch2.txt" > constraints.txt
install() {
  CC=false CXX=false "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    -c constraints.txt "$@"
}
install "${wheels[0]}"
PATH="$venv/bin:$PATH" "$venv/bin/python" "$root/tools/release/wheel/smoke_test.py" base
install "${wheels[0]}[all]"
PATH="$venv/bin:$PATH" "$venv/bin/python" "$root/tools/release/wheel/smoke_test.py" all
