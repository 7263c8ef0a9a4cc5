"""A bound the launch fixes (a macro, a constant, a host literal) splits the warp it falls in,
wherever that is: an interior block the strata lattice would not visit is sampled on its own.
The warp straddling it makes barriers and full-mask collectives wrong, not a divergent branch
worth reporting.  Kernels no launch names are analysed as their explicit instantiation."""

from __future__ import annotations

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.analysis.ir import Loop, walk
from cudaperf.analysis.launch import Launch
from cudaperf.analysis.sampling import crossing_blocks, initial_batch
from cudaperf.analysis.symbolic import Const, Op, Sym
from cudaperf.lint.rules import select
from cudaperf.lint.run import lint_file

LAUNCH = Options(grid=(32, 1, 1), block=(256, 1, 1), resources="estimate")
HEAVY = "{{ for (int k = 0; k < 8; ++k) a {op}= x[i + k]; }}"


def rules(code: str, names: list[str], options: Options = LAUNCH) -> list[tuple[str, int]]:
    report = analyze_source(code, "t.cu", options)
    return sorted((f.name, f.line) for f in lint_file(report, select(names), code))


def ballot(bound: str) -> str:
    """The lanes past the bound go on to the last line (lanes that exit would not count: issue 26)."""
    return ("__global__ void count(const int* x, int* counts) {\n"
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            f"  if (i < {bound}) {{\n"
            "    unsigned b = __ballot_sync(0xffffffffu, x[i] != 0);\n"
            "    if ((threadIdx.x & 31) == 0) atomicAdd(counts, __popc(b));\n"
            "  }\n"
            "  atomicAdd(counts + 1, 1);\n"
            "}\n")


def test_a_constant_bound_in_an_interior_block_splits_its_warp():
    # 5000 falls in warp 4 of block 19 of 32: eight lanes run the ballot
    assert rules(ballot("5000"), ["divergent-full-mask"]) == [("divergent-full-mask", 4)]
    assert rules("#define N 5000\n" + ballot("N"), ["divergent-full-mask"]) == [("divergent-full-mask", 5)]


def test_a_constant_bound_on_a_warp_boundary_splits_none():
    assert not rules(ballot("5024"), ["divergent-full-mask"])  # 157 whole warps
    assert not rules(ballot("4096"), ["divergent-full-mask"])  # 16 whole blocks


def test_a_bound_the_host_fixes_is_judged_where_it_falls():
    code = ballot("n").replace("int* counts)", "int* counts, int n)") + \
        "void host(const int* x, int* c) { count<<<32, 256>>>(x, c, N); }\n"
    assert rules(code.replace("N)", "5000)"), ["divergent-full-mask"], Options(resources="estimate"))
    assert not rules(code.replace("N)", "5024)"), ["divergent-full-mask"], Options(resources="estimate"))


def test_barriers_split_at_the_bound_but_the_branch_is_not_worth_a_warning():
    barrier = ("__global__ void k(const float* x, float* out) {\n"
               "  int i = blockIdx.x * blockDim.x + threadIdx.x; float a = 0;\n"
               "  if (i < 5000) { __syncthreads(); }\n"
               "  if (i < 5000) " + HEAVY.format(op="+") + " else " + HEAVY.format(op="*") + "\n"
               "  out[i] = a;\n"
               "}\n")
    found = rules(barrier, ["barrier-divergence", "divergent-branch"])
    assert found == [("barrier-divergence", 3)]
    report = analyze_source(barrier, "t.cu", LAUNCH)
    split = next(b.result for b in report.kernels[0].branches if b.line == 4)
    assert (split.uniformity, split.boundary) == ("thread", True)
    assert 0 < split.divergent_fraction < 0.01  # one warp of 256


def test_crossing_blocks_solves_each_axis():
    i = Op("+", (Op("*", (Sym("bid.x"), Sym("bdim.x"))), Sym("tid.x")))
    launch = Launch((32, 1, 1), (256, 1, 1))
    assert crossing_blocks(launch, [Op("<", (i, Const(5000.0)))], []) == ((19,), (), ())
    assert crossing_blocks(launch, [Op("<", (i, Const(4096.0)))], []) == ((), (), ())
    assert crossing_blocks(launch, [Op("<", (i, Sym("arg:n")))], ["arg:n"]) == ((), (), ())  # any n: no one place
    row = Op("+", (Op("*", (Sym("bid.y"), Sym("bdim.y"))), Sym("tid.y")))
    grid2 = Launch((4, 100, 1), (16, 16, 1))
    both = Op("&&", (Op("<", (row, Const(1001.0))), Op("<", (i, Const(40.0)))))
    # rows 1000 and 1001 share a warp of block y = 62; column 40 is lane 8 of block x = 2
    assert crossing_blocks(grid2, [both], []) == ((2,), (62,), ())


def test_cut_blocks_keep_the_weights_a_whole_launch():
    launch = Launch((32, 3, 1), (256, 1, 1))
    batch = initial_batch(launch, all_warps=True, cuts=((19, 25), (), ()))
    assert abs(batch.weight.sum() - 32 * 3 * 8) < 1e-6
    assert {19, 25} <= set(batch.env["bid.x"].ravel())


TREE = ("template <int BS>\n"
        "__global__ void block_sum(const float* in, float* out) {\n"
        "  __shared__ float s[BS];\n"
        "  int tid = threadIdx.x;\n"
        "  s[tid] = in[blockIdx.x * BS + tid];\n"
        "  __syncthreads();\n"
        "  for (int stride = BS / 2; stride > 0; stride >>= 1) {\n"
        "    if (tid < stride) s[tid] += s[tid + stride];\n"
        "    {barrier}\n"
        "  }\n"
        "  if (tid == 0) out[blockIdx.x] = s[0];\n"
        "}\n"
        "template __global__ void block_sum<256>(const float*, float*);\n")


def test_an_explicit_instantiation_binds_the_template():
    options = Options(grid=(64, 1, 1), block=(256, 1, 1), resources="estimate")
    assert ("shared-race", 8) in rules(TREE.replace("{barrier}", ""), ["shared-race"], options)
    assert not rules(TREE.replace("{barrier}", "__syncthreads();"), ["shared-race"], options)
    report = analyze_source(TREE.replace("{barrier}", ""), "t.cu", options)
    loop = next(s for s, _ in walk(report.kernels[0].kernel.body) if isinstance(s, Loop))
    assert loop.init == Const(128.0)  # BS / 2 with BS = 256
