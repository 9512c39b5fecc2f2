#!/usr/bin/env bash
# Installs the Debian packages knightgym needs, if any is missing. Everything comes from
# Debian's archive; nothing is downloaded from anywhere else.
set -euo pipefail

packages=(
  g++ cmake ninja-build make ccache
  python3 python3-dev python3-numpy python3-pytest python3-pytest-xdist python3-setuptools
  python3-pip
  pybind11-dev python3-pybind11 catch2 libeigen3-dev
  libtorch-dev python3-torch python3-matplotlib python3-tqdm python3-scipy python3-statsmodels
  python3-requests python3-yaml python3-psutil python3-pandas python3-cairosvg python3-pil
  python3-venv fairy-stockfish clang-format shellcheck time
  chromium chromium-driver python3-selenium fonts-dejavu-core
  clang-16 libclang-rt-16-dev
)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "Installing missing Debian packages: ${missing[*]}"
sudo=()
[[ $(id -u) -eq 0 ]] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
