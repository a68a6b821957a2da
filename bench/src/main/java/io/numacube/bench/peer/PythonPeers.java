package io.numacube.bench.peer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.numacube.bench.stats.Summary;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The peers that run from Python — ClickHouse (chDB), Polars, and DuckDB's Python package as a check of the route's
 * own cost — in one child process running the bench's {@code peers.py}, driven one JSON line per request (the
 * protocol is in the script's docstring). The engines load Parquet files from a data directory; each then answers
 * queries, timed inside Python by the bench's timing rule, with the whole answer returned for comparison.
 *
 * <p>Not thread-safe: one request at a time. {@link #close()} ends the child process. A failed request (a query the
 * engine refuses, a load that fails) is a {@link PeerException} naming the engine; the process goes on.
 */
public final class PythonPeers implements AutoCloseable {

    /** The engines {@code peers.py} knows, as the bench names them in requests. */
    public static final List<String> ENGINES = List.of("clickhouse", "polars", "duckdb-python");

    private static final String SCRIPT = "peers.py";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final BufferedWriter requests;
    private final BufferedReader replies;
    private final Path stderr;
    private final int threads;

    private PythonPeers(Process process, Path stderr, int threads) {
        this.process = process;
        this.requests = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        this.replies = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.stderr = stderr;
        this.threads = threads;
    }

    /**
     * Writes {@code peers.py} into {@code workDir} and starts it with {@code python}, every engine limited to
     * {@code threads} threads (Polars through {@code POLARS_MAX_THREADS}, read once at its import).
     */
    public static PythonPeers start(Path python, Path workDir, int threads) throws IOException {
        Files.createDirectories(workDir);
        Path script = workDir.resolve(SCRIPT);
        try (InputStream in = PythonPeers.class.getResourceAsStream(SCRIPT)) {
            if (in == null) {
                throw new IOException("the bench jar lacks its resource " + SCRIPT + " (a broken build?)");
            }
            Files.copy(in, script, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        Path stderr = workDir.resolve("peers-stderr.log");
        ProcessBuilder pb = new ProcessBuilder(python.toString(), script.toString()).redirectError(stderr.toFile());
        pb.environment().put("POLARS_MAX_THREADS", Integer.toString(threads));
        pb.environment().put("PYTHONUNBUFFERED", "1");
        return new PythonPeers(pb.start(), stderr, threads);
    }

    /**
     * An engine loaded with the data.
     *
     * @param engine      its name in {@link #ENGINES}
     * @param version     its version in words ("ClickHouse 26.9.2.1 (chdb 4.4.0)")
     * @param layout      how its tables are laid out and queried (the layout its documentation recommends)
     * @param loadSeconds seconds to load the Parquet files into that layout
     * @param rows        fact rows it holds
     */
    public record Loaded(String engine, String version, String layout, double loadSeconds, long rows) {}

    /**
     * One query's figures in one engine.
     *
     * @param seconds the timed runs
     * @param answer  the answer of the last timed run
     */
    public record Answer(Summary seconds, ResultTable answer) {}

    /**
     * How the script times a query (the bench's rule: see {@code BenchRunner.time}).
     *
     * @param warmups       at least this many warm-up runs
     * @param warmupSeconds and warm-up for at least this long
     * @param repetitions   at most this many timed runs
     * @param budgetSeconds timed runs beyond what fits in this are not made (at least 3 are)
     */
    public record TimingRule(int warmups, double warmupSeconds, int repetitions, double budgetSeconds) {}

    /** Loads {@code dataDir}'s {@code trades.parquet}, {@code fx.parquet} and {@code books.parquet} into {@code engine}. */
    public Loaded load(String engine, Path dataDir) throws IOException {
        ObjectNode request = JSON.createObjectNode()
                .put("op", "load")
                .put("engine", engine)
                .put("dataDir", dataDir.toAbsolutePath().toString())
                .put("threads", threads);
        JsonNode reply = call(request, engine, "load");
        return new Loaded(
                engine,
                reply.path("version").asText(),
                reply.path("layout").asText(),
                reply.path("loadSeconds").asDouble(),
                reply.path("rows").asLong());
    }

    /** Times {@code sql} in {@code engine} (loaded before) and returns the timings and its answer. */
    public Answer query(String engine, String id, String sql, TimingRule timing) throws IOException {
        ObjectNode request = JSON.createObjectNode()
                .put("op", "query")
                .put("engine", engine)
                .put("id", id)
                .put("sql", sql);
        request.set("timing", JSON.valueToTree(timing));
        JsonNode reply = call(request, engine, id);
        double[] seconds = new double[reply.path("seconds").size()];
        for (int i = 0; i < seconds.length; i++) {
            seconds[i] = reply.path("seconds").get(i).asDouble();
        }
        return new Answer(Summary.of(seconds), table(reply));
    }

    static ResultTable table(JsonNode reply) {
        List<String> columns = new ArrayList<>();
        reply.path("columns").forEach(c -> columns.add(c.asText()));
        List<List<Object>> rows = new ArrayList<>();
        for (JsonNode row : reply.path("rows")) {
            List<Object> cells = new ArrayList<>(row.size());
            row.forEach(cell -> cells.add(cell(cell)));
            rows.add(cells);
        }
        return new ResultTable(columns, rows);
    }

    private static Object cell(JsonNode cell) {
        if (cell.isNull()) {
            return null;
        }
        if (cell.isIntegralNumber()) {
            return cell.canConvertToLong() ? (Object) cell.asLong() : (Object) cell.bigIntegerValue();
        }
        return cell.isNumber() ? (Object) cell.asDouble() : cell.asText();
    }

    private JsonNode call(ObjectNode request, String engine, String what) throws IOException {
        String line;
        try {
            requests.write(JSON.writeValueAsString(request));
            requests.newLine();
            requests.flush();
            line = replies.readLine();
        } catch (IOException e) {
            line = null; // the process ended before it read the request (a broken pipe): the same as no reply
        }
        if (line == null) {
            try {
                process.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new PeerException("the Python peers' process ended: engine=" + engine + " request=" + what
                    + " — its stderr ends: " + stderrTail());
        }
        JsonNode reply = JSON.readTree(line);
        if (reply.has("error")) {
            throw new PeerException(engine + " failed: request=" + what + " — "
                    + reply.path("error").asText());
        }
        return reply;
    }

    private String stderrTail() {
        try {
            List<String> lines = Files.readAllLines(stderr, StandardCharsets.UTF_8);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() throws IOException {
        try {
            requests.write("{\"op\": \"quit\"}");
            requests.newLine();
            requests.flush();
        } catch (IOException e) {
            // the process is gone already; nothing to tell it
        }
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** A request the Python side could not carry out; the message names the engine and the request. */
    public static final class PeerException extends IOException {
        public PeerException(String message) {
            super(message);
        }
    }
}
