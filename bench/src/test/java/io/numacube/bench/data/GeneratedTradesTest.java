package io.numacube.bench.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.bench.peer.ReferenceQuery;
import io.numacube.bench.peer.TableSource;
import io.numacube.engine.gen.ReferenceQueries;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GeneratedTradesTest {

    /** Records every appended value of every row as text. */
    private static final class Recorder implements TableSource.RowSink {
        final List<String> rows = new ArrayList<>();
        private StringBuilder row;

        @Override
        public void beginRow() {
            row = new StringBuilder();
        }

        @Override
        public void appendLong(long v) {
            row.append("L").append(v).append(',');
        }

        @Override
        public void appendInt(int v) {
            row.append("I").append(v).append(',');
        }

        @Override
        public void appendDouble(double v) {
            row.append("D").append(v).append(',');
        }

        @Override
        public void appendString(String v) {
            row.append("S").append(v).append(',');
        }

        @Override
        public void appendCode(int code) {
            row.append("C").append(code).append(',');
        }

        @Override
        public void appendEpochDay(int v) {
            row.append("E").append(v).append(',');
        }

        @Override
        public void appendNull() {
            row.append("N").append(',');
        }

        @Override
        public void endRow() {
            rows.add(row.toString());
        }
    }

    @Test
    void rangesProducedSeparatelyEqualTheWholeTable() throws Exception {
        TableSource trades = new GeneratedTrades(1000, 3).trades();
        Recorder whole = new Recorder();
        trades.produce(whole, 0, 1000);
        Recorder parts = new Recorder();
        trades.produce(parts, 0, 333);
        trades.produce(parts, 333, 1000);
        assertEquals(1000, whole.rows.size());
        assertEquals(whole.rows, parts.rows);
    }

    @Test
    void appendsOneValuePerDeclaredColumnInEveryRow() throws Exception {
        TableSource trades = new GeneratedTrades(10, 3).trades();
        Recorder r = new Recorder();
        trades.produce(r, 0, 10);
        for (String row : r.rows) {
            assertEquals(trades.columns().size(), row.split(",").length, row);
        }
    }

    @Test
    void theBenchRunsTheEnginesReferenceQueryTexts() {
        List<String> ours = new ArrayList<>();
        for (ReferenceQuery q : ReferenceQuery.values()) {
            ours.add(q.sql(GeneratedTrades.q3Literals()));
        }
        List<String> engines = new ArrayList<>(ReferenceQueries.ALL);
        engines.add(ReferenceQueries.Q6);
        assertEquals(engines, ours);
    }

    @Test
    void nullPnlIsAppendedAsNullInAboutTheAskedShareOfRowsAndTheOtherValuesStay() throws Exception {
        Recorder plain = new Recorder();
        new GeneratedTrades(20_000, 5).trades().produce(plain, 0, 20_000);
        Recorder nulls = new Recorder();
        new GeneratedTrades(20_000, 5, 0.1).trades().produce(nulls, 0, 20_000);
        int nullRows = 0;
        for (int i = 0; i < 20_000; i++) {
            String[] a = plain.rows.get(i).split(",");
            String[] b = nulls.rows.get(i).split(",");
            int pnl = 6;
            if (b[pnl].equals("N")) {
                nullRows++;
                b[pnl] = a[pnl];
            }
            assertEquals(List.of(a), List.of(b), "row " + i);
        }
        assertTrue(nullRows > 1800 && nullRows < 2200, "NULL pnl rows: " + nullRows);
    }

    @Test
    void booksHaveOneRowPerBookOfTheTradesWithTheDeskItsTradesCarry() throws Exception {
        TableSource books = GeneratedTrades.books();
        Recorder r = new Recorder();
        books.produce(r, 0, books.rowCount());
        assertEquals(1000, r.rows.size());
        assertEquals(
                List.of("book", "desk", "region", "legal_entity", "trader"),
                books.columns().stream().map(TableSource.Column::name).toList());
        assertEquals("SBOOK-0041,SDESK-02,", r.rows.get(41).substring(0, "SBOOK-0041,SDESK-02,".length()));
    }
}
