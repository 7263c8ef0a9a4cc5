/* Reference (C format): y = a * x + y, run on the CPU for the expected outputs. */
/* cudaperf:harness
{
  "function": "saxpy",
  "args": [
    {"name": "n", "type": "int"},
    {"name": "a", "type": "float"},
    {"name": "x", "type": "const float*", "shape": "n", "init": "uniform(-1, 1)"},
    {"name": "y", "type": "float*", "shape": "n", "init": "normal(0, 1)", "output": true}
  ],
  "configs": [{"n": 4194304, "a": 2.5}, {"n": 1000, "a": -0.5}, {"n": 1, "a": 3.0}]
}
*/
void saxpy(int n, float a, const float* x, float* y) {
    for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
