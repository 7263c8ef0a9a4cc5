"""The analyzer: CUDA source -> per-kernel reports.  Knows nothing of lint, rewards or RL."""

from .analyzer import Options, analyze_file, analyze_source, find_sources

__all__ = ["Options", "analyze_file", "analyze_source", "find_sources"]
