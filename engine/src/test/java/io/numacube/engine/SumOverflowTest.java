package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.NumacubeException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A SUM over BIGINT that leaves 64 bits is an error naming the column, never a wrapped-around answer. */
class SumOverflowTest {

    private static Cube cubeWith(int rows, long value, int morselRows) {
        Cube cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1)
                .withMorselRows(morselRows));
        TableStaging s = new TableStaging(TableSchema.parse("t", "k:string,big:long"));
        for (int i = 0; i < rows; i++) {
            s.setString(0, i % 2 == 0 ? "a" : "b");
            s.setLong(1, value);
            s.endRow();
        }
        cube.loadTable(s);
        return cube;
    }

    /** One morsel (overflow inside a worker's scan) or many one-row morsels (overflow when partials merge). */
    @ParameterizedTest
    @ValueSource(ints = {1, 4096})
    void anOverflowingSumIsAnErrorAndTheCubeStaysQueryable(int morselRows) {
        try (Cube cube = cubeWith(8, Long.MAX_VALUE / 3, morselRows)) {
            NumacubeException e = assertThrows(NumacubeException.class,
                    () -> cube.query("SELECT SUM(big) FROM t"));
            assertEquals(NumacubeException.Kind.INVALID_INPUT, e.kind());
            assertTrue(e.getMessage().startsWith("SUM(big) overflows BIGINT"), e.getMessage());
            assertThrows(NumacubeException.class, () -> cube.query("SELECT k, SUM(big) FROM t GROUP BY k"));
            QueryResult asDouble = cube.query("SELECT SUM(big * 1.0) FROM t");
            assertEquals(8.0 * (Long.MAX_VALUE / 3), asDouble.getDouble(0, 0), 1e3);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4096})
    void aSumThatFitsIsExact(int morselRows) {
        try (Cube cube = cubeWith(6, Long.MAX_VALUE / 7, morselRows)) {
            assertEquals(6 * (Long.MAX_VALUE / 7), cube.query("SELECT SUM(big) FROM t").getLong(0, 0));
        }
    }
}
