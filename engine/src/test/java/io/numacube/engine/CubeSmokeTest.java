package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.numacube.engine.gen.ReferenceQueries;
import org.junit.jupiter.api.Test;

class CubeSmokeTest {
    @Test
    void runsReferenceQueries() {
        try (Cube cube = Cube.open(CubeOptions.defaults().withMorselRows(4096))) {
            cube.generateTrades(100_000, 1, ProgressListener.NONE);
            System.out.println(cube.describe());
            cube.placement().forEach(System.out::println);
            for (String sql : ReferenceQueries.ALL) {
                QueryResult r = cube.query(sql);
                System.out.println(sql + "\n" + r.rowCount() + " rows " + r.stats());
                for (int i = 0; i < Math.min(5, r.rowCount()); i++) {
                    StringBuilder sb = new StringBuilder();
                    for (int c = 0; c < r.columnCount(); c++) {
                        sb.append(r.getString(i, c)).append(" | ");
                    }
                    System.out.println(sb);
                }
            }
            assertEquals(100_000, cube.rowCount("trades"));
        }
    }
}
