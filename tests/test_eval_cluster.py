"""The Ray backend on a local multi-node cluster (ray.cluster_utils.Cluster: real raylets, one per
node, on this machine) with the engine's CPU device mode.  Candidates sleep in `forward`, standing in
for GPU work that does not load the driver's cores, so wall time measures the scheduling: spread over
nodes, a node killed mid-batch, throughput as nodes join.  Slow (a cluster start, torch imports),
except the CLI's answer to an address nobody serves."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from cudaperf.rewards.execution.api import Evaluator, Options
from cudaperf.rewards.execution.cluster import RayEvaluator
from cudaperf.rewards.execution.formats import candidate_from_source, task_from_source

pytest.importorskip("torch")
ray = pytest.importorskip("ray")
from ray.cluster_utils import Cluster  # noqa: E402

REFERENCE = textwrap.dedent('''
    import torch, torch.nn as nn
    class Model(nn.Module):
        def forward(self, a, b):
            return 2.0 * a + b
    def get_inputs():
        return [torch.randn(1024), torch.randn(1024)]
    def get_init_inputs():
        return []
''')
SLEEP_S = 1.0   # per forward call: a trial, its determinism re-run, the re-check


def _candidate(n: int, body: str = "return 2.0 * a + b") -> object:
    source = textwrap.dedent(f'''
        import time, torch, torch.nn as nn
        class ModelNew(nn.Module):
            def forward(self, a, b):
                time.sleep({SLEEP_S})
                {body}
    ''')
    return candidate_from_source(source, "python", path=f"cand{n}.py")


NODE = {"num_cpus": 1, "object_store_memory": 80 << 20}
SYSTEM = {"health_check_initial_delay_ms": 0, "health_check_period_ms": 500, "health_check_failure_threshold": 3}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    os.environ["CUDAPERF_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    # The head runs no engine (no CPU to offer): actors go to the worker nodes only.
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "object_store_memory": 80 << 20,
                                                      "include_dashboard": False, "_system_config": SYSTEM})
    first = c.add_node(**NODE)
    c.wait_for_nodes()
    ray.init(address=c.address, log_to_driver=False)
    options = Options(device="cpu", gate=False, time=False, trials=1, spare_workers=1, run_timeout=60)
    evaluator = Evaluator(options, backend="ray")
    yield c, first, evaluator
    evaluator.close()
    ray.shutdown()
    c.shutdown()


def _nodes(results) -> set[str]:
    return {line.split()[-1] for r in results for line in r.log if line.startswith("ray node ")}


@pytest.mark.slow
def test_ray_backend_results_match_the_local_engine_in_shape_and_scale_with_nodes(cluster):
    c, _, evaluator = cluster
    assert isinstance(evaluator, RayEvaluator)
    task = task_from_source(REFERENCE, "torch")
    wrong = _candidate(99, "return 2.0 * a + b + 1.0")
    warm = evaluator.evaluate_many(task, [_candidate(0), wrong])     # actor start, first worker
    assert [r.status for r in warm] == ["correct", "incorrect"]
    with Evaluator(Options(device="cpu", gate=False, time=False, trials=1)) as local:
        reference = local.evaluate(task, wrong)
    assert set(warm[1].to_json()) == set(reference.to_json())
    assert (warm[1].reason, warm[1].rule) == (reference.reason, reference.rule)

    batch = [_candidate(n) for n in range(1, 7)]
    start = time.perf_counter()
    one = evaluator.evaluate_many(task, batch)
    one_node = time.perf_counter() - start

    c.add_node(**NODE)
    c.wait_for_nodes()
    evaluator.evaluate_many(task, [_candidate(10), _candidate(11)])  # the new node's actor starts
    start = time.perf_counter()
    two = evaluator.evaluate_many(task, batch)
    two_nodes = time.perf_counter() - start

    assert [r.status for r in one + two] == ["correct"] * 12
    assert [r.candidate for r in two] == [c.label for c in batch]   # input order
    assert len(_nodes(one)) == 1 and len(_nodes(two)) == 2
    print(f"6 candidates: 1 node {one_node:.1f} s, 2 nodes {two_nodes:.1f} s")
    assert two_nodes < 0.8 * one_node


@pytest.mark.slow
def test_a_node_killed_mid_batch_loses_no_candidate(cluster):
    c, first, evaluator = cluster
    task = task_from_source(REFERENCE, "torch")
    if len(evaluator.actors) < 2:
        c.add_node(**NODE)
        c.wait_for_nodes()
        evaluator.evaluate_many(task, [_candidate(20), _candidate(21)])
    killed: list[str] = []

    def kill_after_first(done, total, result):
        if done == 1:
            victim = next(n for n in c.worker_nodes if n is not first)
            killed.append(victim.node_id)
            c.remove_node(victim, allow_graceful=False)

    batch = [_candidate(n) for n in range(30, 38)]
    results = evaluator.evaluate_many(task, batch, progress=kill_after_first)
    assert [r.status for r in results] == ["correct"] * len(batch)
    assert [r.candidate for r in results] == [c.label for c in batch]
    retried = [r for r in results if any(line.startswith("retried: ") for line in r.log)]
    assert retried and all(killed[0] in line for r in retried for line in r.log if line.startswith("retried"))
    assert _nodes(retried) == {first.node_id}


def test_cli_with_an_address_nobody_serves_is_a_usage_error():
    example = Path(__file__).parents[1] / "examples" / "eval" / "scale_add"
    done = subprocess.run([sys.executable, "-m", "cudaperf", "eval", "--ray", "127.0.0.1:9", "--reference",
                           str(example / "reference.py"), "--candidate", str(example / "candidate_native.cu")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "no Ray cluster answers at 127.0.0.1:9" in done.stderr


def test_h200_run_ray_backend_keeps_the_local_engines_throughput():
    """benchmarks/cluster_h200.sh on one H200 (the only kind lent in that session): every candidate
    correct on both backends, and the Ray path costs at most 20% of the local engine's throughput."""
    import json

    data = json.loads((Path(__file__).parent / "data" / "h200" / "cluster" / "bench_cluster.json").read_text())
    for kind in ("native", "kernelbench"):
        local, cluster = data[f"local_1gpu/{kind}"], data[f"ray_1gpu/{kind}"]
        assert local["statuses"] == cluster["statuses"] == {"correct": local["candidates"]}
        assert cluster["candidates_per_minute"] >= 0.8 * local["candidates_per_minute"]
    assert data["ray_1gpu/actors"] == {"actors": 1, "per_actor": [16]}
