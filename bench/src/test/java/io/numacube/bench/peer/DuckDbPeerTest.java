package io.numacube.bench.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.bench.peer.TableSource.Column;
import io.numacube.bench.peer.TableSource.SqlType;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DuckDbPeerTest {

    private static final List<String> DESKS = List.of("Rates", "FX", "O'Brien");
    private static final long ROWS = 200_000;
    private static DuckDbPeer peer;

    /** Row i: id i, desk i % 3 (coded), book i % 7, day 2024-01-01 + i % 5, pnl i / 4. */
    private static TableSource trades() {
        return new TableSource() {
            @Override
            public String tableName() {
                return "trades";
            }

            @Override
            public List<Column> columns() {
                return List.of(
                        new Column("trade_id", SqlType.BIGINT),
                        new Column("desk", SqlType.CODED_VARCHAR, DESKS),
                        new Column("book", SqlType.INTEGER),
                        new Column("trade_date", SqlType.DATE),
                        new Column("pnl", SqlType.DOUBLE),
                        new Column("note", SqlType.VARCHAR));
            }

            @Override
            public long rowCount() {
                return ROWS;
            }

            @Override
            public void produce(RowSink sink, long fromRow, long toRow) throws Exception {
                int day0 = (int) LocalDate.of(2024, 1, 1).toEpochDay();
                for (long i = fromRow; i < toRow; i++) {
                    sink.beginRow();
                    sink.appendLong(i);
                    sink.appendCode((int) (i % 3));
                    sink.appendInt((int) (i % 7));
                    sink.appendEpochDay(day0 + (int) (i % 5));
                    sink.appendDouble(i / 4.0);
                    sink.appendString(i % 2 == 0 ? "even" : "odd");
                    sink.endRow();
                }
            }
        };
    }

    @BeforeAll
    static void load() throws Exception {
        peer = DuckDbPeer.open(2);
        assertEquals(ROWS, peer.load(trades()));
    }

    @AfterAll
    static void close() throws Exception {
        peer.close();
    }

    @Test
    void loadsEveryRowExactlyOnceAcrossTheLoadingThreads() throws Exception {
        ResultTable t = peer.query("SELECT COUNT(*), COUNT(DISTINCT trade_id), SUM(trade_id) FROM trades");
        assertEquals(List.of(ROWS, ROWS, ROWS * (ROWS - 1) / 2), t.rows().getFirst());
    }

    @Test
    void decodesDictionaryCodesIntoTheirStrings() throws Exception {
        ResultTable t = peer.query("SELECT desk, COUNT(*) FROM trades GROUP BY desk");
        ResultTable expected = new ResultTable(
                List.of("desk", "n"),
                List.of(List.of("Rates", 66_667L), List.of("FX", 66_667L), List.of("O'Brien", 66_666L)));
        ResultComparison c = ResultComparison.compare(expected, t, false, 0);
        assertTrue(c.equal(), c.difference());
    }

    @Test
    void keepsDatesIntegersDoublesAndPlainStrings() throws Exception {
        ResultTable t = peer.query("SELECT trade_date, book, pnl, note FROM trades WHERE trade_id = 13");
        assertEquals(List.of("2024-01-04", 6L, 3.25, "odd"), t.rows().getFirst());
    }

    @Test
    void setsThreadsAndOtherSettings() throws Exception {
        assertEquals("2", peer.setting("threads"));
        String before = peer.setting("perfect_ht_threshold");
        peer.set("perfect_ht_threshold", "18");
        assertEquals("18", peer.setting("perfect_ht_threshold"));
        peer.set("perfect_ht_threshold", before);
        assertFalse(peer.version().isBlank());
    }
}
