/**
 * JMH micro-benchmarks of the inner aggregation kernels (scan-sum, dense group-by, hash group-by, filtered scan), so
 * kernel work is measured in isolation from planning, morsel scheduling and result building. Never run by the unit
 * tests or by {@code numacube bench}; run them with
 * {@code java --enable-native-access=ALL-UNNAMED -cp 'bench/target/numacube-bench.jar:bench/target/lib/*'
 * org.openjdk.jmh.Main KernelBenchmarks}
 * (see {@code docs/bench/README.md}). May depend on the bench's baseline kernels and on the engine.
 */
package io.numacube.bench.jmh;
