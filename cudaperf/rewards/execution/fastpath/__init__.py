"""The fast path for `load_inline` candidates: device code compiled alone with NVRTC, host
wrappers translated into a closed call plan executed with torch, so no torch header is ever compiled.

- `split`: load_inline sources -> NVRTC-compilable device source + the host functions (tree-sitter).
- `plan`: host functions -> a tree of plan nodes (no Python source, no eval), or a `Fallback` naming
  the construct outside the subset and its line.
- `interp`: runs a plan with torch on the Python call's arguments, calling a launcher for each kernel.
- `device`: NVRTC compile with name expressions (templated kernels), and the worker-side extension
  object whose functions run plans and launch through `driver.Module`.
- `report`: what `cudaperf eval --plan` prints for a candidate.

Everything here but `interp`/`device.FastExtension` is torch-free and runs on any CPU machine.
"""

from __future__ import annotations

from .plan import Fallback, Translation, translate

__all__ = ["Fallback", "Translation", "translate"]
