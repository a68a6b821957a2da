package io.numacube.bench;

import io.numacube.engine.CubeOptions;
import io.numacube.engine.Warmup;
import java.time.Duration;

/**
 * The training run of the bench's ahead-of-time JVM cache, which the {@code numacube} launcher makes once per build
 * ({@code -XX:AOTCacheOutput}) and hands to the first-run JVMs that the TPC-H section starts: the engine's {@link
 * Warmup} shapes over its own small tables for the seconds given (default 6), what {@code serve} runs before its ready
 * line. It reads no benchmark data and runs no benchmark query, so a first run with the cache is a first run of that
 * query. Exit status 1 if a shape failed.
 */
public final class AotTraining {

    private AotTraining() {}

    public static void main(String[] args) {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 6;
        Warmup.Report r = Warmup.run(CubeOptions.defaults(), Duration.ofSeconds(seconds));
        System.err.printf(
                "bench aot training: %d queries in %.1f s%n",
                r.queries(), r.elapsed().toMillis() / 1e3);
        r.failures().forEach(f -> System.err.println("bench aot training: failed: " + f));
        System.exit(r.failures().isEmpty() ? 0 : 1);
    }
}
