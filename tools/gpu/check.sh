#!/usr/bin/env bash
# On a GPU machine whose python3 holds PyTorch with CUDA (the device tool's machines):
# builds knightgym against that PyTorch, runs the Python tests that need LibTorch, then
# trains MaskablePPO on CUDA on GAME against its shipped network searching on CUDA, in one
# process holding one libtorch. The machine reaches no index, so what it lacks is carried in
# CARRIED: wheels/ (pip download of the pure-Python packages: gymnasium, pettingzoo,
# stable-baselines3, sb3-contrib, ...) and eigen/ (Debian's Eigen headers and CMake
# files, as prefix/include/eigen3 and prefix/share/eigen3/cmake).
#   tools/gpu/check.sh CARRIED GAME
set -euo pipefail
carried=$(realpath "${1:?usage: tools/gpu/check.sh CARRIED GAME}")
game=${2:?usage: tools/gpu/check.sh CARRIED GAME}
python3 -c "import sys, torch, numpy; print('python', sys.version.split()[0], 'torch', \
torch.__version__, 'numpy', numpy.__version__, torch.cuda.get_device_name(0))"
# Its python3 is itself a venv's, which a nested venv would not see: the carried packages
# go to a folder of their own on PYTHONPATH instead.
python3 -m pip install -q --no-index --no-deps --target /tmp/knightgym-packages \
  "$carried"/wheels/*.whl
export PYTHONPATH=/tmp/knightgym-packages
python=$(command -v python3)
start=$SECONDS
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE="$python" \
  -DEigen3_DIR="$carried/eigen/share/eigen3/cmake" -DKNIGHTGYM_TESTS=OFF > /dev/null
cmake --build build-gpu -j "$(nproc)" --target _knightgym _knightgym_torch knightgym_cli | tail -1
echo "configure and build: $((SECONDS - start)) s"
OMP_NUM_THREADS=1 PYTHONPATH=build-gpu/python:$PYTHONPATH $python -m pytest tests/python -q -p no:cacheprovider -n 8 \
  -m needs_networks 2>&1 | tail -3
OMP_NUM_THREADS=1 PYTHONPATH=build-gpu/python:$PYTHONPATH $python -m pytest tests/python/test_sb3.py tests/python/test_env_copies.py \
  -q -p no:cacheprovider -n 8 -k "native or maskable or square or copy or snapshot" 2>&1 | tail -3
PYTHONPATH=build-gpu/python:$PYTHONPATH $python tools/gpu/sb3_cuda.py "$game"
