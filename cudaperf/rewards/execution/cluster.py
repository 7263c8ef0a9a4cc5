"""The engine on a Ray cluster: `Evaluator(backend="ray", address=...)`, `cudaperf eval --ray ADDRESS`.

One actor per GPU on every node (`num_gpus=1`, pinned to its node), each holding a local
`Evaluator`, i.e. the usual worker pool for its one GPU.  An actor takes several candidates at a
time (`per_actor`, default the node's CPUs over its GPUs): their gate and compile stages run in
parallel on that node's CPU cores while earlier ones use the GPU, so compiles spread over the CPUs of
the whole cluster and a cubin or built extension never has to travel.  The compile cache is
therefore per node (`$CUDAPERF_CACHE_DIR/exec` on each); `cache_dir=` points every actor at one
path instead, e.g. a shared filesystem (writes are atomic renames, builds are serialised with
`flock`, which the filesystem must support).

The driver keeps at most `per_actor` candidates in flight per actor and the rest in its own queue
(back-pressure: a batch of any size never floods the actors or the object store).  An actor that
dies with its node fails its calls with `RayActorError`; those candidates go back to the front of
the queue for the surviving actors (or for actors started on nodes that joined), so no result is
lost; a candidate whose actor died `max_attempts` times comes back as `runtime_error`.  Results are
the local engine's `ExecResult`s, in input order, with one log line naming the node.

Without GPUs (`Options(device="cpu")`, the tests, or a cluster of CPU nodes) there is one actor per
node with a CPU.  Ray is an optional dependency (`pip install "cudaperf[ray]"`), imported here only."""

from __future__ import annotations

import socket
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import replace

from .formats import Candidate, FormatError, Task
from .options import Options
from .result import ExecResult

MAX_ATTEMPTS = 3        # actors lost while holding one candidate before it is given up
POLL_SECONDS = 1.0      # how often the driver looks for new nodes while waiting


class ClusterError(ConnectionError):
    """The cluster has no node the engine can run on (none at start, or every one died)."""


def _ray():
    try:
        import ray
    except ImportError:
        raise ImportError('the Ray backend needs Ray: pip install "cudaperf[ray]"') from None
    return ray


def _reachable(address: str | None, timeout: float = 5.0) -> None:
    """Fail at once on a host:port nobody answers (ray.init would retry for minutes)."""
    if not address or "://" in address or ":" not in address:
        return
    host, _, port = address.rpartition(":")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except (OSError, ValueError) as exc:
        raise ClusterError(f"no Ray cluster answers at {address} ({exc})") from None


class NodeEngine:
    """Runs inside a Ray actor: the local engine for the GPU Ray assigned (CUDA_VISIBLE_DEVICES)."""

    def __init__(self, options: Options, engine: type):
        self.evaluator = engine(options)
        self.node = _ray().get_runtime_context().get_node_id()

    def hello(self) -> dict:
        return {**self.evaluator.hello, "node": self.node}

    def expect(self, recycling: int) -> None:
        """Warm spare workers for a batch in which `recycling` candidates use up their worker."""
        if self.evaluator.gpus:
            self.evaluator.pool.expect(recycling)

    def evaluate(self, task: Task, candidate: Candidate) -> dict:
        result = self.evaluator.evaluate(task, candidate)
        result.log.append(f"ray node {self.node}")
        return result.to_json()

    def close(self) -> None:
        self.evaluator.close()


class _Actor:
    """The driver's handle on one NodeEngine actor and the candidates it holds."""

    def __init__(self, handle, node: str, capacity: int):
        self.handle, self.node, self.capacity = handle, node, capacity
        self.held: set[int] = set()

    @property
    def free(self) -> int:
        return self.capacity - len(self.held)


class RayEvaluator:
    """The same interface as the local `Evaluator` (evaluate, evaluate_many, hello, close), on a Ray
    cluster.  `address`: a running cluster ("auto", "ray://host:10001", "host:6379"); None connects
    to one already initialised in this process or starts a local one.  `engine`: the local engine class
    each actor runs (api.Evaluator, which makes this one for `backend="ray"`)."""

    def __init__(self, options: Options | None = None, address: str | None = None, *, engine: type,
                 per_actor: int | None = None, cache_dir: str | None = None, max_attempts: int = MAX_ATTEMPTS):
        ray = _ray()
        self.options = replace(options or Options(), gpus=None)   # each actor sees only its own GPU
        self._owns_ray = not ray.is_initialized()
        if self._owns_ray:
            _reachable(address)
            ray.init(address=address, log_to_driver=False)
        self.engine, self.per_actor, self.max_attempts = engine, per_actor, max_attempts
        self.runtime_env = {"env_vars": {"CUDAPERF_CACHE_DIR": cache_dir}} if cache_dir else None
        self.actors: list[_Actor] = []
        self._hello: dict | None = None
        self._start_actors()
        if not self.actors:
            self.close()
            raise ClusterError("the Ray cluster has no node with a GPU or CPU to run an engine actor on")

    # -- actors --
    def _wanted(self) -> list[tuple[str, int, int, bool]]:
        """(node id, actors, candidates per actor, whether each takes a GPU) for every live node: one
        actor per GPU, or one per node with a CPU when no node has a GPU (or device="cpu")."""
        nodes = [n for n in _ray().nodes() if n.get("Alive")]
        use_gpus = self.options.device == "cuda" and any(n["Resources"].get("GPU", 0) >= 1 for n in nodes)
        wanted = []
        for node in nodes:
            cpus, gpus = node["Resources"].get("CPU", 0), int(node["Resources"].get("GPU", 0))
            count = gpus if use_gpus else int(cpus >= 1)
            if count:
                wanted.append((node["NodeID"], count, self.per_actor or max(2, int(cpus) // count), use_gpus))
        return wanted

    def _start_actors(self) -> None:
        """Start actors on live nodes that have none (at start, and when nodes die or join)."""
        ray = _ray()
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        remote = ray.remote(NodeEngine)
        have = {a.node for a in self.actors}
        for node, count, capacity, gpu in self._wanted():
            if node in have:
                continue
            for _ in range(count):
                handle = remote.options(
                    num_gpus=int(gpu), num_cpus=1,
                    max_concurrency=capacity + 2, max_restarts=0, runtime_env=self.runtime_env,
                    scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=False),
                ).remote(self.options, self.engine)
                self.actors.append(_Actor(handle, node, capacity))

    @property
    def hello(self) -> dict:
        """The first actor's worker's hello, with its node id."""
        if self._hello is None:
            ray = _ray()
            for actor in list(self.actors):
                try:
                    self._hello = ray.get(actor.handle.hello.remote())
                    break
                except ray.exceptions.RayActorError:
                    self._drop(actor)
            else:
                self._hello = {"gpu": False, "torch": None}
        return self._hello

    @property
    def has_gpu(self) -> bool:
        return bool(self.hello.get("gpu"))

    @property
    def runs(self) -> bool:
        return self.has_gpu or (self.options.device == "cpu" and self.hello.get("torch") is not None)

    def _drop(self, actor: _Actor) -> None:
        if actor in self.actors:
            self.actors.remove(actor)
            try:
                _ray().kill(actor.handle)
            except Exception:  # the actor's node is already gone
                pass

    # -- evaluation --
    def evaluate(self, task: Task, candidate: Candidate) -> ExecResult:
        return self.evaluate_many(task, [candidate])[0]

    def evaluate_many(self, task: Task, candidates: Sequence[Candidate],
                      progress: Callable[[int, int, ExecResult], None] | None = None,
                      cpu_workers: int | None = None) -> list[ExecResult]:
        """Results in input order.  At most `capacity` candidates per actor are in flight; the rest
        wait here.  `cpu_workers` is the local engine's knob (compile threads); here each actor's
        `per_actor` plays that part."""
        ray = _ray()
        self._start_actors()   # nodes that joined since the last batch
        task_ref = ray.put(task)
        recycling = sum(c.kind == "python" for c in candidates)
        if recycling:
            for actor in self.actors:
                actor.handle.expect.remote(-(-recycling // len(self.actors)))
        queue = deque(range(len(candidates)))
        attempts = [0] * len(candidates)
        started = [0.0] * len(candidates)
        lost: list[list[str]] = [[] for _ in candidates]
        results: list[ExecResult | None] = [None] * len(candidates)
        inflight: dict = {}   # object ref -> (candidate index, actor)
        done = 0

        def finish(i: int, result: ExecResult) -> None:
            nonlocal done
            result.seconds = time.perf_counter() - started[i]
            result.log.extend(lost[i])
            results[i], done = result, done + 1
            if progress:
                progress(done, len(candidates), result)

        while done < len(candidates):
            self._dispatch(queue, inflight, candidates, task_ref, started)
            if not inflight:
                self._start_actors()
                if not self.actors:
                    raise ClusterError(f"every Ray node running the engine is gone ({len(queue)} candidates left)")
                time.sleep(POLL_SECONDS)
                continue
            ready, _ = ray.wait(list(inflight), num_returns=1, timeout=POLL_SECONDS)
            dropped = False
            for ref in ready:
                i, actor = inflight.pop(ref)
                actor.held.discard(i)
                try:
                    finish(i, ExecResult.from_json(ray.get(ref)))
                except (ray.exceptions.RayActorError, ray.exceptions.ActorUnavailableError):
                    attempts[i] += 1
                    lost[i].append(f"retried: the actor on node {actor.node} died (attempt {attempts[i]})")
                    self._drop(actor)
                    dropped = True
                    if attempts[i] >= self.max_attempts:
                        finish(i, ExecResult("runtime_error", f"{attempts[i]} engine actors died while holding "
                                                              "this candidate", candidate=candidates[i].label))
                    else:
                        queue.appendleft(i)
                except ray.exceptions.RayTaskError as exc:
                    if isinstance(exc.cause, FormatError):
                        raise exc.cause from None
                    raise
            if dropped:   # a node that joined (or came back) takes the dead one's share
                self._start_actors()
        return [r for r in results if r is not None]

    def _dispatch(self, queue: deque, inflight: dict, candidates: Sequence[Candidate], task_ref,
                  started: list[float]) -> None:
        """Hand queued candidates to the actors with the most free room until none has any."""
        while queue:
            actor = max(self.actors, key=lambda a: a.free, default=None)
            if actor is None or actor.free <= 0:
                return
            i = queue.popleft()
            started[i] = started[i] or time.perf_counter()
            actor.held.add(i)
            inflight[actor.handle.evaluate.remote(task_ref, candidates[i])] = (i, actor)

    def close(self) -> None:
        ray = _ray()
        closing = [a.handle.close.remote() for a in self.actors]
        try:
            ray.get(closing, timeout=60)
        except Exception:  # dead actors cannot close; their workers exit on EOF
            pass
        for actor in list(self.actors):
            self._drop(actor)
        if self._owns_ray and ray.is_initialized():
            ray.shutdown()

    def __enter__(self) -> RayEvaluator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
