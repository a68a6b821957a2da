package io.numacube.engine.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.numacube.engine.ingest.TableStaging;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;

/**
 * Compares what a loader staged with what DuckDB reads from the same file, value by value: the staging is handed to
 * DuckDB as it is ({@link DuckDb#load(TableStaging)}, NULL where {@link TableStaging#isNull} says so), then both are
 * read in the staging's row order. Stateless.
 */
public final class StagedRows {

    private StagedRows() {}

    /**
     * Asserts that the staged rows, in order, equal those of DuckDB's {@code duckSelect}.
     *
     * @param duckSelect a SELECT of the staging's columns, in its order, from DuckDB's own reading of the file
     * @return the staged NULLs per column, for the caller to check that its data has the NULLs it means to test
     */
    public static int[] assertSameAsDuckDb(DuckDb duck, TableStaging staging, String duckSelect) throws SQLException {
        String table = staging.schema().name();
        duck.load(staging);
        List<Object[]> ours = duck.query("SELECT * FROM " + table);
        List<Object[]> theirs = duck.query(duckSelect);
        assertEquals(theirs.size(), ours.size(), "rows");
        for (int r = 0; r < ours.size(); r++) {
            if (!Arrays.equals(ours.get(r), theirs.get(r))) {
                throw new AssertionError("row " + (r + 1) + " differs: numacube " + Arrays.toString(ours.get(r))
                        + ", DuckDB " + Arrays.toString(theirs.get(r)) + " (columns "
                        + staging.schema().declaration()
                        + ")");
            }
        }
        int[] nulls = new int[staging.schema().size()];
        for (int c = 0; c < nulls.length; c++) {
            for (int r = 0; r < staging.rows(); r++) {
                nulls[c] += staging.isNull(c, r) ? 1 : 0;
            }
        }
        return nulls;
    }
}
