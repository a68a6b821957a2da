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

    private static void fill(TableStaging s) {
        s.setString(0, "a");
        s.setLong(1, 1);
        s.setDate(2, 1);
        s.setDouble(3, 1);
        s.setLong(4, 1);
        s.endRow();
    }
}
