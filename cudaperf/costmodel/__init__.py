"""The static cost model of a kernel and of a whole KernelBench candidate, below both the rewards and
rl (which import it; it imports neither of them, only the analyzer and the execution engine's fast-path
interpreter and sandbox, which it runs a candidate's wrapper and trace through):

- `terms`: one analysed launch -> the seconds each H200 resource would need (`describe`, `time_terms`)
- `model`: the pairwise ranker over those terms (`Ranker`, its weights in data/ranker.json)
- `trace` (+ `cudashim`): what a candidate runs at the task's shapes, on meta tensors, in a child process
- `wrapper`: a C++ wrapper's sizes read by patterns where the interpreter cannot run it
- `candidates`: a whole candidate's summed terms (`estimate`)

Nothing is imported here: `import cudaperf.costmodel` stays free of torch and numpy."""
