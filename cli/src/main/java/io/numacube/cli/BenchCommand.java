package io.numacube.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code numacube bench} as listed by {@code numacube --help}: the benchmark itself lives in the bench module, with
 * its own class path (DuckDB, JMH, charts), which the numacube command's runtime does not carry. The launcher
 * ({@code ./numacube}) runs {@code bench} there; this class is reached only when the cli's main class is started
 * directly, and then says so (exit status 2).
 */
@Command(
        name = "bench",
        description = {
            "Benchmarks numacube: bandwidth probe, Q1-Q6 and Q1 over NULL pnl against DuckDB (same data, "
                    + "same threads), placement policies, scaling and stability. Prints a table, writes JSON and PNG charts.",
            "Run it through the launcher: ./numacube bench --help (it runs on the bench's own class path)."
        })
public final class BenchCommand implements Callable<Integer> {

    @Unmatched
    List<String> ignored;

    @Override
    public Integer call() {
        System.err.println("numacube bench: run it through the launcher (./numacube bench ...): the benchmark runs on "
                + "its own class path (bench/target/lib), not on the numacube command's");
        return ErrorReporter.USAGE_ERROR;
    }
}
