"""Launches of one host function share the evaluation of the statements before them (host.py goes
on from an earlier launch's environment); each must still see what a fresh evaluation sees."""

from __future__ import annotations

from cudaperf.analysis.host import HostResolver
from cudaperf.analysis.launch import HostLaunches, launch_sites
from cudaperf.analysis.parse import text
from cudaperf.analysis.project import scoped
from cudaperf.analysis.source import load

HOST = """
#define BUMP(v) v += 1
__global__ void k(int p) {}
void run(bool flag) {
    int n = 256, p = 0;
    printf("%d", n);
    k<<<n / 32, 32>>>(p++);
    if (flag) {
        n = 512;
        k<<<n / 32, 32>>>(p);
    }
    k<<<8, 32>>>(p++);
    k<<<n / 32, 32>>>(p);
    for (int i = 0; i < 4; i++) {
        p = 7;
        k<<<n / 32, 32>>>(p++);
    }
    k<<<8, 32>>>(p);
    int m = 4;
    BUMP(m);
    k<<<m, 32>>>(p);
}
"""


def _launches(code: str):
    source = load(code.encode(), "host.cu", {})
    tree, scope = scoped(source)
    resolver = HostResolver(scope, {})
    found = HostLaunches(tree.root_node, resolver).of({site.kernel for site in launch_sites(tree.root_node)})
    return [(h.line, h.grid, h.args) for h in found], resolver


def test_each_launch_sees_the_statements_before_it_as_a_fresh_evaluation_does():
    found, resolver = _launches(HOST)
    assert found == [
        (7, (8, 1, 1), [0]),       # p++ passes 0 (printf changes nothing)
        (10, (16, 1, 1), [1]),     # inside the branch its assignment holds, and the first launch's p++ ran
        (12, (8, 1, 1), [1]),
        (13, None, [2]),           # n is 256 or 512 after the branch
        (16, None, [7]),           # in the loop: p = 7 before it
        (18, (8, 1, 1), [None]),   # after the loop: p changed in it
        (21, (5, 1, 1), [None]),   # a macro's assignment is seen
    ]
    # every launch after the first went on from an earlier one's environment, which the
    # arguments' own side effects (p++) did not change, or from the last statement under no
    # branch or loop that an earlier evaluation passed (`int m = 4;` for the last launch)
    points = resolver._points[next(iter(resolver._points))]
    assert sum(point.type == "call_expression" for point, *_ in points) == len(found)
    assert all(point.parent.type == "compound_statement" and point.parent.parent.type == "function_definition"
               for point, *_ in points if point.type != "call_expression")


CALLS = """
__global__ void k(int n) {}
void run(int n) {
    k<<<n / 256, 256>>>(n);
}
int main() {
    int n = 1 << 12;
    run(n);
    int m = n * 2;
    run(m / 2);
    if (m > 0) {
        run(n);
    }
    n = 512;
    run(n * 8);
}
"""


def test_the_calls_of_a_host_function_go_on_from_each_other_as_its_launches_do():
    found, resolver = _launches(CALLS)
    assert found == [(4, (16, 1, 1), [4096])]  # every call passes 4096
    # main's calls, evaluated for run's parameter, went on from the call before them (the one
    # under the branch too: its statements before it are judged as the last call's are)
    main = max(resolver._points)
    calls = [point for point, *_ in resolver._points[main] if point.type == "call_expression"]
    assert [text(call.child_by_field_name("function")) for call in calls] == ["run"] * 4
