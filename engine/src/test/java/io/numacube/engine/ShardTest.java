package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.storage.ProgressListener;
import io.numacube.numa.base.NumacubeException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Shards of one generated cube: the hash as documented, each key's rows on exactly one shard, writes refused. */
class ShardTest {

    /** FNV-1a 32 written out as the javadoc defines it, independent of {@link Shard#of}'s loop. */
    private static long fnv1a(String text) {
        long h = 0x811c9dc5L;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            h = ((h ^ (b & 0xff)) * 0x01000193L) & 0xffffffffL;
        }
        return h;
    }

    @Test
    void hashIsFnv1aOfTheKeysUtf8TextModuloTheShardCount() {
        assertEquals(0xf5d24894L, fnv1a("DESK-01"), "the javadoc's worked example");
        for (String key : new String[] {"DESK-01", "DESK-07", "", "-42", "Zürich", "BOOK-0031"}) {
            for (int n = 1; n <= 5; n++) {
                assertEquals((int) (fnv1a(key) % n), Shard.of(key, n), key + " n=" + n);
            }
        }
        assertEquals(0, Shard.of(null, 3), "NULL keys belong to shard 0");
    }

    @Test
    void badShardSpecsAreClearErrors() {
        var e = assertThrows(NumacubeException.class, () -> Shard.parse("2/2", "desk"));
        assertEquals("a shard is I/N with 0 <= I < N: index=2 count=2 — e.g. --shard 0/2", e.detail());
        e = assertThrows(NumacubeException.class, () -> Shard.parse("x", "desk"));
        assertEquals("--shard takes I/N: shard=x — e.g. --shard 0/2", e.detail());
    }

    @Test
    void everyDeskLandsOnExactlyOneShardAndTheShardsAddUpToTheWhole() {
        Map<String, Long> whole;
        try (Cube all = generated()) {
            whole = countsByDesk(all);
        }
        Map<String, Long> union = new HashMap<>();
        for (int i = 0; i < 3; i++) {
            try (Cube cube = generated()) {
                Shard shard = new Shard(i, 3, "desk");
                Map<String, Long> deleted = cube.keepShard(shard);
                assertTrue(deleted.containsKey("trades") && !deleted.containsKey("fx"), deleted.toString());
                assertEquals(20, cube.rowCount("fx"), "a table without the key is held whole");
                for (var e : countsByDesk(cube).entrySet()) {
                    assertEquals(i, Shard.of(e.getKey(), 3), "desk " + e.getKey() + " on shard " + i);
                    assertEquals(null, union.put(e.getKey(), e.getValue()), "desk on two shards: " + e.getKey());
                }
            }
        }
        assertEquals(whole, union);
    }

    @Test
    void stagedTablesKeepOnlyTheirShardsRowsWhateverTheKeysCardinality() {
        io.numacube.engine.schema.TableSchema schema =
                io.numacube.engine.schema.TableSchema.parse("orders", "id:long,status:string,amount:double");
        Map<String, Long> union = new HashMap<>();
        long rows = 0;
        for (int i = 0; i < 3; i++) {
            try (Cube cube =
                    Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1))) {
                Shard shard = new Shard(i, 3, "id");
                cube.loadShard(shard);
                TableStaging t = new TableStaging(schema);
                for (int r = 0; r < 120_000; r++) {
                    t.setLong(0, r);
                    t.setString(1, r % 7 == 0 ? "open" : "s" + (r % 1000));
                    if (r % 11 == 0) {
                        t.setNull(2);
                    } else {
                        t.setDouble(2, r % 100);
                    }
                    t.endRow();
                }
                cube.loadTable(t);
                Map<String, Long> dropped = cube.keepShard(shard);
                rows += cube.rowCount("orders");
                assertEquals(120_000 - cube.rowCount("orders"), dropped.get("orders"));
                QueryResult r = cube.query("SELECT id, COUNT(*), SUM(amount) FROM orders GROUP BY id");
                for (int k = 0; k < r.rowCount(); k++) {
                    String id = Long.toString(r.getLong(k, 0));
                    assertEquals(i, Shard.of(id, 3), "id " + id + " on shard " + i);
                    assertEquals(null, union.put(id, r.getLong(k, 1)), "id on two shards: " + id);
                }
                assertEquals(
                        cube.query("SELECT COUNT(DISTINCT status) FROM orders").getLong(0, 0),
                        cube.query("SELECT COUNT(*) FROM (SELECT status FROM orders GROUP BY status) s")
                                .getLong(0, 0),
                        "the dictionary holds the shard's values only");
            }
        }
        assertEquals(120_000, rows, "the shards add up to the whole");
        assertEquals(120_000, union.size());
    }

    @Test
    void withSeveralKeyColumnsEachTableIsShardedByTheFirstItHasSoJoinsOnTheKeyStayOnOneShard() {
        var lines = io.numacube.engine.schema.TableSchema.parse("lineitem", "l_orderkey:long,l_qty:double");
        var orders = io.numacube.engine.schema.TableSchema.parse("orders", "o_orderkey:long,o_custkey:long");
        var nation = io.numacube.engine.schema.TableSchema.parse("nation", "n_nationkey:long,o_custkey:long");
        Shard shard = new Shard(0, 2, "l_orderkey, o_orderkey");
        assertEquals(java.util.List.of("l_orderkey", "o_orderkey"), shard.columns());
        assertEquals(0, shard.keyIndex(lines));
        assertEquals(0, shard.keyIndex(orders));
        assertEquals(-1, shard.keyIndex(nation), "a table with none of the columns is held whole");
        long ordersHeld = 0;
        long joined = 0;
        for (int i = 0; i < 2; i++) {
            try (Cube cube =
                    Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1))) {
                Shard s = new Shard(i, 2, "l_orderkey,o_orderkey");
                cube.loadShard(s);
                TableStaging o = new TableStaging(orders);
                for (int k = 0; k < 1_000; k++) {
                    o.setLong(0, k);
                    o.setLong(1, k % 37);
                    o.endRow();
                }
                TableStaging l = new TableStaging(lines);
                for (int r = 0; r < 4_000; r++) {
                    l.setLong(0, r % 1_000);
                    l.setDouble(1, r);
                    l.endRow();
                }
                cube.loadTable(o);
                cube.loadTable(l);
                Map<String, Long> dropped = cube.keepShard(s);
                assertTrue(dropped.containsKey("orders") && dropped.containsKey("lineitem"), dropped.toString());
                ordersHeld += cube.rowCount("orders");
                joined += cube.query("SELECT COUNT(*) FROM lineitem JOIN orders ON l_orderkey = o_orderkey")
                        .getLong(0, 0);
                assertEquals(
                        cube.rowCount("lineitem"),
                        cube.query("SELECT COUNT(*) FROM lineitem JOIN orders ON l_orderkey = o_orderkey")
                                .getLong(0, 0),
                        "every line's order is on its shard");
            }
        }
        assertEquals(1_000, ordersHeld, "orders split between the shards");
        assertEquals(4_000, joined, "the shards' joins add up to the whole join");
        var e = assertThrows(NumacubeException.class, () -> new Shard(0, 2, "l_orderkey,,o_orderkey"));
        assertTrue(e.detail().startsWith("an empty name in the shard key columns: shard-key=l_orderkey,,o_orderkey"));
    }

    @Test
    void aShardRefusesAnAppendedRowOfAnotherShardNamingIt() {
        try (Cube cube = generated()) {
            Shard shard = new Shard(1, 2, "desk");
            cube.keepShard(shard);
            TableStaging rows = new TableStaging(cube.schema("trades"));
            String foreign = java.util.stream.IntStream.rangeClosed(1, 20)
                    .mapToObj(d -> String.format("DESK-%02d", d))
                    .filter(d -> Shard.of(d, 2) == 0)
                    .findFirst()
                    .orElseThrow();
            rows.setLong(0, 1);
            for (int c = 1; c < 4; c++) {
                rows.setString(c, foreign);
            }
            rows.setDate(4, 20000);
            rows.setString(5, "CP");
            rows.setDouble(6, 1);
            rows.setDouble(7, 2);
            rows.endRow();
            var e = assertThrows(NumacubeException.class, () -> shard.checkOwns(rows));
            assertEquals(
                    "a row of another shard: table=trades row=1 desk=" + foreign + " its-shard=0/2 this-shard=1/2"
                            + " — send it to its shard (the Spark connector routes rows so)",
                    e.detail());
        }
    }

    @Test
    void aKeyWithTooManyDistinctValuesIsRefusedBeforeAnyRowIsDeleted() {
        try (Cube cube = generated()) {
            long books = cube.rowCount("books");
            var e = assertThrows(NumacubeException.class, () -> ShardRows.keep(cube, new Shard(0, 2, "book"), 499));
            assertTrue(
                    e.detail().startsWith("a shard key with this many distinct values is not supported yet: table="),
                    e.detail());
            assertTrue(
                    e.detail().contains(" column=book values=")
                            && e.detail()
                                    .endsWith(" max=499 — shard by a"
                                            + " business key with fewer values (a desk, a book)"),
                    e.detail());
            assertEquals(30_000, cube.rowCount("trades"));
            assertEquals(books, cube.rowCount("books"));
            assertTrue(cube.shard().isEmpty(), "the cube holds every row still");
        }
    }

    private static Cube generated() {
        Cube cube = Cube.open(CubeOptions.defaults().withMorselRows(4096));
        cube.generateTrades(30_000, 5, ProgressListener.NONE);
        return cube;
    }

    private static Map<String, Long> countsByDesk(Cube cube) {
        QueryResult r = cube.query("SELECT desk, COUNT(*) FROM trades GROUP BY desk");
        Map<String, Long> m = new HashMap<>();
        for (int row = 0; row < r.rowCount(); row++) {
            m.put(r.getString(row, 0), r.getLong(row, 1));
        }
        return m;
    }
}
