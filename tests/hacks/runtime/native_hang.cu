// expect-status: timeout
// Never terminates: a hung kernel the pool must kill.
/* cudaperf:launch
{"inputs": ["a", "b"], "init": ["alpha"], "outputs": [{"name": "out", "like": "a"}],
 "launches": [{"kernel": "scale_add", "grid": "cdiv(a.numel, 256)", "block": 256, "smem": 0,
               "args": ["a", "b", "out", "float32(alpha)", "a.numel"]}]}
*/
extern "C" __global__ void scale_add(const float* a, const float* b, float* out, float alpha, int n) {
    while (true) __nanosleep(1000);   // a side effect in the body: the compiler must keep the loop
}
