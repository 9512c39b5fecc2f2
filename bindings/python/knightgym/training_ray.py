"""Self-play on a Ray cluster for a training run: what
`knightgym.training.train(..., ray_address=...)` and `knightgym train GAME --ray ADDRESS`
use.

The learner (the C++ trainer, in the driver process, on its GPU if it has one) takes the
run's self-play chunks in order (training/distributed/actor_games.h); RayChannel carries
them. It keeps self-play actors on the cluster's CPUs, one per CPU and one thread each,
spread over the nodes; each plays the chunks it is given with
`_knightgym_torch.SelfPlayActor` and the weights named with the chunk, fetching a version
from the object store the first time it needs it. At most CALLS_PER_ACTOR chunks wait on
an actor, so it never idles between two, and no more than the learner asked for are ever
out (`chunks_ahead`).

An actor that dies (SIGKILL, its node gone) is restarted by Ray; the chunks it held are
played again, by whichever actor answers first, with the weights they were asked with:
the same games, so none is lost or counted twice. An actor is given no work until it
answers a ping, so one that cannot come back (no node left for it) holds nothing up.
"""

import bisect
import logging
import os
import sys
import time

from knightgym._optional import extra
from knightgym.ray_cluster import connect

__all__ = ["RayChannel", "SelfPlayActor"]

CALLS_PER_ACTOR = 2  # one chunk playing, one waiting
WAIT_SECONDS = 0.5  # the longest a wait blocks, so that a stop is seen at once
PING_RETRY_SECONDS = 2.0  # between pings of an actor that has not come back

_log = logging.getLogger(__name__)


class SelfPlayActor:
    """A Ray actor (one CPU): plays self-play chunks of one run."""

    def __init__(self, game, settings):
        from knightgym import _knightgym_torch

        self._actor = _knightgym_torch.SelfPlayActor(game, settings, "cpu", 1)

    def ready(self):
        return os.getpid()

    def play(self, number, version, weights):
        """Chunk `number` with the weights of `version` (weights: [an object ref to their
        bytes], in a list so that Ray hands the reference over unfetched):
        (bytes, decisions, seconds)."""
        import ray

        if self._actor.version != version:
            self._actor.set_weights(version, ray.get(weights[0]))
        return self._actor.play(number)


class RayChannel:
    """The channel of `_knightgym_torch.Training.run`: publish, request, receive and
    actor_rates, over `actors` SelfPlayActors of the cluster at `address` (None: one per
    CPU of the cluster), which start(game, settings) makes. `stop` (a threading.Event)
    makes receive return b"" at once. Connects on construction (unless Ray is already
    connected); close() ends the actors and the connection."""

    def __init__(self, address, stop, actors=None):
        with extra("ray", __name__):
            import ray

        self._ray = ray
        self._owns_connection = connect(address)
        cpus = int(ray.cluster_resources().get("CPU", 0))
        if actors is None and cpus < 1:
            self._disconnect()
            raise ValueError(f"the Ray cluster at {address} has no CPU for an actor")
        self._count = cpus if actors is None else actors
        self._actors = []
        self._stop = stop
        self._weights = None  # (version, object ref) last published
        self._waiting = []  # (number, version, ref) asked for and given to no actor, by number
        self._out = {}  # call ref -> (number, version, weights ref, actor)
        self._load = [0] * self._count  # calls out per actor
        # Actors lost: actor -> the time to ping it again, or None while a ping is out
        # (in _ping_refs: ref -> actor). An actor takes work again once it answers.
        self._pings = {}
        self._ping_refs = {}
        self._done = {}  # number -> bytes, played and not yet received
        self._decisions = [0] * self._count  # per actor, since actor_rates last asked

    def start(self, game, settings):
        """Makes the actors, for the run of `game` with `settings` (canonical, as
        Training gives them), spread over the nodes."""
        remote = self._ray.remote(num_cpus=1, max_restarts=-1, max_task_retries=0)(SelfPlayActor)
        self._actors = [
            remote.options(scheduling_strategy="SPREAD").remote(game, settings)
            for _ in range(self._count)
        ]

    @property
    def actors(self):
        return self._count

    def close(self):
        for actor in self._actors:
            self._ray.kill(actor)
        self._actors, self._out, self._done, self._waiting = [], {}, {}, []
        self._ping_refs = {}
        self._disconnect()

    def _disconnect(self):
        if self._owns_connection and self._ray.is_initialized():
            self._ray.shutdown()

    # The channel's methods, called by the trainer.

    def publish(self, version, weights):
        self._weights = (version, self._ray.put(weights))

    def request(self, number):
        bisect.insort(self._waiting, (number, *self._weights), key=lambda w: w[0])
        self._dispatch()

    def receive(self, number):
        ray = self._ray
        while number not in self._done:
            if self._stop.is_set():
                return b""
            self._dispatch()
            refs = list(self._out) + list(self._ping_refs)
            if not refs:  # every actor gone and none pinged yet
                time.sleep(WAIT_SECONDS)
                continue
            ready, _ = ray.wait(refs, num_returns=1, timeout=WAIT_SECONDS)
            for ref in ready:
                self._collect(ref)
        return self._done.pop(number)

    def actor_rates(self, seconds):
        rates = [d / max(seconds, 1e-9) for d in self._decisions]
        self._decisions = [0] * len(self._actors)
        return rates

    # Actors and their calls.

    def _dispatch(self):
        now = time.monotonic()
        for actor, again in list(self._pings.items()):
            if again is not None and now >= again:
                self._ping(actor)
        while self._waiting:
            free = [
                a
                for a in range(len(self._actors))
                if a not in self._pings and self._load[a] < CALLS_PER_ACTOR
            ]
            if not free:
                return
            actor = min(free, key=lambda a: self._load[a])
            number, version, weights = self._waiting.pop(0)
            ref = self._actors[actor].play.remote(number, version, [weights])
            self._out[ref] = (number, version, weights, actor)
            self._load[actor] += 1

    def _ping(self, actor):
        self._pings[actor] = None
        self._ping_refs[self._actors[actor].ready.remote()] = actor

    def _collect(self, ref):
        ray = self._ray
        lost = (ray.exceptions.RayActorError, ray.exceptions.ObjectLostError)
        if ref in self._ping_refs:
            actor = self._ping_refs.pop(ref)
            try:
                ray.get(ref)
                del self._pings[actor]  # back: it takes work again
            except lost:
                self._pings[actor] = time.monotonic() + PING_RETRY_SECONDS
            return
        number, version, weights, actor = self._out.pop(ref)
        self._load[actor] -= 1
        try:
            data, decisions, _ = ray.get(ref)
        except lost as error:
            # Played again, with the weights it was asked with.
            bisect.insort(self._waiting, (number, version, weights), key=lambda w: w[0])
            if actor not in self._pings:
                print(
                    f"knightgym: self-play actor {actor} lost ({type(error).__name__}); "
                    f"its chunks are played again",
                    file=sys.stderr,
                )
                self._ping(actor)
            return
        except ray.exceptions.RayTaskError as error:
            raise RuntimeError(
                f"self-play chunk {number} failed on actor {actor}: "
                f"{error.cause if error.cause else error}"
            ) from None
        self._done[number] = data
        self._decisions[actor] += decisions
