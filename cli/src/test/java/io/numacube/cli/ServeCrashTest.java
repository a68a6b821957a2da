package io.numacube.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of a real {@code numacube serve --data-dir} under a steady writer, {@value #KILLS} times: a child
 * JVM runs the command ({@link Main} on the test class path), two writer threads post batches of 1 to 50 rows over
 * HTTP (each batch a new number {@code b}, its rows {@code r = 0..n-1}), and now and then delete an acknowledged batch
 * ({@code DELETE FROM t WHERE b = ...}), recording which writes were acknowledged; the child
 * is killed with SIGKILL at a random moment (while writing, during its periodic checkpoints, which a checkpoint interval
 * of 1 s and a WAL threshold of 16 KiB make frequent, and every fifth time at a random moment of its start, recovery
 * included), and restarted
 * on the same directory. After each restart every acknowledged batch must be there whole (gone when its DELETE was
 * acknowledged), no batch partly (its count and its sum of {@code r}), no batch that was never sent, and the table's
 * row count the sum of the whole batches.
 */
class ServeCrashTest {

    private static final int KILLS = 20;
    private static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(150);
    private static final Pattern READY =
            Pattern.compile("^numacube ready (http://127\\.0\\.0\\.1:\\d+) postgresql://\\S+ \\(durable in (.+)\\)$");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path root;

    /** Rows sent per batch number, whether acknowledged or not. */
    private final Map<Integer, Integer> sent = new ConcurrentHashMap<>();
    /** Rows per batch number whose write was acknowledged, over all runs. */
    private final Map<Integer, Integer> acknowledged = new ConcurrentHashMap<>();

    private final AtomicInteger nextBatch = new AtomicInteger(1);
    /** Batches whose DELETE was sent, and those whose DELETE was acknowledged. */
    private final java.util.Set<Integer> deleteSent = ConcurrentHashMap.newKeySet();

    private final java.util.Set<Integer> deleteAcknowledged = ConcurrentHashMap.newKeySet();
    /** Batches a kill cut short before their answer, found whole after a restart (allowed: never partly). */
    private final java.util.Set<Integer> unacknowledgedButWhole = ConcurrentHashMap.newKeySet();

    @Test
    void everyAcknowledgedBatchSurvivesKillNineAndNoneIsPartlyThere() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Path dir = root.resolve("data");
        Path seedCsv = root.resolve("t.csv");
        Files.writeString(seedCsv, "b,r\n0,0\n0,1\n");
        long started = System.nanoTime();
        int kills = 0;
        for (int run = 0; kills < KILLS && System.nanoTime() - started < BUDGET_NANOS; run++) {
            String context = "seed=" + seed + " run=" + run;
            Child child = Child.start(root, dir, run, run == 0 ? seedCsv : null);
            try {
                if (run > 0 && run % 5 == 0) {
                    Thread.sleep(random.nextInt(2500));
                    child.kill();
                    kills++;
                    continue;
                }
                String http = child.awaitReady(context);
                check(http, context);
                writeUntilKilled(http, child, 200 + random.nextInt(1800));
                kills++;
            } finally {
                child.kill();
            }
        }
        Child last = Child.start(root, dir, -1, null);
        try {
            check(last.awaitReady("seed=" + seed + " after the last kill"), "seed=" + seed + " after the last kill");
        } finally {
            last.kill();
        }
        assertTrue(kills >= 10, "seed=" + seed + ": only " + kills + " kills in the time budget");
        long periodic = countInStderr("numacube: INFO: checkpoint ");
        assertTrue(periodic > 0, "seed=" + seed + ": no periodic checkpoint ran while writes came in");
        System.out.printf(
                "serve crash test: seed=%d kills=%d batches-sent=%d acknowledged=%d deleted=%d unacknowledged-but-whole=%d"
                        + " periodic-checkpoints=%d torn-tails-cut=%d in %.0f s%n",
                seed,
                kills,
                sent.size(),
                acknowledged.size(),
                deleteAcknowledged.size(),
                unacknowledgedButWhole.size(),
                periodic,
                countInStderr("WAL torn tail cut"),
                (System.nanoTime() - started) / 1e9);
    }

    /** Lines of the children's stderr that contain {@code text}. */
    private long countInStderr(String text) throws IOException {
        long n = 0;
        try (var files = Files.newDirectoryStream(root, "err-*.txt")) {
            for (Path f : files) {
                n += Files.readAllLines(f).stream()
                        .filter(l -> l.contains(text))
                        .count();
            }
        }
        return n;
    }

    /** Two writers post batches until the child is killed {@code killAfterMillis} after they started. */
    private void writeUntilKilled(String http, Child child, int killAfterMillis) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            Random rnd = new Random(w * 31L + killAfterMillis);
            writers.add(Thread.ofPlatform().start(() -> {
                while (!stop.get()) {
                    boolean answered = rnd.nextInt(6) == 0 ? deleteABatch(http, rnd) : post(http, rnd.nextInt(50) + 1);
                    if (!answered) {
                        return;
                    }
                }
            }));
        }
        Thread.sleep(killAfterMillis);
        child.kill();
        stop.set(true);
        for (Thread t : writers) {
            t.join(TimeUnit.SECONDS.toMillis(30));
        }
    }

    /** Posts one batch; false when the server did not answer (it was killed). */
    private boolean post(String http, int rows) {
        int b = nextBatch.getAndIncrement();
        StringBuilder csv = new StringBuilder("b,r\n");
        for (int r = 0; r < rows; r++) {
            csv.append(b).append(',').append(r).append('\n');
        }
        sent.put(b, rows);
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create(http + "/v1/tables/t/rows"))
                            .timeout(Duration.ofSeconds(20))
                            .header("Content-Type", "text/csv")
                            .POST(HttpRequest.BodyPublishers.ofString(csv.toString()))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new AssertionError("batch " + b + " refused: " + response.statusCode() + " " + response.body());
            }
            acknowledged.put(b, rows);
            return true;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Deletes an acknowledged batch not deleted yet ({@code DELETE FROM t WHERE b = ...} over HTTP); false when the
     * server did not answer (it was killed).
     */
    private boolean deleteABatch(String http, Random rnd) {
        List<Integer> candidates = acknowledged.keySet().stream()
                .filter(b -> !deleteSent.contains(b))
                .sorted()
                .toList();
        if (candidates.isEmpty()) {
            return true;
        }
        int b = candidates.get(rnd.nextInt(candidates.size()));
        deleteSent.add(b);
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create(http + "/v1/query"))
                            .timeout(Duration.ofSeconds(20))
                            .header("Content-Type", "text/plain")
                            .POST(HttpRequest.BodyPublishers.ofString("DELETE FROM t WHERE b = " + b))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new AssertionError(
                        "DELETE of batch " + b + " refused: " + response.statusCode() + " " + response.body());
            }
            deleteAcknowledged.add(b);
            return true;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Every acknowledged batch whole unless its DELETE was acknowledged (then gone) or sent (then either), every batch
     * there whole and sent, the row count their sum.
     */
    private void check(String http, String context) throws Exception {
        JsonNode rows = query(http, "SELECT b, COUNT(*), SUM(r) FROM t GROUP BY b ORDER BY b");
        Map<Integer, long[]> found = new TreeMap<>();
        for (JsonNode row : rows) {
            found.put(
                    row.get(0).asInt(),
                    new long[] {row.get(1).asLong(), row.get(2).asLong()});
        }
        List<String> wrong = new ArrayList<>();
        long expectedRows = 0;
        for (Map.Entry<Integer, long[]> e : found.entrySet()) {
            int b = e.getKey();
            Integer n = b == 0 ? Integer.valueOf(2) : sent.get(b);
            if (n == null) {
                wrong.add("batch " + b + " is there but was never sent");
                continue;
            }
            if (e.getValue()[0] != n || e.getValue()[1] != (long) n * (n - 1) / 2) {
                wrong.add("batch " + b + " partly there: rows=" + e.getValue()[0] + " sum(r)=" + e.getValue()[1]
                        + " sent-rows=" + n);
            }
            if (deleteAcknowledged.contains(b)) {
                wrong.add("batch " + b + " is there though its DELETE was acknowledged");
            }
            expectedRows += n;
            if (b > 0 && !acknowledged.containsKey(b)) {
                unacknowledgedButWhole.add(b);
            }
        }
        for (Map.Entry<Integer, Integer> a : new TreeMap<>(acknowledged).entrySet()) {
            if (!found.containsKey(a.getKey()) && !deleteSent.contains(a.getKey())) {
                wrong.add("acknowledged batch " + a.getKey() + " (" + a.getValue() + " rows) is missing");
            }
        }
        assertEquals(List.of(), wrong, context);
        long count = query(http, "SELECT COUNT(*) FROM t").get(0).get(0).asLong();
        assertEquals(expectedRows, count, context + ": the row count is the sum of the whole batches");
    }

    private static JsonNode query(String http, String sql) throws Exception {
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(http + "/v1/query"))
                        .timeout(Duration.ofSeconds(60))
                        .header("Content-Type", "text/plain")
                        .POST(HttpRequest.BodyPublishers.ofString(sql))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body()).get("rows");
    }

    /** A {@code numacube serve --data-dir} child JVM and its output files. */
    record Child(Process process, Path stdout, Path stderr, Path dir) {

        /** Starts serve on {@code dir}, loading {@code seedCsv} as table t when given (the first start). */
        static Child start(Path root, Path dir, int run, Path seedCsv) throws IOException {
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xshare:auto",
                    "-XX:TieredStopAtLevel=1",
                    "-XX:+UseSerialGC",
                    "-Xmx512m",
                    "--enable-native-access=ALL-UNNAMED",
                    "-cp",
                    System.getProperty("java.class.path"),
                    Main.class.getName(),
                    "serve",
                    "--warm-up",
                    "0",
                    "--data-dir",
                    dir.toString(),
                    "--http-port",
                    "0",
                    "--pg-port",
                    "0",
                    "--simulated-nodes",
                    "2",
                    "--checkpoint-interval",
                    "1s",
                    "--checkpoint-wal-size",
                    "16K"));
            if (seedCsv != null) {
                command.addAll(List.of("--table", "t=" + seedCsv, "--schema", "t=b:long,r:long"));
            }
            String name = run < 0 ? "last" : Integer.toString(run);
            Path stdout = root.resolve("out-" + name + ".txt");
            Path stderr = root.resolve("err-" + name + ".txt");
            ProcessBuilder pb = new ProcessBuilder(command);
            pb.redirectOutput(stdout.toFile());
            pb.redirectError(stderr.toFile());
            return new Child(pb.start(), stdout, stderr, dir);
        }

        /** Waits for the ready line; returns the HTTP URL it names. */
        String awaitReady(String context) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (System.nanoTime() < deadline) {
                List<String> lines = Files.readAllLines(stdout);
                if (!lines.isEmpty()) {
                    Matcher m = READY.matcher(lines.get(0));
                    assertTrue(m.matches(), context + ": not the ready line: " + lines.get(0));
                    assertEquals(dir.toString(), m.group(2), context);
                    return m.group(1);
                }
                if (!process.isAlive()) {
                    fail(context + ": serve exited " + process.exitValue() + " before it was ready:\n"
                            + Files.readString(stderr));
                }
                Thread.sleep(20);
            }
            fail(context + ": serve not ready in 90 s:\n" + Files.readString(stderr));
            return null;
        }

        /** SIGKILL, and waits until the process is gone. */
        void kill() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor();
        }
    }
}
