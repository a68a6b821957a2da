package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.ingest.csv.CsvOptions;
import io.numacube.engine.ingest.csv.CsvStagingLoader;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.storage.Dictionary;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import io.numacube.numa.base.NumacubeException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * CSV batches staged against the table's dictionaries ({@link Cube#dictionaries}, as the server stages its writes)
 * answer every query as DuckDB does with the same rows: text values the table holds (short and long ones, ones sharing
 * their first 8 bytes, non-ASCII and quoted ones with doubled quotes), new values and NULLs; batches staged against
 * dictionaries that other batches grew meanwhile, against those of a table since replaced, and in chunks on the
 * workers. A bad row is the same error either way, and leaves the table as it was.
 */
class KnownCodesAppendTest {

    private static final TableSchema FACT = new TableSchema(
            "f",
            List.of(
                    ColumnSpec.of("s", ColumnType.STRING),
                    ColumnSpec.of("t", ColumnType.STRING),
                    ColumnSpec.of("v", ColumnType.DOUBLE),
                    ColumnSpec.of("id", ColumnType.LONG)));

    private static final String[] LONG_TEXTS = {
        "counterparty-0001",
        "counterparty-0002",
        "counterparty-0002x",
        "counterpa",
        "counterp",
        "counter",
        "Zürich AG",
        "日本の取引先",
        "say \"hi\"",
        "a,b",
        ""
    };

    private DuckDb duck;
    private Cube cube;
    private final List<Object[]> rows = new ArrayList<>();
    private final Random rnd = new Random(5);
    private int nextId;

    @BeforeEach
    void open() throws Exception {
        duck = new DuckDb();
        cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1));
    }

    @AfterEach
    void close() throws Exception {
        cube.close();
        duck.close();
    }

    @Test
    void batchesCodedAgainstTheTablesDictionariesAnswerAsDuckDb() throws Exception {
        cube.loadTable(stageFresh(batch(500, 3)));
        Dictionary[] stale = cube.dictionaries("f");
        for (int b = 1; b <= 25; b++) {
            List<Object[]> next = batch(1 + rnd.nextInt(300), 3 + b);
            // every third batch is staged against the dictionaries of a few batches ago
            Dictionary[] known = b % 3 == 0 ? stale : cube.dictionaries("f");
            cube.append("f", stage(next, known, null));
            if (b % 4 == 0) {
                stale = cube.dictionaries("f");
            }
        }
        compareWithDuckDb();
    }

    @Test
    void aBatchOfKnownValuesAddsNothingToItsOwnDictionaries() {
        List<Object[]> loaded = batch(400, 4);
        cube.loadTable(stageFresh(loaded));
        Dictionary[] known = cube.dictionaries("f");
        TableStaging staged = stage(loaded.subList(100, 300), known, null);
        assertTrue(staged.knowsValues(0));
        assertEquals(known[0].size(), staged.dictionary(0).size(), "a value the table holds was coded anew");
        assertEquals(known[1].size(), staged.dictionary(1).size(), "a value the table holds was coded anew");
    }

    @Test
    void aBatchStagedBeforeTheTableWasReplacedIsAppendedByItsValues() throws Exception {
        cube.loadTable(stageFresh(batch(300, 5)));
        Dictionary[] old = cube.dictionaries("f");
        rows.clear();
        // the new table's dictionaries hold other values at the old codes
        cube.loadTable(stageFresh(batch(300, 9)));
        cube.append("f", stage(batch(300, 7), old, null));
        compareWithDuckDb();
    }

    @Test
    void batchesReadInChunksOnTheWorkersAnswerAsDuckDb() throws Exception {
        cube.loadTable(stageFresh(batch(2000, 6)));
        for (int b = 0; b < 3; b++) {
            cube.append("f", stage(batch(12_000, 8 + b), cube.dictionaries("f"), cube.workers()));
        }
        compareWithDuckDb();
    }

    /**
     * Upserts keyed on both text columns: each appended row replaces every row of its key (the first batch's rows are
     * kept as loaded, duplicates too), the last of a batch wins, and a key holding NULL replaces nothing; the rows
     * expected are computed here from the rows sent.
     */
    @Test
    void upsertsOfKnownAndNewKeysReplaceTheRowsOfTheirKey() throws Exception {
        java.util.Map<Object, List<Object[]>> byKey = new java.util.LinkedHashMap<>();
        List<Object[]> first = batch(400, 4);
        cube.loadTable(stageFresh(first));
        first.forEach(r -> byKey.computeIfAbsent(key(r), k -> new ArrayList<>()).add(r));
        cube.setKey("f", List.of("s", "t"));
        for (int b = 0; b < 8; b++) {
            List<Object[]> next = batch(200, 4 + b);
            cube.append("f", stage(next, cube.dictionaries("f"), b % 2 == 0 ? null : cube.workers()));
            java.util.Map<Object, Object[]> lastOfBatch = new java.util.LinkedHashMap<>();
            next.forEach(r -> lastOfBatch.put(key(r), r));
            lastOfBatch.forEach((k, r) -> byKey.put(k, new ArrayList<>(List.<Object[]>of(r))));
        }
        rows.clear();
        byKey.values().forEach(rows::addAll);
        compareWithDuckDb();
    }

    /** A row's key, or the row itself (a key of its own) when the key holds NULL. */
    private static Object key(Object[] row) {
        return row[0] == null || row[1] == null ? new Object() : java.util.Arrays.asList(row[0], row[1]);
    }

    @Test
    void aBadRowIsTheSameErrorAndChangesNothing() throws Exception {
        cube.loadTable(stageFresh(batch(300, 4)));
        List<Object[]> good = batch(50, 4);
        rows.subList(rows.size() - good.size(), rows.size()).clear();
        String text = csv(good).replace("," + good.get(20)[3] + "\n", "," + good.get(20)[3] + "x\n");
        assertTrue(text.contains("x\n"));
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        CsvStagingLoader loader = new CsvStagingLoader(CsvOptions.DEFAULT);
        NumacubeException fresh = assertThrows(NumacubeException.class, () -> loader.stage(bytes, "batch", FACT));
        NumacubeException known =
                assertThrows(NumacubeException.class, () -> loader.stage(bytes, "batch", FACT, cube.dictionaries("f")));
        assertEquals(fresh.getMessage(), known.getMessage());
        compareWithDuckDb();
    }

    private void compareWithDuckDb() throws Exception {
        duck.load(FACT, rows);
        for (String sql : List.of(
                "SELECT s, t, COUNT(*), SUM(v), MIN(id), MAX(id) FROM f GROUP BY s, t ORDER BY s NULLS FIRST, t NULLS"
                        + " FIRST",
                "SELECT COUNT(DISTINCT s), COUNT(DISTINCT t), COUNT(s), COUNT(t), COUNT(*), SUM(id) FROM f",
                "SELECT t, COUNT(*) FROM f WHERE t LIKE 'counterp%' OR t IN ('Zürich AG', 'say \"hi\"') GROUP BY t"
                        + " ORDER BY t",
                "SELECT s, SUM(v) FROM f WHERE t IS NULL GROUP BY s ORDER BY s NULLS LAST")) {
            QueryResult ours = cube.query(sql);
            ResultComparator.assertSame(sql, ours, duck.query(sql), 0, new boolean[ours.columnCount()], true, 1e-9);
        }
    }

    /** Rows with {@code spread} short values (some new in each batch), long ones, NULLs; kept for DuckDB. */
    private List<Object[]> batch(int n, int spread) {
        List<Object[]> out = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            String s = rnd.nextInt(25) == 0 ? null : "k" + rnd.nextInt(spread);
            String t = rnd.nextInt(30) == 0
                    ? null
                    : LONG_TEXTS[rnd.nextInt(LONG_TEXTS.length)]
                            + (rnd.nextInt(8) == 0 ? "-" + rnd.nextInt(spread) : "");
            out.add(new Object[] {s, t, (double) rnd.nextInt(1000) / 8, (long) nextId++});
        }
        rows.addAll(out);
        return out;
    }

    private static TableStaging stageFresh(List<Object[]> batch) {
        return new CsvStagingLoader(CsvOptions.DEFAULT)
                .stage(csv(batch).getBytes(StandardCharsets.UTF_8), "batch", FACT)
                .staging();
    }

    private static TableStaging stage(
            List<Object[]> batch, Dictionary[] known, io.numacube.engine.workers.WorkerPool workers) {
        return new CsvStagingLoader(CsvOptions.DEFAULT, workers)
                .stage(csv(batch).getBytes(StandardCharsets.UTF_8), "batch", FACT, known)
                .staging();
    }

    /** CSV with a header; NULL as an empty field, the empty string quoted, quotes doubled. */
    private static String csv(List<Object[]> batch) {
        StringBuilder sb = new StringBuilder("s,t,v,id\n");
        for (Object[] row : batch) {
            sb.append(text(row[0])).append(',').append(text(row[1])).append(',');
            sb.append(row[2]).append(',').append(row[3]).append('\n');
        }
        return sb.toString();
    }

    private static String text(Object value) {
        if (value == null) {
            return "";
        }
        String s = (String) value;
        return s.isEmpty() || s.contains(",") || s.contains("\"") ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }
}
