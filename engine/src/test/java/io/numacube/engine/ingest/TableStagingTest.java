package io.numacube.engine.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import org.junit.jupiter.api.Test;

class TableStagingTest {

    private static final TableSchema SCHEMA = TableSchema.parse("t", "k:string,n:int,d:date,x:double,y:long");

    @Test
    void encodesDimensionsAndKeepsMeasuresAcrossGrowth() {
        TableStaging s = new TableStaging(SCHEMA);
        for (int i = 0; i < 5000; i++) {
            s.setString(0, "k" + (i % 3));
            s.setLong(1, i % 7);
            s.setDate(2, 20000 + i % 5);
            s.setDouble(3, i * 0.5);
            s.setLong(4, -i);
            s.endRow();
        }
        assertEquals(5000, s.rows());
        assertEquals(3, s.dictionary(0).size());
        assertEquals(7, s.dictionary(1).size());
        assertEquals(5, s.dictionary(2).size());
        assertEquals(2499.5, s.doubles(3)[4999]);
        assertEquals(-4999, s.longs(4)[4999]);
        assertEquals(s.codes(0)[0], s.codes(0)[3]);
    }

    /**
     * A BIGINT of few distinct values loads as a coded INT column, unless the staging keeps it plain (a subquery's
     * table of keys: the dictionary would cost more than it saves).
     */
    @Test
    void aBigintOfFewValuesIsCodedUnlessKeptPlain() {
        TableSchema keys = TableSchema.parse("ks", "k:long");
        TableStaging coded = new TableStaging(keys);
        TableStaging plain = new TableStaging(keys);
        plain.keepLongsPlain();
        for (TableStaging s : new TableStaging[] {coded, plain}) {
            for (int i = 0; i < 1000; i++) {
                s.setLong(0, 7L * i);
                s.endRow();
            }
        }
        assertEquals(
                io.numacube.engine.schema.ColumnType.INT,
                EncodedColumns.of(coded).schema().column(0).type());
        EncodedColumns kept = EncodedColumns.of(plain);
        assertEquals(
                io.numacube.engine.schema.ColumnType.LONG,
                kept.schema().column(0).type());
        assertEquals(null, kept.codes()[0]);
    }

    @Test
    void rejectsWrongSetterMissingColumnAndNonFiniteDoubleKeepingEarlierRows() {
        TableStaging s = new TableStaging(SCHEMA);
        fill(s);
        var wrong = assertThrows(NumacubeException.class, () -> s.setDouble(0, 1.0));
        assertEquals(NumacubeException.Kind.INVALID_INPUT, wrong.kind());
        assertTrue(wrong.getMessage().contains("column=k"), wrong.getMessage());
        s.setString(0, "a");
        var missing = assertThrows(NumacubeException.class, s::endRow);
        assertTrue(missing.getMessage().contains("column=n"), missing.getMessage());
        var nan = assertThrows(NumacubeException.class, () -> s.setDouble(3, Double.NaN));
        assertEquals(NumacubeException.Kind.INVALID_INPUT, nan.kind());
        assertEquals(1, s.rows());
        fill(s);
        assertEquals(2, s.rows());
    }

    @Test
    void appendingBlocksStagesAsSettingTheSameRowsOneByOne() {
        TableStaging byRow = new TableStaging(SCHEMA);
        TableStaging byBlock = new TableStaging(SCHEMA);
        byBlock.reserve(300);
        int row = 0;
        for (int size : new int[] {70, 0, 130, 100}) {
            StagingBlock block = new StagingBlock(SCHEMA, size);
            for (int k = 0; k < size; k++, row++) {
                // keys come back in later blocks, with new ones among them, and NULL first in one block
                String key = "k" + (row % 11 == 0 ? "null" : (row * 7) % 13);
                if (key.equals("knull")) {
                    byRow.setNull(0);
                    block.setNull(0, k);
                } else {
                    byRow.setString(0, key);
                    block.codes(0)[k] = block.dictionary(0).codeOf(key);
                }
                byRow.setLong(1, row % 7);
                block.codes(1)[k] = block.dictionary(1).codeOf(row % 7);
                byRow.setDate(2, 20000 + row % 5);
                block.codes(2)[k] = block.dictionary(2).codeOf(20000 + row % 5);
                if (row % 3 == 1) {
                    byRow.setNull(3);
                    block.setNull(3, k);
                } else {
                    byRow.setDouble(3, row * 0.5);
                    block.doubles(3)[k] = row * 0.5;
                }
                byRow.setLong(4, -row);
                block.longs(4)[k] = -row;
                byRow.endRow();
            }
            byBlock.append(block);
        }
        assertEquals(300, byBlock.rows());
        for (int c = 0; c < SCHEMA.size(); c++) {
            if (byRow.codes(c) != null) {
                assertEquals(
                        java.util.Arrays.toString(java.util.Arrays.copyOf(byRow.codes(c), 300)),
                        java.util.Arrays.toString(java.util.Arrays.copyOf(byBlock.codes(c), 300)),
                        "codes of column " + c);
                assertEquals(byRow.dictionary(c).size(), byBlock.dictionary(c).size());
            }
            for (int r = 0; r < 300; r++) {
                assertEquals(byRow.isNull(c, r), byBlock.isNull(c, r), "NULL at column " + c + " row " + r);
            }
        }
        assertEquals(
                java.util.Arrays.toString(java.util.Arrays.copyOf(byRow.doubles(3), 300)),
                java.util.Arrays.toString(java.util.Arrays.copyOf(byBlock.doubles(3), 300)));
        assertEquals(-299, byBlock.longs(4)[299]);
    }

    /**
     * Free text appended without lookup (blocks whose values have repeats within and across blocks, NULLs, blocks
     * coded with lookups among them, more rows appended after a settle) ends with the codes and the first-seen
     * dictionary of the same rows set one by one: settled on a pool's workers, or on the calling thread when read.
     */
    @Test
    void freeTextAppendedWithoutLookupSettlesAsSettingTheRowsOneByOne() {
        TableSchema text = TableSchema.parse("f", "note:string");
        io.numacube.engine.workers.WorkerPool pool = new io.numacube.engine.workers.ThreadWorkerPool(2, 2);
        try {
            for (io.numacube.engine.workers.WorkerPool settleOn :
                    new io.numacube.engine.workers.WorkerPool[] {null, pool}) {
                TableStaging byRow = new TableStaging(text);
                TableStaging byBlock = new TableStaging(text);
                int row = 0;
                int[] sizes = {40_000, 0, 90_000, 25_000, 70_000};
                for (int b = 0; b < sizes.length; b++) {
                    StagingBlock block = new StagingBlock(text, sizes[b]);
                    for (int k = 0; k < sizes[b]; k++, row++) {
                        String note = row % 17 == 5
                                ? null
                                : row % 10 == 0 ? "same" + (row % 7) : "note" + (row * 31L % 150_001);
                        if (note == null) {
                            byRow.setNull(0);
                            block.setNull(0, k);
                        } else {
                            byRow.setString(0, note);
                            block.codes(0)[k] = b == 3
                                    ? block.dictionary(0).codeOf(note)
                                    : block.dictionary(0).addWithoutLookup(note);
                        }
                        byRow.endRow();
                    }
                    byBlock.append(block);
                    if (b == 2) {
                        byBlock.settle(settleOn);
                    }
                }
                byBlock.settle(settleOn);
                assertEquals(row, byBlock.rows());
                assertEquals(
                        java.util.Arrays.toString(java.util.Arrays.copyOf(byRow.codes(0), row)),
                        java.util.Arrays.toString(java.util.Arrays.copyOf(byBlock.codes(0), row)));
                var expected = byRow.dictionary(0);
                var actual = byBlock.dictionary(0);
                assertEquals(expected.size(), actual.size());
                assertEquals(expected.nullCodeIfAny(), actual.nullCodeIfAny());
                for (int c = 0; c < expected.size(); c++) {
                    if (c != expected.nullCodeIfAny()) {
                        assertEquals(expected.stringAt(c), actual.stringAt(c), "value of code " + c);
                        assertEquals(
                                c, actual.find(expected.stringAt(c)), "the code found for " + expected.stringAt(c));
                    }
                }
            }
        } finally {
            pool.close();
        }
    }

    /**
     * Free text whose distinct values all have one String hash (words of "Aa" and "BB") settles to the codes and the
     * first-seen dictionary of the same rows set one by one: equal hashes are told apart by the values themselves.
     */
    @Test
    void freeTextOfEqualHashesSettlesAsSettingTheRowsOneByOne() {
        TableSchema text = TableSchema.parse("f", "note:string");
        String[] words = new String[1 << 12];
        for (int w = 0; w < words.length; w++) {
            StringBuilder b = new StringBuilder();
            for (int bit = 0; bit < 12; bit++) {
                b.append((w >>> bit & 1) == 0 ? "Aa" : "BB");
            }
            words[w] = b.toString();
        }
        io.numacube.engine.workers.WorkerPool pool = new io.numacube.engine.workers.ThreadWorkerPool(2, 2);
        try {
            for (io.numacube.engine.workers.WorkerPool settleOn :
                    new io.numacube.engine.workers.WorkerPool[] {null, pool}) {
                TableStaging byRow = new TableStaging(text);
                TableStaging byBlock = new TableStaging(text);
                StagingBlock block = new StagingBlock(text, 20_000);
                for (int row = 0; row < 20_000; row++) {
                    String note = words[(int) (row * 2_654_435_761L % words.length)];
                    byRow.setString(0, note);
                    byRow.endRow();
                    block.codes(0)[row] = block.dictionary(0).addWithoutLookup(new String(note));
                }
                byBlock.append(block);
                byBlock.settle(settleOn);
                assertEquals(
                        java.util.Arrays.toString(java.util.Arrays.copyOf(byRow.codes(0), 20_000)),
                        java.util.Arrays.toString(java.util.Arrays.copyOf(byBlock.codes(0), 20_000)));
                assertEquals(words.length, byBlock.dictionary(0).size());
                for (int c = 0; c < words.length; c++) {
                    assertEquals(
                            byRow.dictionary(0).stringAt(c),
                            byBlock.dictionary(0).stringAt(c));
                }
            }
        } finally {
            pool.close();
        }
    }

    @Test
    void anAppendedNonFiniteDoubleIsRefusedAndNothingIsAppended() {
        TableStaging s = new TableStaging(SCHEMA);
        fill(s);
        StagingBlock block = new StagingBlock(SCHEMA, 2);
        block.doubles(3)[1] = Double.POSITIVE_INFINITY;
        var e = assertThrows(NumacubeException.class, () -> s.append(block));
        assertEquals("a double must be finite: value=Infinity: table=t row=3 column=x", e.getMessage());
        assertEquals(1, s.rows());
    }

    private static void fill(TableStaging s) {
        s.setString(0, "a");
        s.setLong(1, 1);
        s.setDate(2, 1);
        s.setDouble(3, 1);
        s.setLong(4, 1);
        s.endRow();
    }
}
