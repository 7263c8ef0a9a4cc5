"""cudaperf: read CUDA kernels the way a performance engineer does."""

__version__ = "0.1.0"
