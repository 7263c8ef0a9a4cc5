"""Which path a candidate would take, without a GPU or torch: `cudaperf eval --plan`.

`fast` when every load_inline call of the candidate reads as literals (torch_ext.extract_builds, the
same reading the full build uses) and translates; `full` with the first fallback reason otherwise;
`none` when the gate rejects the candidate (nothing would be built)."""

from __future__ import annotations

import ast

from ..formats import Candidate, Task
from ..gate import check
from ..pysource import parse as parse_python
from ..torch_ext import builder_calls, extract_builds, literal, module_literals, normalise
from .plan import translate_or_reason

_IGNORED = {"name", "build_directory", "verbose", "keep_intermediates", "use_pch"}   # change nothing translated


def _bindings(body: list[ast.stmt], env: dict[str, object], before: int) -> dict[str, object]:
    """Names (and `self.x` attributes) bound to literals by assignments in `body` above line `before`,
    in order, nested blocks included; a binding that is not a literal removes the name."""
    env = dict(env)
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        if not isinstance(node, ast.Assign) or node.lineno >= before or len(node.targets) != 1:
            continue
        target = node.targets[0]
        key = target.id if isinstance(target, ast.Name) else (
            f"self.{target.attr}" if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
            and target.value.id == "self" else None)
        if key is None:
            continue
        try:
            env[key] = literal(node.value, env)
        except ValueError:
            env.pop(key, None)
    return env


def _value(node: ast.AST, env: dict[str, object]) -> object:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        key = f"self.{node.attr}"
        if key in env:
            return env[key]
        raise ValueError(key)
    return literal(node, env)


def read_builds(source: str) -> list[dict] | None:
    """load_inline arguments as the worker would see them, read without running anything: the full
    build's reading (module-level literals), else literals bound in the enclosing function or class
    above the call (models often build inside `__init__` or a helper), `self.x` included; the name
    and build directory are not needed to translate.  None when some call still cannot be read."""
    builds = extract_builds(source)
    if builds is not None:
        return builds
    try:
        tree = parse_python(source)
    except SyntaxError:
        return None
    module_env = module_literals(tree)
    scopes: list[tuple[list[ast.stmt], ast.AST]] = [(tree.body, tree)]
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            scopes.append((node.body, node))
    out = []
    for call in builder_calls(tree):
        env = dict(module_env)
        for body, owner in scopes:   # outer scopes first: module, then classes and functions holding the call
            if owner is tree or (owner.lineno <= call.lineno <= (owner.end_lineno or owner.lineno)):
                if isinstance(owner, ast.ClassDef):   # attributes set in the class's methods
                    env = _bindings(body, env, 1 << 30)
                else:
                    env = _bindings(body, env, call.lineno)
        try:
            args = [_value(a, env) for a in call.args]
            kwargs = {}
            for k in call.keywords:
                if not k.arg:
                    return None
                try:
                    kwargs[k.arg] = _value(k.value, env)
                except ValueError:
                    if k.arg not in _IGNORED:
                        raise
        except ValueError:
            return None
        out.append(normalise(tuple(args), kwargs))
    return out


def candidate_path(candidate: Candidate) -> tuple[str, str | None]:
    """("fast", None) or ("full", reason) for a KernelBench candidate's load_inline calls."""
    if candidate.kind != "python":
        return "full", "not a KernelBench (Python) candidate"
    builds = read_builds(candidate.source)
    if builds is None:
        return "full", "load_inline arguments are not literals"
    if not builds:
        return "full", "no load_inline call"
    for spec in builds:
        translation, reason = translate_or_reason(spec)
        if translation is None:
            name = spec.get("name")
            return "full", f"{reason} (extension {name!r})" if isinstance(name, str) else reason
    return "fast", None


def plan_record(task: Task, candidate: Candidate) -> dict:
    """One `--plan` JSON object: candidate, path (fast | full | none), fallback (reason or null)."""
    try:
        rejecting = [v for v in check(candidate, task) if v.severity == "reject"]
    except SyntaxError as exc:
        return {"candidate": candidate.label, "path": "none", "fallback": f"syntax error: {exc.msg}"}
    if rejecting:
        return {"candidate": candidate.label, "path": "none", "fallback": f"gate: {rejecting[0].rule}: {rejecting[0]}"}
    path, reason = candidate_path(candidate)
    return {"candidate": candidate.label, "path": path, "fallback": reason}


def run(reference: str, candidates: list[str], fmt: str, output: str | None) -> list[dict]:
    """`cudaperf eval --plan`: one record per candidate file, written as each is read (JSON lines, a
    JSON list, or text); FormatError for a bad task or paths, as `batch.run`."""
    import json
    import sys
    from pathlib import Path

    from ..formats import FormatError, candidate_files, load_candidate, load_task

    task = load_task(reference)
    files = [f for f in candidate_files(candidates) if f.resolve() != Path(reference).resolve()]
    if not files:
        raise FormatError(f"no candidate files in {', '.join(candidates)}")
    stream = open(output, "w") if output else sys.stdout  # noqa: SIM115 -- closed below unless stdout
    records = []
    try:
        for path in files:
            record = plan_record(task, load_candidate(path))
            records.append(record)
            if fmt == "jsonl":
                stream.write(json.dumps(record) + "\n")
            elif fmt == "text":
                why = f"  ({record['fallback']})" if record["fallback"] else ""
                stream.write(f"{record['path']:<5} {record['candidate']}{why}\n")
            stream.flush()
        if fmt == "json":
            json.dump(records if len(records) > 1 else records[0], stream, indent=2)
            stream.write("\n")
    finally:
        if output:
            stream.close()
    return records
