// The JIT policy the executables are built with (`--compile-jit-policy`): the engine compiles a function
// only after this many times the usual number of runs. A session runs most of its code a few times per
// turn, and with the usual thresholds the engine kept optimising it: the compiler's memory held the core
// ~15-20 MB above its live data. Hot loops (estimating, encoding, compaction, rendering a long reply)
// still run often enough to be compiled. Benchmarks that run code in-process set the same policy
// (setJitReluctance) so they measure what the executable does.
export const JIT_POLICY = 64;
