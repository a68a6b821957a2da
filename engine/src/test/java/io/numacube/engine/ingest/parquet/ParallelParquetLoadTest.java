package io.numacube.engine.ingest.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.ingest.csv.CsvOptions;
import io.numacube.engine.ingest.csv.CsvProgress;
import io.numacube.engine.ingest.csv.CsvStagingLoader;
import io.numacube.engine.storage.ProgressListener;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.StagedRows;
import io.numacube.engine.workers.ThreadWorkerPool;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.base.NumacubeException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Row groups decoded in parallel on a worker pool stage exactly as the serial read and the CSV read of the same rows
 * stage them (same rows in the same order, same codes, so the same first-seen dictionaries, same NULLs), and a bad value
 * in a later row group is reported as the serial read reports it: the first in file order, naming its row group.
 */
class ParallelParquetLoadTest {

    /** Eight row groups of 4,000 rows (the last 2,000). */
    private static final int GROUP_ROWS = 4000;

    /**
     * Text whose values differ per row group (and some shared by all), NULLs in some row groups only (a whole row
     * group of pnl, a few rows of the last row groups of desk, one row group of flag), dates new in every row group,
     * and free text (a value per row but for a few repeated ones), which the decoders code without lookups.
     */
    private static final String ROWS = "SELECT i AS id,"
            + " CASE WHEN i % 3 = 0 THEN 'shared' || (i % 4) ELSE 'g' || (i // 4000) || '-' || (i % 5) END AS label,"
            + " CASE WHEN i BETWEEN 8000 AND 11999 OR (i BETWEEN 21000 AND 21500 AND i % 2 = 0) THEN NULL"
            + " ELSE i * 0.25::DOUBLE END AS pnl,"
            + " CASE WHEN i >= 24000 AND i % 7 = 0 THEN NULL ELSE 'desk' || (i % 9) END AS desk,"
            + " DATE '2024-01-01' + (i // 1000)::INTEGER AS day, (i % 13)::INTEGER AS k,"
            + " CASE WHEN i BETWEEN 12000 AND 15999 AND i % 5 = 0 THEN NULL ELSE i % 2 = 0 END AS flag,"
            + " CASE WHEN i % 10 = 0 THEN 'same' || (i % 3) ELSE md5(i::VARCHAR) END AS note"
            + " FROM range(30000) t(i)";

    private static WorkerPool pool;

    @BeforeAll
    static void startWorkers() {
        pool = new ThreadWorkerPool(2, 2);
    }

    @AfterAll
    static void stopWorkers() {
        pool.close();
    }

    @Test
    void rowGroupsDecodedInParallelStageExactlyAsTheSerialRead(@TempDir Path dir) throws Exception {
        Path file = write(dir, ROWS);
        TableStaging serial = new ParquetStagingLoader()
                .stage(file, "p", null, ProgressListener.NONE)
                .staging();
        TableStaging parallel = new ParquetStagingLoader(pool)
                .stage(file, "p", null, ProgressListener.NONE)
                .staging();
        assertStagedAlike(serial, parallel);
        try (DuckDb duck = new DuckDb()) {
            int[] nulls = StagedRows.assertSameAsDuckDb(
                    duck, parallel, "SELECT * FROM read_parquet('" + file + "') ORDER BY id");
            assertEquals("[0, 0, 4251, 857, 0, 0, 800, 0]", Arrays.toString(nulls));
        }
    }

    @Test
    void rowGroupsDecodedInParallelStageAsTheCsvReadOfTheSameRows(@TempDir Path dir) throws Exception {
        Path parquet = write(dir, ROWS);
        Path csv = dir.resolve("p.csv");
        try (DuckDb duck = new DuckDb()) {
            duck.execute("COPY (" + ROWS + ") TO '" + csv + "' (HEADER)");
        }
        TableStaging fromCsv = new CsvStagingLoader(CsvOptions.DEFAULT)
                .stage(csv, "p", null, CsvProgress.NONE)
                .staging();
        TableStaging fromParquet = new ParquetStagingLoader(pool)
                .stage(parquet, "p", null, ProgressListener.NONE)
                .staging();
        assertEquals(fromCsv.schema(), fromParquet.schema());
        assertStagedAlike(fromCsv, fromParquet);
    }

    @Test
    void aBadValueInALaterRowGroupIsTheFirstInFileOrderNamingItsRowGroup(@TempDir Path dir) throws Exception {
        // row group 4 holds a NaN (row 17,001), a date beyond 9999 in a later column (row 16,501) and an infinity in
        // a column after that (row 16,801); row group 6 holds another bad date: the serial read meets row 16,501 first
        Path file = write(
                dir,
                "SELECT i AS id, CASE WHEN i = 17000 THEN 'NaN'::DOUBLE ELSE i END AS d,"
                        + " CASE WHEN i IN (16500, 26001) THEN DATE '10000-01-01' ELSE DATE '2024-01-01' END AS day,"
                        + " CASE WHEN i = 16800 THEN 'Infinity'::DOUBLE ELSE 0 END AS e"
                        + " FROM range(30000) t(i)");
        String expected = file + ": row 16501 (row group 4), column day: the date +10000-01-01 is outside"
                + " 0001-01-01..9999-12-31, the dates numacube reads and writes";
        assertEquals(expected, stageError(new ParquetStagingLoader(), file).getMessage());
        NumacubeException parallel = stageError(new ParquetStagingLoader(pool), file);
        assertEquals(expected, parallel.getMessage());
        assertEquals("22P02", parallel.code());
    }

    @Test
    void aBadValueInTheLastRowGroupIsNamedWithItsRowAndColumn(@TempDir Path dir) throws Exception {
        Path file = write(
                dir, "SELECT i AS id, CASE WHEN i = 29000 THEN 'NaN'::DOUBLE ELSE i END AS d FROM range(30000) t(i)");
        assertEquals(
                file + ": row 29001 (row group 7), column d: the value NaN is not finite (DOUBLE columns hold finite"
                        + " values only; NaN and infinities are not supported)",
                stageError(new ParquetStagingLoader(pool), file).getMessage());
    }

    @Test
    void theRowGroupsAreDecodedOnThePoolsWorkers(@TempDir Path dir) throws Exception {
        Path file = write(dir, ROWS);
        CountingPool counting = new CountingPool(pool);
        TableStaging staged = new ParquetStagingLoader(counting)
                .stage(file, "p", null, ProgressListener.NONE)
                .staging();
        assertEquals(30_000, staged.rows());
        // one decoding task per worker, then the tasks that settle the free-text column's dictionary
        assertTrue(counting.submitted.get() > pool.workerCount(), "a decoding task per worker: " + counting.submitted);
    }

    private static NumacubeException stageError(ParquetStagingLoader loader, Path file) {
        return assertThrows(NumacubeException.class, () -> loader.stage(file, "p", null, ProgressListener.NONE));
    }

    private static Path write(Path dir, String select) throws Exception {
        Path file = dir.resolve("p.parquet");
        try (DuckDb duck = new DuckDb()) {
            duck.execute("COPY (" + select + ") TO '" + file + "' (FORMAT parquet, ROW_GROUP_SIZE " + GROUP_ROWS + ")");
            assertEquals(
                    8L,
                    ((Number) duck.query("SELECT count(DISTINCT row_group_id) FROM parquet_metadata('" + file + "')")
                                    .getFirst()[0])
                            .longValue(),
                    "row groups");
        }
        return file;
    }

    /** Same rows in the same order, same codes (so the same first-seen dictionaries), same values and NULLs. */
    private static void assertStagedAlike(TableStaging expected, TableStaging actual) throws Exception {
        assertEquals(expected.rows(), actual.rows(), "rows");
        int rows = expected.rows();
        for (int c = 0; c < expected.schema().size(); c++) {
            String column = expected.schema().column(c).name();
            if (expected.codes(c) != null) {
                assertEquals(expected.dictionary(c).size(), actual.dictionary(c).size(), "dictionary of " + column);
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
        try (DuckDb duck = new DuckDb()) {
            List<Object[]> a = loaded(duck, expected);
            List<Object[]> b = loaded(duck, actual);
            for (int r = 0; r < rows; r++) {
                assertTrue(Arrays.equals(a.get(r), b.get(r)), "row " + (r + 1));
            }
        }
    }

    /** The staging's rows as DuckDB holds them, in staged order. */
    private static List<Object[]> loaded(DuckDb duck, TableStaging staging) throws Exception {
        duck.load(staging);
        List<Object[]> rows = duck.query("SELECT * FROM " + staging.schema().name());
        duck.execute("DROP TABLE " + staging.schema().name());
        return rows;
    }

    /** A pool that counts the tasks submitted to it. */
    private static final class CountingPool implements WorkerPool {
        private final WorkerPool pool;
        private final AtomicInteger submitted = new AtomicInteger();

        CountingPool(WorkerPool pool) {
            this.pool = pool;
        }

        @Override
        public List<Integer> nodes() {
            return pool.nodes();
        }

        @Override
        public int workersOn(int node) {
            return pool.workersOn(node);
        }

        @Override
        public int workerCount() {
            return pool.workerCount();
        }

        @Override
        public List<Integer> stealOrder(int node) {
            return pool.stealOrder(node);
        }

        @Override
        public <T> CompletableFuture<T> submit(int node, Callable<T> task) {
            submitted.incrementAndGet();
            return pool.submit(node, task);
        }

        @Override
        public AtomicInteger queriesRunning() {
            return pool.queriesRunning();
        }

        @Override
        public void runOnEveryWorker(WorkerBody body) {
            pool.runOnEveryWorker(body);
        }

        @Override
        public String describe() {
            return pool.describe();
        }

        @Override
        public void close() {}
    }
}
