package io.numacube.bench.tpch;

import io.numacube.bench.BenchOptions;
import io.numacube.bench.Progress;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * numacube's first run of each query in a fresh JVM: a child {@link TpchFirstRun} on this JVM's class path and memory
 * options (and the bench's ahead-of-time cache, {@link #aotCache}, where the launcher trained one) loads the tables the
 * query names from Parquet and runs it once. One child per query; with
 * {@code --quick}, one child runs them all in turn (only the first is then a first run in a fresh JVM, the others are
 * first runs of their query in a JVM that ran other queries before: a smoke test of the path, not a measurement).
 * A child that fails is reported on the progress stream and its queries get no figure. Not thread-safe.
 */
final class TpchFirstRuns {

    /** The system property naming the bench's ahead-of-time cache ({@code numacube} launcher). */
    static final String AOT_CACHE_PROPERTY = "numacube.bench.aotCache";

    /** The longest a child may take before it is killed. */
    private static final long CHILD_TIMEOUT_SECONDS = 900;

    private final BenchOptions options;
    private final Progress progress;

    TpchFirstRuns(BenchOptions options, Progress progress) {
        this.options = options;
        this.progress = progress;
    }

    /**
     * First-run seconds by argument ({@code 3} for Q3's official text, {@code 3r} for its rewrite).
     *
     * @param arguments the queries to run, as {@link TpchFirstRun} takes them
     * @param warmUp    whether each child runs the engine's warm-up after loading, before the query
     */
    Map<String, Double> measure(List<String> arguments, boolean warmUp) throws Exception {
        Map<String, Double> seconds = new HashMap<>();
        if (arguments.isEmpty()) {
            return seconds;
        }
        List<List<String>> children = options.quick()
                ? List.of(arguments)
                : arguments.stream().map(List::of).toList();
        for (List<String> queries : children) {
            seconds.putAll(child(queries, warmUp));
        }
        return seconds;
    }

    private Map<String, Double> child(List<String> queries, boolean warmUp) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("-Xmx")
                    || arg.startsWith("-Xms")
                    || arg.startsWith("--enable-native-access")
                    || arg.endsWith("UseProfiledLoopPredicate")) {
                command.add(arg);
            }
        }
        command.add("--enable-native-access=ALL-UNNAMED");
        aotCache()
                .ifPresent(
                        cache -> command.addAll(List.of("-XX:AOTCache=" + cache, "-Xlog:aot*=off", "-Xlog:cds*=off")));
        command.add("-D" + TpchFirstRun.WARM_UP_PROPERTY + "=" + warmUp);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), TpchFirstRun.class.getName()));
        command.addAll(List.of(
                options.tpchDir().toAbsolutePath().toString(),
                Double.toString(options.tpchScaleFactor()),
                Integer.toString(options.threads())));
        command.addAll(queries);
        Path log = Files.createTempFile("numacube-tpch-first-run", ".log");
        try {
            Process p = new ProcessBuilder(command).redirectError(log.toFile()).start();
            Map<String, Double> seconds = new java.util.concurrent.ConcurrentHashMap<>();
            // stdout is read on its own thread, so that a child that hangs is killed after the timeout
            Thread reader = Thread.ofVirtual().start(() -> read(p, seconds, warmUp ? "after warm-up" : "cold"));
            boolean finished = p.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!finished) {
                p.destroyForcibly().waitFor();
            }
            reader.join();
            if (!finished || p.exitValue() != 0 || seconds.size() < queries.size()) {
                List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
                progress.line(
                        "tpch: first-run JVM for %s FAILED (%s): %s",
                        queries,
                        finished ? "exit " + p.exitValue() : "killed after " + CHILD_TIMEOUT_SECONDS + " s",
                        lines.isEmpty() ? "no output" : lines.getLast());
            }
            return seconds;
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /**
     * The bench's ahead-of-time cache that the launcher trained ({@value #AOT_CACHE_PROPERTY}), if it exists: each
     * first-run JVM starts with it, as every {@code numacube} command starts with its own.
     */
    static java.util.Optional<Path> aotCache() {
        return java.util.Optional.ofNullable(System.getProperty(AOT_CACHE_PROPERTY))
                .map(Path::of)
                .filter(Files::isRegularFile);
    }

    private void read(Process p, Map<String, Double> seconds, String kind) {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                String[] f = line.split(" ");
                if (f.length >= 3 && f[0].equals(TpchFirstRun.FIRST_RUN)) {
                    seconds.put(f[1], Double.parseDouble(f[2]));
                    progress.line("tpch: first run in a fresh JVM, %s: %s %.4f s", kind, f[1], seconds.get(f[1]));
                } else {
                    progress.line("tpch: first-run JVM: %s", line);
                }
            }
        } catch (IOException e) {
            progress.line("tpch: cannot read the first-run JVM's output: %s", e);
        }
    }
}
