"""The analyzer: CUDA source -> per-kernel reports.  Knows nothing of lint, rewards or RL.

The names below load the analyzer (and tree-sitter) on first use, so that light subpackages such as
``cudaperf.analysis.dynamic.counters`` import without the parser (the H200 collection scripts use
them where only CuPy and numpy are installed).
"""

__all__ = ["Options", "analyze_file", "analyze_source", "find_sources"]


def __getattr__(name: str):
    if name in __all__:
        from . import analyzer

        return getattr(analyzer, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
