package io.numacube.engine.ingest.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.result.QueryResult;
import io.numacube.numa.base.NumacubeException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A CSV load is staged before it reaches the cube, so a bad file leaves the previous table queryable. */
class CsvCubeLoadTest {

    @Test
    void aFailedLoadLeavesThePreviousTableAsItWas(@TempDir Path dir) throws Exception {
        Path good = dir.resolve("good.csv");
        Files.writeString(good, "desk,pnl\nA,1.5\nB,2\nA,3\n");
        Path bad = dir.resolve("bad.csv");
        Files.writeString(bad, "desk,pnl\nA,100\nB,oops\n");
        CsvStagingLoader loader = new CsvStagingLoader(CsvOptions.DEFAULT);
        try (Cube cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2))) {
            cube.loadTable(loader.stage(good, "t", null, CsvProgress.NONE).staging());
            String sql = "SELECT desk, SUM(pnl), COUNT(*) FROM t GROUP BY desk ORDER BY desk";
            String before = cube.query(sql).toString();
            NumacubeException e = assertThrows(
                    NumacubeException.class,
                    () -> cube.loadTable(loader.stage(bad, "t", cube.schema("t"), CsvProgress.NONE)
                            .staging()));
            assertTrue(e.getMessage().startsWith(bad + ":3:3: not a number (field pnl"), e.getMessage());
            QueryResult after = cube.query(sql);
            assertEquals(before, after.toString());
            assertEquals(3, cube.rowCount("t"));
            assertEquals(4.5, after.getDouble(0, 1));
        }
    }
}
