"""cudaperf: read CUDA kernels the way a performance engineer does."""

__version__ = "0.1.0"
__repository__ = "https://github.com/cudaperf/cudaperf"  # also [project.urls] in pyproject.toml
