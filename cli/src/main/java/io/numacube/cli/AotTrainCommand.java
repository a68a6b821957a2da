package io.numacube.cli;

import io.numacube.engine.CubeOptions;
import io.numacube.engine.Warmup;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code numacube aot-train} (hidden): the training run of the JVM's ahead-of-time cache that the launcher makes once
 * per build ({@code -XX:AOTCacheOutput}, JDK 25: classes loaded and linked, and method profiles, JEP 483/515). It does
 * what a new user's first commands do, on small data of its own in a temporary directory: {@code query} over a CSV
 * file with every column type and NULLs, {@code query --generate} with the reference queries (joins to fx and books among them), then the
 * engine's {@link Warmup} shapes for {@code --seconds}. Prints nothing on success but one summary line on stderr; the
 * temporary files are removed. A failing step is reported and makes the exit status 1 (the launcher then keeps no
 * cache), never a stack trace.
 */
@Command(
        name = "aot-train",
        hidden = true,
        mixinStandardHelpOptions = true,
        description = "The training run of the launcher's ahead-of-time JVM cache (run by ./numacube, not by users).")
final class AotTrainCommand implements Callable<Integer> {

    private static final int CSV_ROWS = 20_000;

    @Option(
            names = "--seconds",
            defaultValue = "6",
            description = "How long the engine's warm-up shapes run (default: ${DEFAULT-VALUE}).")
    int seconds;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        long start = System.nanoTime();
        Path dir = Files.createTempDirectory("numacube-aot-train");
        int failures = 0;
        try {
            Path csv = dir.resolve("positions.csv");
            writeCsv(csv);
            failures += run(List.of(
                    "query",
                    "--table",
                    "positions=" + csv,
                    "--types",
                    "positions.qty=decimal(15,2)",
                    "SELECT desk, COUNT(*), SUM(qty), AVG(price), MIN(day), MAX(note) FROM positions"
                            + " WHERE day >= DATE '2024-02-01' AND note IS NOT NULL GROUP BY desk ORDER BY desk",
                    "SELECT EXTRACT(YEAR FROM day) AS y, COUNT(DISTINCT desk), SUM(CASE WHEN qty > 0 THEN price END)"
                            + " FROM positions GROUP BY y ORDER BY y",
                    "SELECT note, qty FROM positions WHERE note LIKE 'n1%' ORDER BY qty DESC, note LIMIT 5"));
            List<String> generated = new java.util.ArrayList<>(List.of("query", "--generate", "200000"));
            generated.addAll(io.numacube.engine.gen.ReferenceQueries.ALL);
            generated.add(io.numacube.engine.gen.ReferenceQueries.Q6);
            failures += run(generated);
            Warmup.Report warm = Warmup.run(CubeOptions.defaults(), Duration.ofSeconds(Math.max(0, seconds)));
            failures += warm.failures().size();
            warm.failures().forEach(f -> spec.commandLine().getErr().println("aot-train: warm-up: " + f));
        } finally {
            deleteQuietly(dir);
        }
        PrintWriter err = spec.commandLine().getErr();
        err.printf(
                "aot-train: done in %.1f s%s%n",
                (System.nanoTime() - start) / 1e9, failures == 0 ? "" : " with " + failures + " failure(s)");
        err.flush();
        return failures == 0 ? 0 : 1;
    }

    /** Runs one numacube command line in this JVM, its results thrown away; 1 if it failed (its error shown). */
    private int run(List<String> args) {
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(Writer.nullWriter()));
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args.toArray(String[]::new));
        if (code != 0) {
            spec.commandLine().getErr().println("aot-train: " + args.getFirst() + " exited " + code + ": " + err);
            return 1;
        }
        return 0;
    }

    private static void writeCsv(Path csv) throws IOException {
        StringBuilder b = new StringBuilder("desk,qty,price,day,note\n");
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(515);
        for (int r = 0; r < CSV_ROWS; r++) {
            b.append("desk").append(rnd.nextInt(12)).append(',');
            b.append(rnd.nextInt(-5_000, 5_000))
                    .append('.')
                    .append(rnd.nextInt(10, 100))
                    .append(',');
            b.append(rnd.nextDouble() * 100).append(',');
            b.append(java.time.LocalDate.of(2024, 1, 1).plusDays(rnd.nextInt(400)))
                    .append(',');
            b.append(rnd.nextInt(10) == 0 ? "" : "n" + rnd.nextInt(CSV_ROWS)).append('\n');
        }
        Files.writeString(csv, b, StandardCharsets.UTF_8);
    }

    private static void deleteQuietly(Path dir) {
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }
}
