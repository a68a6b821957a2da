package io.numacube.engine.fuzz;

import io.numacube.engine.ingest.TableStaging;
import java.util.List;
import java.util.Map;

/**
 * One generated data set: the staged fact table {@code f} and dimension tables {@code d}, {@code e} and {@code r}
 * (loaded unchanged into numacube
 * and DuckDB), the shape they were drawn from, and per dimension column the distinct values it was drawn from (the
 * literals queries compare with). Immutable once built; the stagings must not be changed.
 *
 * @param shape  the parameters the data was drawn from
 * @param fact   the fact table's rows
 * @param dimensions the dimension tables' rows: {@code d}, {@code e}, {@code r}
 * @param pools  per dimension column of either table (by name), its candidate values: String, or Long for INT and
 *               DATE (epoch day)
 */
public record FuzzDataset(
        DataShape shape, TableStaging fact, List<TableStaging> dimensions, Map<String, List<Object>> pools) {

    /** The candidate values of dimension {@code column}; never empty. */
    public List<Object> pool(String column) {
        return pools.get(column);
    }
}
