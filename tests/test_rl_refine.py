"""Refinement against an OpenAI-compatible endpoint: a small HTTP server on 127.0.0.1 stands in for a
vLLM server and answers with fixed completions; the loop must feed compiler errors, lint findings and
the static profile back, stop or continue as asked, and write trajectories as JSON lines."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from cudaperf.cli import main
from cudaperf.rewards.execution import compile as cc
from cudaperf.rewards.scoring import Scorer
from cudaperf.rl.generate import GenerationError, OpenAIGenerator
from cudaperf.rl.prompts import task_prompt
from cudaperf.rl.refine import SCHEMA, discounted_returns, refine
from cudaperf.rl.tasks import read_tasks, task_from_file

ROOT = Path(__file__).parents[1]
REFERENCE = ROOT / "examples" / "eval" / "scale_add" / "reference.py"
FAMILY = ROOT / "tests" / "reward_families" / "coalescing"
NATIVE = (ROOT / "examples" / "eval" / "scale_add" / "candidate_native.cu").read_text()


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(body)
        if not self.server.answers or self.path != "/v1/chat/completions":
            self.send_error(500, "no answer")
            return
        answer = self.server.answers.pop(0) if len(self.server.answers) > 1 else self.server.answers[0]
        data = json.dumps({"choices": [{"message": {"role": "assistant", "content": answer}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.answers, httpd.requests = [], []
    httpd.timeout = 5
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield httpd, f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=5)


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CUDAPERF_CACHE_DIR", str(tmp_path / "cache"))


def test_cli_refines_on_structural_feedback(server, tmp_path, capsys):
    httpd, url = server
    httpd.answers = [(FAMILY / "worse_chunked.md").read_text(), (FAMILY / "better_grid_stride.md").read_text()]
    out = tmp_path / "trajectories.jsonl"
    code = main(["refine", "--reference", str(REFERENCE), "--endpoint", url, "--model", "stand-in",
                 "--reward", "structural", "--turns", "2", "--gamma", "0.5", "-o", str(out)])
    assert code == 0 and "2 turn(s)" in capsys.readouterr().err
    (line,) = out.read_text().splitlines()
    record = json.loads(line)
    assert record["schema"] == SCHEMA and record["kind"] == "torch2cuda" and record["best_turn"] == 1
    first, second = record["turns"]
    assert second["reward"] > first["reward"] > 0
    assert first["return"] == pytest.approx(first["reward"] + 0.5 * second["reward"])
    assert "uncoalesced" in first["feedback"] and "Static profile" in first["feedback"]
    assert httpd.requests[0]["model"] == "stand-in"
    conversation = httpd.requests[1]["messages"]
    assert conversation[-2] == {"role": "assistant", "content": first["completion"]}
    assert first["feedback"] in conversation[-1]["content"]


@pytest.mark.skipif(cc.available_backend() is None, reason="neither NVRTC nor nvcc")
def test_compiler_errors_reach_the_next_turn(server):
    httpd, url = server
    broken = NATIVE.replace("alpha * x.x", "alpha * x.q")
    httpd.answers = [f"First try:\n```cuda\n{broken}\n```", f"Fixed:\n```cuda\n{NATIVE}\n```"]
    task = {"kind": "torch2cuda", "reference": REFERENCE.read_text()}
    trajectory = refine(task, OpenAIGenerator(url, "stand-in"), turns=3, scorer=Scorer(), mode="unified")
    assert [t.breakdown.status for t in trajectory.turns] == ["compile_error", "no_gpu", "no_gpu"]
    assert "has no member" in trajectory.turns[0].feedback
    assert "has no member" in httpd.requests[1]["messages"][-1]["content"]
    assert trajectory.to_json()["turns"][0]["reward"] < 0 and trajectory.best() is trajectory.turns[0]


def test_generator_failures_are_reported(server, tmp_path, capsys):
    _, url = server  # no answers: the stand-in answers HTTP 500
    with pytest.raises(GenerationError):
        OpenAIGenerator(url, "m")([{"role": "user", "content": "hi"}])
    code = main(["refine", "--reference", str(REFERENCE), "--endpoint", url, "--reward", "structural",
                 "-o", str(tmp_path / "t.jsonl")])
    assert code == 1 and "generation failed" in capsys.readouterr().err


def test_discounted_returns():
    assert discounted_returns([-0.25, None, 1.5], 0.4) == pytest.approx([-0.25 + 0.16 * 1.5, 0.6, 1.5])


def test_many_tasks_from_a_jsonl_file(server, tmp_path):
    httpd, url = server
    httpd.answers = [(FAMILY / "better_grid_stride.md").read_text()]
    tasks = tmp_path / "tasks.jsonl"
    c_task = task_from_file(ROOT / "examples" / "eval" / "saxpy_c" / "reference.c")
    rows = [{"task_id": "scale_add", "kind": "torch2cuda", "reference": REFERENCE.read_text()},
            {**c_task, "harness": {"function": "saxpy"}}]
    tasks.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    assert read_tasks(tasks)[1]["harness"] == '{"function": "saxpy"}'   # dict -> JSON text
    out = tmp_path / "out.jsonl"
    assert main(["refine", "--tasks", str(tasks), "--endpoint", url, "--reward", "structural", "--turns", "1",
                 "-o", str(out)]) == 0
    assert [json.loads(line)["task_id"] for line in out.read_text().splitlines()] == ["scale_add", "reference"]
    assert "Port this C function" in httpd.requests[1]["messages"][-1]["content"]
    (tmp_path / "bad.jsonl").write_text('{"reference": "x"}\n')
    with pytest.raises(ValueError, match="kind"):
        read_tasks(tmp_path / "bad.jsonl")


def test_prompt_templates():
    task = {"kind": "torch2cuda", "reference": REFERENCE.read_text()}
    native, kernelbench = task_prompt(task), task_prompt(task, "kernelbench")
    assert "class Model" in native and "cudaperf:launch" in native and "ModelNew" not in native
    assert "class ModelNew" in kernelbench and "load_inline" in kernelbench
    c_task = task_from_file(ROOT / "examples" / "eval" / "saxpy_c" / "reference.c")
    assert c_task["kind"] == "c2cuda" and "void saxpy" in task_prompt(c_task)
    with pytest.raises(ValueError):
        task_prompt({"kind": "fortran2cuda", "reference": "x"})
