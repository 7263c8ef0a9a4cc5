"""Lint output people can use: SARIF for code scanning, GitHub annotations, per-rule counts,
--exit-zero, and JSON findings with end positions and rule pages."""

from __future__ import annotations

import json
from urllib.parse import urlparse

from conftest import ROOT
from test_cli import run

from cudaperf import __repository__
from cudaperf.lint.rules import DOCS_URL

SMELLY = ("__global__ void k(const float* in, float* out) { int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "  out[i] = in[i * 32]; }\n")
ACCESS = "in[i * 32]"
START = SMELLY.splitlines()[1].index(ACCESS) + 1  # 1-based column on line 2
LAUNCH = ("--resources", "estimate", "--grid", "64", "--block", "256", "--select", "CP101")


def lint(tmp_path, *args):
    (tmp_path / "src").mkdir(exist_ok=True)
    (tmp_path / "src" / "bad.cu").write_text(SMELLY)
    return run("lint", "src/bad.cu", *LAUNCH, *args, cwd=tmp_path)


def page(url: str):
    """The repository file a rule URL names, checked out here."""
    assert url.startswith(DOCS_URL + "/")
    return ROOT / "docs" / "rules" / url.rsplit("/", 1)[1]


def test_json_findings_carry_the_expression_end_and_the_rule_page(tmp_path):
    proc = lint(tmp_path, "--format", "json")
    [finding] = json.loads(proc.stdout)["findings"]
    assert (finding["line"], finding["column"]) == (2, START)
    assert (finding["end_line"], finding["end_column"]) == (2, START + len(ACCESS))
    assert page(finding["url"]).name == "uncoalesced-access.md" and page(finding["url"]).is_file()


def test_sarif_uses_relative_uris_rule_help_and_the_project_page(tmp_path):
    doc = json.loads(lint(tmp_path, "--format", "sarif").stdout)
    sarif_run = doc["runs"][0]
    assert sarif_run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.resolve().as_uri() + "/"
    [result] = sarif_run["results"]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "src/bad.cu", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 2, "startColumn": START, "endLine": 2,
                                  "endColumn": START + len(ACCESS)}
    driver = sarif_run["tool"]["driver"]
    assert driver["informationUri"] == __repository__ and urlparse(__repository__).netloc == "github.com"
    assert all(page(r["helpUri"]) == ROOT / "docs" / "rules" / f"{r['name']}.md" and page(r["helpUri"]).is_file()
               for r in driver["rules"])


def test_github_format_is_a_workflow_annotation(tmp_path):
    proc = lint(tmp_path, "--format", "github")
    assert proc.returncode == 1
    [line] = proc.stdout.splitlines()
    head, message = line.split("::")[1:]
    assert head == (f"warning file=src/bad.cu,line=2,col={START},endLine=2,endColumn={START + len(ACCESS)},"
                    "title=CP101 uncoalesced-access")
    assert message.startswith("load of `in` is strided")


def test_statistics_count_findings_per_rule(tmp_path):
    (tmp_path / "k.cu").write_text((ROOT / "tests" / "kernels" / "sync_smells.cu").read_text())
    options = ("k.cu", "--resources", "estimate", "--grid", "4", "--block", "256", "--select", "CP4")
    findings = json.loads(run("lint", *options, "--format", "json", cwd=tmp_path).stdout)["findings"]
    proc = run("lint", *options, "--statistics", cwd=tmp_path)
    counts = {}
    for f in findings:
        counts[f["code"]] = counts.get(f["code"], 0) + 1
    rows = [line.split() for line in proc.stdout.splitlines()]
    assert {code: int(n) for n, code, _ in rows} == counts and max(counts.values()) > 1
    assert [int(n) for n, _, _ in rows] == sorted(counts.values(), reverse=True)
    assert proc.returncode == 1


def test_exit_zero_keeps_findings_but_not_usage_errors(tmp_path):
    proc = lint(tmp_path, "--exit-zero")
    assert proc.returncode == 0 and "CP101 [uncoalesced-access]" in proc.stdout
    assert run("lint", "missing.cu", "--exit-zero", cwd=tmp_path).returncode == 2
