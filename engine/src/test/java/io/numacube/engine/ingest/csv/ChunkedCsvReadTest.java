package io.numacube.engine.ingest.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.storage.DictionaryBuilder;
import io.numacube.engine.workers.ThreadWorkerPool;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.base.NumacubeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CSV file read in chunks parsed in parallel stages exactly as the read on one thread stages it (same rows in the same
 * order, same dictionaries in the same first-seen order, same codes, values and NULLs), whatever the chunk size:
 * quoted fields with delimiters and line breaks (so that chunk edges fall inside quotes), CRLF, blank lines, NULLs,
 * multi-byte text; and a bad record in a later chunk is reported with the same message (file, line, column, field) as
 * the read on one thread reports it.
 */
class ChunkedCsvReadTest {

    private static final TableSchema SCHEMA = TableSchema.parse(
            "t", "id:int,name:string,amount:decimal(15,2),price:double,day:date,note:string,qty:long,flag:boolean");

    /** A small read buffer, so that a chunk of a few bytes costs little (the buffer grows for longer records). */
    private static final CsvOptions OPTIONS = new CsvOptions(',', 10_000, 256, java.util.List.of(), false);

    private static WorkerPool pool;

    @BeforeAll
    static void startWorkers() {
        pool = new ThreadWorkerPool(1, 3);
    }

    @AfterAll
    static void stopWorkers() {
        pool.close();
    }

    @Test
    void chunksParsedInParallelStageExactlyAsTheReadOnOneThread(@TempDir Path dir) throws Exception {
        for (long seed = 1; seed <= 4; seed++) {
            Path file = dir.resolve("t" + seed + ".csv");
            Files.writeString(file, randomCsv(seed, 1500, seed % 2 == 0 ? "\r\n" : "\n"), StandardCharsets.UTF_8);
            TableStaging serial = stage(new CsvStagingLoader(OPTIONS), file);
            for (long chunk : new long[] {211, 4096, 50_000}) {
                TableStaging chunked = stage(new CsvStagingLoader(OPTIONS, pool, chunk), file);
                assertStagedAlike(serial, chunked, "seed=" + seed + " chunkBytes=" + chunk);
            }
        }
    }

    @Test
    void freeTextInChunksOfThousandsOfRowsIsCodedOnceWhenTheChunksAreAppended(@TempDir Path dir) throws Exception {
        // chunks of over 4,096 rows: the note column's values are nearly all new, so a chunk stops looking them up and
        // the append codes a repeated value once, in first-seen order, as the read on one thread does
        Path file = dir.resolve("text.csv");
        Files.writeString(file, randomCsv(12, 25_000, "\n"), StandardCharsets.UTF_8);
        TableStaging serial = stage(new CsvStagingLoader(OPTIONS), file);
        assertTrue(serial.dictionary(5).size() > 20_000, "the note column is free text");
        for (long chunk : new long[] {400_000}) {
            TableStaging chunked = stage(new CsvStagingLoader(OPTIONS, pool, chunk), file);
            assertStagedAlike(serial, chunked, "chunkBytes=" + chunk);
        }
    }

    @Test
    void aFileOfQuotedLineBreaksOnlyIsReadRightWhereEveryChunkEdgeIsInsideQuotes(@TempDir Path dir) throws Exception {
        StringBuilder csv = new StringBuilder("id,note\n");
        for (int i = 0; i < 500; i++) {
            csv.append(i).append(",\"a\nb\n\nc,").append(i).append("\n\"\n");
        }
        Path file = dir.resolve("q.csv");
        Files.writeString(file, csv);
        TableSchema schema = TableSchema.parse("q", "id:int,note:string");
        TableStaging serial = new CsvStagingLoader(OPTIONS)
                .stage(file, "q", schema, CsvProgress.NONE)
                .staging();
        for (long chunk : new long[] {1, 3, 10, 100}) {
            TableStaging chunked = new CsvStagingLoader(OPTIONS, pool, chunk)
                    .stage(file, "q", schema, CsvProgress.NONE)
                    .staging();
            assertStagedAlike(serial, chunked, "chunkBytes=" + chunk);
        }
        assertEquals(500, serial.rows());
    }

    @Test
    void aBadRecordInALaterChunkIsReportedAsTheReadOnOneThreadReportsIt(@TempDir Path dir) throws Exception {
        String good = randomCsv(7, 2000, "\n");
        String[] bad = {
            // a value of the wrong type after quoted line breaks, a row short of a field, a stray quote
            good.substring(0, good.lastIndexOf("\n", good.length() * 3 / 4) + 1)
                    + "5,\"x\ny\",1.50,2.5,2024-02-30,n,3,true\n"
                    + good.substring(good.lastIndexOf("\n", good.length() * 3 / 4) + 1),
            good + "6,x,1.5,2.5\n",
            good.substring(0, good.length() / 2) + "\"oops" + good.substring(good.length() / 2),
            good + "7,x,1.5,2.5,2024-01-01,n,12x,true\n" + good.substring(good.indexOf('\n') + 1),
        };
        for (int i = 0; i < bad.length; i++) {
            Path file = dir.resolve("bad" + i + ".csv");
            Files.writeString(file, bad[i], StandardCharsets.UTF_8);
            String serial = stageError(new CsvStagingLoader(OPTIONS), file);
            for (long chunk : new long[] {1, 100, 5000}) {
                assertEquals(
                        serial,
                        stageError(new CsvStagingLoader(OPTIONS, pool, chunk), file),
                        "case " + i + " chunkBytes=" + chunk);
            }
        }
    }

    @Test
    void aPoolOfOneWorkerOrAFileOfFewChunksStagesAsTheReadOnOneThread(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("big.csv");
        Files.writeString(file, randomCsv(11, 20_000, "\n"), StandardCharsets.UTF_8);
        TableStaging serial = stage(new CsvStagingLoader(OPTIONS), file);
        try (ThreadWorkerPool one = new ThreadWorkerPool(1, 1)) {
            assertStagedAlike(serial, stage(new CsvStagingLoader(OPTIONS, one, 1000), file), "one worker");
        }
        assertStagedAlike(serial, stage(new CsvStagingLoader(OPTIONS, pool), file), "chosen chunks");
    }

    @Test
    void aBatchInMemoryReadInChunksStagesExactlyAsTheReadOnOneThread() {
        for (long seed = 1; seed <= 3; seed++) {
            byte[] batch = randomCsv(seed, 1500, seed % 2 == 0 ? "\r\n" : "\n").getBytes(StandardCharsets.UTF_8);
            TableStaging serial = stageBatch(new CsvStagingLoader(OPTIONS), batch);
            for (long chunk : new long[] {211, 4096, 50_000}) {
                TableStaging chunked = stageBatch(new CsvStagingLoader(OPTIONS, pool, chunk), batch);
                assertStagedAlike(serial, chunked, "batch seed=" + seed + " chunkBytes=" + chunk);
            }
        }
        // a batch's columns in another order, one left out (NULL)
        byte[] reordered = ("note,id,day\n" + "a,1,2024-01-02\n".repeat(3000)).getBytes(StandardCharsets.UTF_8);
        TableStaging serial = stageBatch(new CsvStagingLoader(OPTIONS), reordered);
        assertStagedAlike(serial, stageBatch(new CsvStagingLoader(OPTIONS, pool, 1000), reordered), "reordered");
        assertTrue(serial.isNull(1, 2999), "a column the batch leaves out is NULL");
        assertStagedAlike(serial, stageBatch(new CsvStagingLoader(OPTIONS, pool), reordered), "chosen chunks");
    }

    @Test
    void aBadRowOfABatchInALaterChunkIsReportedAsTheReadOnOneThreadReportsIt() {
        String good = randomCsv(7, 2000, "\n");
        String[] bad = {
            good.substring(0, good.lastIndexOf("\n", good.length() * 3 / 4) + 1)
                    + "5,\"x\ny\",1.50,2.5,2024-02-30,n,3,true\n"
                    + good.substring(good.lastIndexOf("\n", good.length() * 3 / 4) + 1),
            good + "6,x,1.5,2.5\n",
            good.substring(0, good.length() / 2) + "\"oops" + good.substring(good.length() / 2),
            good + "7,x,1.5,2.5,2024-01-01,n,12x,true\n" + good.substring(good.indexOf('\n') + 1),
        };
        for (int i = 0; i < bad.length; i++) {
            byte[] batch = bad[i].getBytes(StandardCharsets.UTF_8);
            String serial = batchError(new CsvStagingLoader(OPTIONS), batch);
            assertTrue(serial.contains("POST rows:"), serial);
            for (long chunk : new long[] {1, 100, 5000}) {
                assertEquals(
                        serial,
                        batchError(new CsvStagingLoader(OPTIONS, pool, chunk), batch),
                        "case " + i + " chunkBytes=" + chunk);
            }
        }
    }

    @Test
    void aBatchIsReadOnTheCallingThreadWhileEveryWorkerIsBusy() throws Exception {
        byte[] batch = randomCsv(5, 3000, "\n").getBytes(StandardCharsets.UTF_8);
        TableStaging serial = stageBatch(new CsvStagingLoader(OPTIONS), batch);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch busy = new java.util.concurrent.CountDownLatch(pool.workerCount());
        java.util.List<java.util.concurrent.CompletableFuture<Boolean>> blockers = new java.util.ArrayList<>();
        for (int w = 0; w < pool.workerCount(); w++) {
            blockers.add(pool.submit(pool.nodes().getFirst(), () -> {
                busy.countDown();
                return release.await(60, java.util.concurrent.TimeUnit.SECONDS);
            }));
        }
        busy.await();
        TableStaging chunked;
        try {
            chunked = java.util.concurrent.CompletableFuture.supplyAsync(
                            () -> stageBatch(new CsvStagingLoader(OPTIONS, pool, 4096), batch))
                    .get(20, java.util.concurrent.TimeUnit.SECONDS);
        } finally {
            release.countDown();
            blockers.forEach(java.util.concurrent.CompletableFuture::join);
        }
        assertStagedAlike(serial, chunked, "with every worker busy");
    }

    private static TableStaging stageBatch(CsvStagingLoader loader, byte[] batch) {
        return loader.stage(batch, "POST rows", SCHEMA).staging();
    }

    private static String batchError(CsvStagingLoader loader, byte[] batch) {
        return assertThrows(NumacubeException.class, () -> stageBatch(loader, batch))
                .getMessage();
    }

    private static TableStaging stage(CsvStagingLoader loader, Path file) {
        return loader.stage(file, "t", SCHEMA, CsvProgress.NONE).staging();
    }

    private static String stageError(CsvStagingLoader loader, Path file) {
        NumacubeException e = assertThrows(NumacubeException.class, () -> stage(loader, file));
        return e.getMessage();
    }

    /** Rows of every column type, some with quotes, delimiters, line breaks, multi-byte text, NULLs, blank lines. */
    private static String randomCsv(long seed, int rows, String eol) {
        Random rnd = new Random(seed);
        StringBuilder sb = new StringBuilder("id,name,amount,price,day,note,qty,flag").append(eol);
        String[] names = {"alpha", "beta", "gamma", "délta", "ε", "\"quoted, with comma\"", "\"two\nlines\"", ""};
        for (int r = 0; r < rows; r++) {
            if (rnd.nextInt(50) == 0) {
                sb.append(eol);
            }
            sb.append(rnd.nextInt(20) == 0 ? "" : Integer.toString(rnd.nextInt(500)))
                    .append(',');
            sb.append(names[rnd.nextInt(names.length)]).append(',');
            sb.append(rnd.nextInt(15) == 0 ? "" : (rnd.nextInt(100000) - 50000) / 100.0)
                    .append(',');
            sb.append(rnd.nextInt(15) == 0 ? "" : Double.toString(rnd.nextDouble() * 1000))
                    .append(',');
            sb.append(rnd.nextInt(15) == 0 ? "" : java.time.LocalDate.ofEpochDay(rnd.nextInt(20000)))
                    .append(',');
            sb.append(note(rnd, eol)).append(',');
            sb.append(rnd.nextInt(15) == 0 ? "" : Long.toString(rnd.nextLong() >> 8))
                    .append(',');
            sb.append(rnd.nextInt(10) == 0 ? "" : rnd.nextBoolean());
            if (r < rows - 1 || rnd.nextBoolean()) {
                sb.append(eol);
            }
        }
        return sb.toString();
    }

    /** A comment-like text, mostly distinct; quoted with an embedded delimiter, quote or line break now and then. */
    private static String note(Random rnd, String eol) {
        StringBuilder t = new StringBuilder();
        int words = 1 + rnd.nextInt(5);
        for (int w = 0; w < words; w++) {
            t.append(w == 0 ? "" : " ").append(Long.toString(rnd.nextInt(1 << 20), 36));
        }
        return switch (rnd.nextInt(12)) {
            case 0 -> "\"" + t + ", " + t + "\"";
            case 1 -> "\"" + t + eol + t + "\"";
            case 2 -> "\"say \"\"" + t + "\"\"\"";
            case 3 -> "\"\"";
            default -> t.toString();
        };
    }

    private static void assertStagedAlike(TableStaging expected, TableStaging actual, String what) {
        assertEquals(expected.rows(), actual.rows(), "rows " + what);
        int rows = expected.rows();
        for (int c = 0; c < expected.schema().size(); c++) {
            String column = expected.schema().column(c).name() + " " + what;
            if (expected.codes(c) != null) {
                DictionaryBuilder e = expected.dictionary(c);
                DictionaryBuilder a = actual.dictionary(c);
                assertEquals(e.size(), a.size(), "dictionary size of " + column);
                assertEquals(e.nullCodeIfAny(), a.nullCodeIfAny(), "NULL code of " + column);
                for (int k = 0; k < e.size(); k++) {
                    if (k == e.nullCodeIfAny()) {
                        continue;
                    }
                    if (e.type() == io.numacube.engine.schema.ColumnType.STRING) {
                        assertEquals(e.stringAt(k), a.stringAt(k), "code " + k + " of " + column);
                    } else {
                        assertEquals(e.longAt(k), a.longAt(k), "code " + k + " of " + column);
                    }
                }
                assertTrue(
                        Arrays.equals(Arrays.copyOf(expected.codes(c), rows), Arrays.copyOf(actual.codes(c), rows)),
                        "codes of " + column);
            } else if (expected.doubles(c) != null) {
                assertTrue(
                        Arrays.equals(Arrays.copyOf(expected.doubles(c), rows), Arrays.copyOf(actual.doubles(c), rows)),
                        "values of " + column);
            } else {
                assertTrue(
                        Arrays.equals(Arrays.copyOf(expected.longs(c), rows), Arrays.copyOf(actual.longs(c), rows)),
                        "values of " + column);
            }
            for (int r = 0; r < rows; r++) {
                assertEquals(expected.isNull(c, r), actual.isNull(c, r), "NULL of " + column + " in row " + (r + 1));
            }
        }
    }
}
