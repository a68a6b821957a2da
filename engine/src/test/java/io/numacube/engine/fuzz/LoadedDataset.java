package io.numacube.engine.fuzz;

import io.numacube.engine.Cube;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.testing.DuckDb;

/**
 * A data set loaded into both engines: a cube opened with the shape's options holding {@code f} and its dimension tables, and
 * the same rows in the shared DuckDB (replacing the previous data set's). Owns the cube and closes it; the DuckDB
 * belongs to the caller. Not thread-safe.
 */
final class LoadedDataset implements AutoCloseable {

    final FuzzDataset data;
    final Cube cube;
    final DuckDb duck;

    private LoadedDataset(FuzzDataset data, Cube cube, DuckDb duck) {
        this.data = data;
        this.cube = cube;
        this.duck = duck;
    }

    static LoadedDataset load(FuzzDataset data, DuckDb duck) throws java.sql.SQLException {
        duck.load(data.fact());
        for (TableStaging t : data.dimensions()) {
            duck.load(t);
        }
        Cube cube = Cube.open(data.shape().options());
        try {
            cube.loadTable(data.fact());
            for (TableStaging t : data.dimensions()) {
                cube.loadTable(t);
            }
        } catch (RuntimeException | Error e) {
            cube.close();
            throw e;
        }
        return new LoadedDataset(data, cube, duck);
    }

    @Override
    public void close() {
        cube.close();
    }
}
