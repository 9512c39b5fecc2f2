"""MaskablePPO on CUDA against the shipped network searching on CUDA, in one process:
the steps per second, and the libtorch libraries the process maps (one of each).
(The check phase of tools/gpu/run.sh runs it on a GPU machine.)

    tools/gpu/sb3_cuda.py GAME
"""

import sys
import time

from knightgym import sb3
from sb3_contrib import MaskablePPO

if len(sys.argv) != 2:
    sys.exit("usage: tools/gpu/sb3_cuda.py GAME")
envs = sb3.VecEnv(
    sys.argv[1], num_envs=64, seed=0, opponent="az:model=pretrained,sims=16,device=cuda"
)
model = MaskablePPO(
    sb3.BoardPolicy,
    envs,
    n_steps=64,
    batch_size=512,
    n_epochs=4,
    learning_rate=1e-3,
    device="cuda",
    seed=0,
)
start = time.monotonic()
model.learn(64 * 64 * 4)
seconds = time.monotonic() - start
with open("/proc/self/maps") as maps:
    libraries = sorted({line.split()[-1] for line in maps if "libtorch" in line})
print(
    f"MaskablePPO on {model.device} against az:sims=16 on cuda: {64 * 64 * 4} steps in "
    f"{seconds:.1f} s; libtorch mapped: {libraries}"
)
assert sum("libtorch_cpu" in path for path in libraries) == 1
