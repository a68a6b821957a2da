package io.numacube.bench.cli;

import io.numacube.bench.BenchOptions;
import io.numacube.bench.BenchOptions.Section;
import io.numacube.bench.BenchRunner;
import io.numacube.bench.Engines;
import io.numacube.bench.report.BenchReport;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code numacube bench}: measures numacube against the memory-bandwidth limit and DuckDB, compares placement
 * policies, scaling and stability (see the bench module). Exit status 0 when every answer matched DuckDB's, 1 when
 * one differed, 2 on bad options. Its own main class: the launcher runs it on the bench's class path
 * (bench/target/lib), so that the numacube command's runtime carries neither DuckDB, JMH nor the chart libraries.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = {
            "Benchmarks numacube: bandwidth probe, Q1-Q6 and Q1 over NULL pnl against DuckDB (same data, same "
                    + "threads), "
                    + "placement policies, scaling and stability, file loads, TPC-H's 22 queries (tpch), and numacube "
                    + "serve under readers and a durable writer (serve). Prints a table, writes JSON and PNG charts.",
            "JMH kernel benchmarks: java --enable-native-access=ALL-UNNAMED -cp 'bench/target/numacube-bench.jar:bench/target/lib/*' "
                    + "org.openjdk.jmh.Main KernelBenchmarks (see docs/bench/README.md)."
        })
public final class BenchCommand implements Callable<Integer> {

    @Option(
            names = "--quick",
            description = "Smoke-test sizes (4M rows, 256 MiB probe, few runs): about a minute "
                    + "on a 2-core machine. For CI; do not judge its numbers.")
    boolean quick;

    @Option(
            names = "--rows",
            paramLabel = "N",
            description = "Trades rows for the peer comparison "
                    + "(default: 100000000, or 4000000 with --quick). Policies, scaling and stability use at most 20M "
                    + "(1M with --quick).")
    Long rows;

    @Option(
            names = "--threads",
            paramLabel = "N",
            description = "Query threads for numacube and DuckDB alike " + "(default: every available CPU).")
    Integer threads;

    @Option(
            names = "--sections",
            split = ",",
            paramLabel = "LIST",
            description = "Sections to run, comma-separated:"
                    + " probe,peers,policies,scaling,stability,load,tpch,serve,migration (default: all).")
    List<String> sections;

    @Option(
            names = "--tpch-sf",
            paramLabel = "SF",
            description = "TPC-H scale factor of the tpch section (default: 1, or 0.01 with --quick); its files are "
                    + "generated once and cached in --tpch-dir.")
    Double tpchScaleFactor;

    @Option(
            names = "--tpch-dir",
            paramLabel = "DIR",
            defaultValue = "build/tpch",
            description = "Where the tpch section caches TPC-H as CSV and Parquet (sf<SF>/ below it); default: "
                    + "${DEFAULT-VALUE}.")
    Path tpchDir;

    @Option(
            names = "--serve-rows",
            paramLabel = "N",
            description = "Trades rows the serve section's server holds at its start (default: 5000000, or 300000 with"
                    + " --quick).")
    Long serveRows;

    @Option(
            names = "--serve-seconds",
            paramLabel = "S",
            description = "Seconds of each reader phase of the serve section: idle, beside the writer, idle again"
                    + " (default: 8, or 1 with --quick); the visibility probe runs half as long.")
    Double serveSeconds;

    @Option(
            names = "--serve-readers",
            paramLabel = "K",
            defaultValue = "2",
            description = "Reader threads looping Q1-Q5 over HTTP in the serve section (default: ${DEFAULT-VALUE}).")
    int serveReaders;

    @Option(
            names = "--serve-batch-rows",
            paramLabel = "N",
            defaultValue = "10000",
            description = "Rows per CSV batch the serve section's writer posts (default: ${DEFAULT-VALUE}).")
    int serveBatchRows;

    @Option(
            names = "--json",
            paramLabel = "FILE",
            description = "Also write every figure and the machine " + "description as JSON to FILE.")
    Path json;

    @Option(
            names = "--charts",
            paramLabel = "DIR",
            defaultValue = "build/bench",
            description = "Directory for the PNG charts (policies, scaling); default: ${DEFAULT-VALUE}.")
    Path charts;

    @Option(
            names = "--engine",
            paramLabel = "NAME",
            defaultValue = "numacube",
            description =
                    "What to measure: "
                            + "numacube (the engine, default) or loop (the bench's plain-loop baseline: no planner, no placement).")
    String engine;

    /** Runs {@code numacube bench ARGS...}; bad options print one line and exit 2, as the numacube command does. */
    public static void main(String[] args) {
        CommandLine cl = new CommandLine(new BenchCommand()).setCommandName("numacube bench");
        cl.setParameterExceptionHandler((ex, unused) -> {
            CommandLine failed = ex.getCommandLine();
            failed.getErr().println("numacube: " + ex.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(ex, failed.getErr());
            failed.getErr().println("numacube: see 'numacube bench --help'");
            failed.getErr().flush();
            return 2;
        });
        cl.setExecutionExceptionHandler((ex, failed, unused) -> {
            // No stack trace reaches a user: one line naming what failed.
            failed.getErr().println("numacube bench: " + (ex.getMessage() != null ? ex.getMessage() : ex.toString()));
            failed.getErr().flush();
            return 1;
        });
        System.exit(cl.execute(args));
    }

    @Override
    public Integer call() throws Exception {
        EnumSet<Section> chosen = EnumSet.noneOf(Section.class);
        try {
            if (sections != null) {
                sections.forEach(s -> chosen.add(Section.parse(s)));
            }
            if (rows != null && rows < 1000) {
                throw new IllegalArgumentException("--rows must be at least 1000: rows=" + rows);
            }
            if (threads != null && threads < 1) {
                throw new IllegalArgumentException("--threads must be at least 1: threads=" + threads);
            }
            if (tpchScaleFactor != null && !(tpchScaleFactor > 0)) {
                throw new IllegalArgumentException("--tpch-sf must be positive: sf=" + tpchScaleFactor);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("numacube bench: " + e.getMessage());
            return 2;
        }
        BenchOptions defaults = BenchOptions.quick(quick, rows, threads, chosen, json, charts);
        BenchOptions options;
        try {
            options = defaults.withTpch(tpchScaleFactor != null ? tpchScaleFactor : defaults.tpchScaleFactor(), tpchDir)
                    .withServe(new BenchOptions.Serve(
                            serveRows != null ? serveRows : defaults.serve().rows(),
                            serveReaders,
                            serveSeconds != null
                                    ? serveSeconds
                                    : defaults.serve().phaseSeconds(),
                            serveBatchRows));
        } catch (IllegalArgumentException e) {
            System.err.println("numacube bench: " + e.getMessage());
            return 2;
        }
        if (options.threads() > Runtime.getRuntime().availableProcessors()) {
            System.err.println("numacube bench: more threads than CPUs: threads=" + options.threads() + " cpus="
                    + Runtime.getRuntime().availableProcessors() + " — the figures will measure time slicing");
        }
        BenchReport report = new BenchRunner(
                        options,
                        Engines.factory(engine),
                        Engines.baselineFor(engine),
                        Engines.probeTeam(options.threads()),
                        System.out,
                        System.err)
                .run();
        if (BenchRunner.failed(report)) {
            System.err.println("numacube bench: FAILED — a section failed or numacube's and DuckDB's answers differ"
                    + " (see the table)");
            return 1;
        }
        return 0;
    }
}
