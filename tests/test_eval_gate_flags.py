"""The gate on what load_inline puts on a command line: flags honest candidates use pass, flags that
run programs, swap the toolchain or carry shell syntax are rejected, vendor libraries are library calls."""

from __future__ import annotations

import ast

import pytest

from cudaperf.rewards.execution import gate_flags


def _rules(call: str, prelude: str = "") -> list[str]:
    return sorted({v.rule for v in gate_flags.check(ast.parse(prelude + call))})


@pytest.mark.parametrize("flags", [
    'extra_cflags=["-O3"], extra_cuda_cflags=["-O3", "--use_fast_math"], extra_ldflags=[""]',
    'extra_cflags=[""], extra_ldflags=["-lcuda"]',
    'extra_cuda_cflags=["-O3", "--use_fast_math", "-Xptxas=-v", "-lineinfo"]',
    'extra_cuda_cflags=["-gencode=arch=compute_90,code=sm_90", "-maxrregcount=64", "--expt-relaxed-constexpr"]',
    'extra_cuda_cflags=["-std=c++17", "-DBLOCK_SIZE=256", "-UNDEBUG", "-O3 --use_fast_math"]',
    'extra_cuda_cflags=["-Xcompiler", "-O3,-fPIC"]',
    'extra_cuda_cflags=["-Xcompiler=-Wall", "-Xptxas", "-O3,-v"]',
    'extra_cflags=["-O3", "-march=native", "-Wno-unused-variable"], extra_include_paths=["/usr/local/cuda/include"]',
    'extra_cuda_cflags=["-gencode", "arch=compute_80,code=sm_80", "-arch", "sm_90", "--threads", "4", "-t", "0"]',
    'extra_cuda_cflags=["-U__CUDA_NO_HALF_OPERATORS__", "-D_GLIBCXX_USE_CXX11_ABI=0", "--ptxas-options=-v"]',
    'extra_cuda_cflags=["-maxrregcount", "32", "--extra-device-vectorization", "-Xcudafe", "--diag_suppress=177"]',
    'extra_cuda_cflags=["--generate-code=arch=compute_90,code=[sm_90,compute_90]", "-ftz=true", "-res-usage"]',
])
def test_flags_honest_candidates_use_pass(flags):
    assert _rules(f'load_inline(name="ext", cpp_sources="", {flags})') == []


@pytest.mark.parametrize("flags", [
    'extra_cflags=["-wrapper", "sh,-c,touch /tmp/x"]',             # gcc runs every subcommand through sh
    'extra_cflags=["-fplugin=/tmp/p.so"]',
    'extra_cflags=["-Wl,-plugin,/tmp/p.so"]',
    'extra_cuda_cflags=["-ccbin", "/tmp/evil"]',
    'extra_cuda_cflags=["-Xcompiler", "-fplugin=/tmp/p.so"]',
    'extra_cuda_cflags=["-O3; touch /tmp/x"]',                     # the ninja command goes through a shell
    'extra_cflags=["-DX=$(touch /tmp/x)"]',
    'extra_include_paths=["/tmp/$(touch x)"]',
    'extra_cflags=FLAGS',                                           # unreadable
    'extra_cuda_cflags=["-include", "/etc/passwd"]',
])
def test_flags_that_run_programs_or_carry_shell_syntax_are_rejected(flags):
    assert _rules(f'load_inline(name="ext", cpp_sources="", {flags})') == ["build-flags"]


def test_flags_bound_to_module_level_literals_are_read():
    call = 'load_inline(name="ext", cpp_sources="", extra_cflags=F)'
    assert _rules(call, 'F = ["-O3"]\n') == []
    assert _rules(call, 'F = ["-fplugin=x.so"]\n') == ["build-flags"]


def test_the_extension_name_must_be_a_literal_identifier():
    assert _rules('load_inline(name="ext; touch /tmp/x", cpp_sources="")') == ["build-flags"]
    assert _rules('load_inline(name=make_name(), cpp_sources="")') == ["build-flags"]
    assert _rules('load_inline("ext_v2", "")') == []


def test_linking_a_vendor_library_is_a_library_call():
    assert _rules('load_inline(name="ext", cpp_sources="", extra_ldflags=["-lcublas"])') == ["library-call"]
