/**
 * The only package that makes native calls (FFM downcalls to glibc: {@code syscall}, {@code mmap},
 * {@code sched_getaffinity}, ...). Everything else reaches the kernel through {@link io.numacube.numa.kernel.NumaKernel},
 * obtained from {@link io.numacube.numa.kernel.NumaKernels#load()}: an empty result is the pure-Java fallback.
 * Depends only on {@code io.numacube.numa} and {@code io.numacube.numa.topology} value types.
 */
package io.numacube.numa.kernel;
