"""Balance runs on a Ray cluster: what `knightgym.balance.run(..., ray_address=...)`
and `knightgym balance ... --ray ADDRESS` use.

The C++ run (training/balance/) cuts every rule set's games into numbered chunks and
folds their tallies in chunk order; here each Ray task plays a few consecutive chunks
with `_knightgym.BalanceChunkPlayer` and returns their tallies, serialized exactly. A
chunk's tally depends on the options and its number alone, so the figures equal a
one-machine run's to the last bit, however the chunks are shared out. A task whose
worker or node dies is run again by Ray (`max_retries`), so no game is lost; an error
raised by the games themselves is not retried but stops the run.

Every node needs the same knightgym build at the same path (knightgym.ray_cluster).
"""

import collections
import time

from knightgym import _knightgym
from knightgym._optional import extra
from knightgym.ray_cluster import connect

__all__ = ["RayRunner"]

# Tasks aim at this many seconds of games: long enough that Ray's overhead per task
# (a few milliseconds) is small, short enough that a lost worker costs little.
TASK_SECONDS = 2.0
MOST_CHUNKS_PER_TASK = 64  # keeps a task's tallies under Ray's 100 KB inline limit
# Tasks in flight per CPU of the cluster.
TASKS_PER_CPU = 2

# In a worker process: the chunk player of the run whose options it last saw, so its
# agents (a network) load once per process, not once per task.
_cached_player = (None, None)


def _player(options):
    global _cached_player
    key = repr(sorted(options.items()))
    if _cached_player[0] != key:
        _cached_player = (key, _knightgym.BalanceChunkPlayer(**options))
    return _cached_player[1]


def play_chunks(options, rule_set, first, count):
    """The Ray task: the serialized tallies of chunks [first, first + count) and the
    seconds they took."""
    start = time.monotonic()
    tallies = _player(options).play(rule_set, first, count)
    return tallies, time.monotonic() - start


class RayRunner:
    """A runner for `_knightgym.run_balance`: plays chunks as Ray tasks, at most
    TASKS_PER_CPU per CPU of the cluster in flight, and hands the tallies on in chunk
    order. Connects on construction (unless Ray is already connected) and disconnects in
    close()."""

    def __init__(self, address, options):
        with extra("ray", __name__):
            import ray

        self._ray = ray
        self._owns_connection = connect(address)
        self.cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._options = options
        self._task = ray.remote(num_cpus=1, max_retries=8, retry_exceptions=False)(play_chunks)
        self._seconds_per_chunk = None

    def close(self):
        if self._owns_connection and self._ray.is_initialized():
            self._ray.shutdown()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _chunks_per_task(self):
        if not self._seconds_per_chunk:
            return 1
        return max(1, min(MOST_CHUNKS_PER_TASK, round(TASK_SECONDS / self._seconds_per_chunk)))

    def __call__(self, rule_set, first, count, consume):
        ray = self._ray
        pending = collections.deque()
        next_chunk, end = first, first + count
        try:
            while next_chunk < end or pending:
                while next_chunk < end and len(pending) < TASKS_PER_CPU * self.cpus:
                    size = min(self._chunks_per_task(), end - next_chunk)
                    pending.append(
                        (self._task.remote(self._options, rule_set, next_chunk, size), size)
                    )
                    next_chunk += size
                ref, size = pending[0]
                # Short waits keep Ctrl-C prompt.
                if not ray.wait([ref], timeout=0.5)[0]:
                    continue
                pending.popleft()
                tallies, seconds = ray.get(ref)
                per_chunk = seconds / size
                self._seconds_per_chunk = (
                    per_chunk
                    if self._seconds_per_chunk is None
                    else 0.7 * self._seconds_per_chunk + 0.3 * per_chunk
                )
                for tally in tallies:
                    consume(tally)
        finally:
            for ref, _ in pending:
                ray.cancel(ref, force=True)
