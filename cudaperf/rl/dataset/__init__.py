"""The task dataset: parameterised families of C-to-CUDA and PyTorch-to-CUDA tasks, each with
several input configurations and several CUDA implementations tagged by optimisation, in the
execution engine's native format (`extern "C"` kernels with an embedded launch spec).

`generate.all_tasks()` rebuilds every task from the recipe; `measure` verifies and times them on a
GPU; `features` runs the analyzer over them; `load` joins the committed measurements and features.
"""
