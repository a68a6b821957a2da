package io.numacube.bench;

import io.numacube.bench.peer.ReferenceQuery;
import io.numacube.bench.peer.ResultTable;
import io.numacube.bench.peer.TableSource;
import io.numacube.bench.report.BenchReport.EngineStats;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A loaded numacube cube as the bench sees it: the one place where the bench touches the engine's API, so that the
 * sections do not change when the engine does.
 *
 * <p>Thread-safety: {@link #query} may be called from several threads at once (the engine runs concurrent queries);
 * the other methods are called by one thread. {@link #close()} frees the cube's native memory.
 */
public interface CubeUnderTest extends AutoCloseable {

    /** Opens and loads cubes. Thread-safe. */
    interface Factory {
        /**
         * Generates {@code rows} trades with {@code seed}, placed by {@code placement}, queried with {@code threads}
         * threads.
         */
        CubeUnderTest open(long rows, long seed, int threads, Placement placement);

        /**
         * As {@link #open(long, long, int, Placement)}, with pnl NULL in a share {@code pnlNullFraction} (0..1) of
         * the rows ({@link io.numacube.engine.gen.TradesGenerator#TradesGenerator(long, long, double)}).
         *
         * @throws UnsupportedOperationException when this engine cannot hold NULLs (the default for a share above 0)
         */
        default CubeUnderTest open(long rows, long seed, int threads, Placement placement, double pnlNullFraction) {
            if (pnlNullFraction == 0) {
                return open(rows, seed, threads, placement);
            }
            throw new UnsupportedOperationException("this engine holds no NULLs: engine=" + description());
        }

        /** Nodes the engine's runtime sees (1 on a one-node machine). */
        int nodes();

        /** What the factory is ("numacube engine ..."), for reports. */
        String description();
    }

    /**
     * One answer and the engine's counters for it. The answer is held in the engine's own form; {@link #table()}
     * converts it to the neutral form for comparison, outside the timed part of a run.
     *
     * @param converter builds the neutral form of the answer (called once per {@link #table()} call)
     * @param stats     the engine's counters for this run, or null when it has none
     */
    record Answer(Supplier<ResultTable> converter, EngineStats stats) {
        public ResultTable table() {
            return converter.get();
        }
    }

    /** Runs {@code sql} and returns the whole answer, materialised in the engine's own form. */
    Answer query(String sql);

    /** Seconds the generate-and-place load took. */
    double loadSeconds();

    long rows();

    /** Stored width in bytes per row of every trades column, by column name. */
    Map<String, Integer> storedWidths();

    /** Q3's literals for this data (day 100 and 149 of its calendar, three of its desks). */
    ReferenceQuery.Q3Literals q3Literals();

    /** The trades rows exactly as this cube holds them, for loading the peer. */
    TableSource trades();

    /** The fx lookup rows. */
    TableSource fx();

    /** The books dimension rows (the same fixed table for every cube). */
    default TableSource books() {
        return io.numacube.bench.data.GeneratedTrades.books();
    }

    /** How the data was actually placed (nodes, bytes, pages verified), one line; may be empty. */
    String placementSummary();

    @Override
    void close();
}
