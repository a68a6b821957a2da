package io.numacube.engine;

import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Builds ahead, by running once the queries that would build them, what the first query taking a declared join or
 * chain of joins builds ({@link Cube#prepareJoin}, {@link Cube#prepareJoinChains}): the fact columns' query-time
 * codes, the join's index, the joined table's plain columns' codes; and registers each with {@link PreparedJoins},
 * which builds them again in the background after a write to one of their tables.
 *
 * <p>Invariants: a join or chain is registered only after its query ran without error, and a failure is that query's
 * error naming the join or chain; a joined column whose coding query fails is left for its first query to code (logged,
 * not thrown). It changes no table's rows or versions. Thread-safety: as its cube's queries; it keeps no state of its
 * own, and {@link PreparedJoins} is thread-safe.
 */
final class JoinPreparation {

    /** Logged as the cube's, where {@link Cube#prepareJoin} logged before it moved here. */
    private static final System.Logger LOG = System.getLogger(Cube.class.getName());

    private final PreparedJoins prepared;
    private final Function<String, QueryResult> query;
    private final Function<String, TableSchema> schema;
    private final ToLongFunction<String> tableBytes;

    /**
     * @param prepared   the cube's prepared joins, which keep and refresh what was built
     * @param query      runs one query on the cube
     * @param schema     a table's schema by name (an unknown table throws)
     * @param tableBytes bytes a table holds now (0 for an unknown one), its query-time codes included
     */
    JoinPreparation(
            PreparedJoins prepared,
            Function<String, QueryResult> query,
            Function<String, TableSchema> schema,
            ToLongFunction<String> tableBytes) {
        this.prepared = prepared;
        this.query = query;
        this.schema = schema;
        this.tableBytes = tableBytes;
    }

    /** As {@link Cube#prepareJoin}. */
    Cube.JoinPrepared prepare(JoinSpec join) {
        long before = tableBytes.applyAsLong(join.fact());
        long t0 = System.nanoTime();
        try {
            query.apply(join.sql());
        } catch (NumacubeException e) {
            throw new NumacubeException(e.kind(), e.code(), "join " + join + ": " + e.detail(), null, e);
        }
        prepared.add(join);
        if (!"false".equals(System.getProperty(DIM_CODES_PROPERTY))) {
            List<String> codings = dimensionCodings(join.dim());
            for (String sql : codings) {
                try {
                    query.apply(sql);
                } catch (NumacubeException e) {
                    LOG.log(
                            System.Logger.Level.INFO,
                            "a joined column was left for its first query to code: {0}: {1}",
                            sql,
                            e.getMessage());
                }
            }
            prepared.add(join.dim(), codings);
        }
        return new Cube.JoinPrepared(
                join, (System.nanoTime() - t0) / 1e9, Math.max(0, tableBytes.applyAsLong(join.fact()) - before));
    }

    /** The system property that, {@code false}, leaves a prepared join's joined table's plain columns uncoded (A/B). */
    static final String DIM_CODES_PROPERTY = "numacube.prepareDimCodes";

    /**
     * The queries that code each plain column (BIGINT, DECIMAL, DOUBLE, TIMESTAMP) of a joined table at its query-time
     * dictionary, as the first query grouping by it through the join would ({@code SELECT COUNT(DISTINCT c) FROM
     * dim}): a GROUP BY of joined columns (TPC-H Q10's, Q18's) reads them through the join's index per code.
     */
    private List<String> dimensionCodings(String dim) {
        TableSchema schema = this.schema.apply(dim);
        List<String> out = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++) {
            if (!schema.column(c).type().isDimension()) {
                out.add("SELECT COUNT(DISTINCT \"" + schema.column(c).name().replace("\"", "\"\"") + "\") FROM " + dim);
            }
        }
        return out;
    }

    /** As {@link Cube#prepareJoinChains}. */
    List<Cube.ChainPrepared> prepareChains(List<JoinSpec> declared) {
        List<Cube.ChainPrepared> out = new ArrayList<>();
        for (JoinChain chain : JoinChain.of(declared)) {
            long t0 = System.nanoTime();
            try {
                query.apply(chain.sql());
            } catch (NumacubeException e) {
                throw new NumacubeException(e.kind(), e.code(), "join chain " + chain + ": " + e.detail(), null, e);
            }
            prepared.add(chain);
            out.add(new Cube.ChainPrepared(chain, (System.nanoTime() - t0) / 1e9));
        }
        return out;
    }
}
