package io.numacube.bench.engine;

import io.numacube.bench.CubeUnderTest;
import io.numacube.bench.Placement;
import io.numacube.bench.data.GeneratedTrades;
import io.numacube.bench.peer.ReferenceQuery;
import io.numacube.bench.peer.ResultTable;
import io.numacube.bench.peer.TableSource;
import io.numacube.bench.report.BenchReport.EngineStats;
import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.PartitionInfo;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.result.QueryStats;
import io.numacube.engine.storage.ProgressListener;
import io.numacube.numa.NumaRuntime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * A numacube {@link Cube} holding {@code rows} generated trades ({@code Cube.generateTrades}, with tables fx and
 * books, and pnl NULL in a share of the rows when asked), as the bench sees it.
 * Threads: {@code threads} workers in all, spread evenly over the runtime's worker nodes (at least one per node).
 * Placement: the bench's {@link Placement} mapped to the engine's; {@code ONE_NODE} uses the plan's first data node.
 *
 * <p>Thread-safety: {@link #query} may be called concurrently (the cube is thread-safe); {@link #close()} frees the
 * cube's native memory and stops its workers.
 */
public final class EngineCube implements CubeUnderTest {

    private final Cube cube;
    private final GeneratedTrades data;
    private final double loadSeconds;

    private EngineCube(Cube cube, GeneratedTrades data, double loadSeconds) {
        this.cube = cube;
        this.data = data;
        this.loadSeconds = loadSeconds;
    }

    /** A factory of engine cubes on the runtime this process detects. */
    public static Factory factory() {
        NumaRuntime runtime = NumaRuntime.detect();
        int workerNodes = Math.max(1, runtime.plan().workerNodes().size());
        int firstDataNode = runtime.plan().dataNodes().size() == 0
                ? 0
                : runtime.plan().dataNodes().toArray()[0];
        String status = runtime.statusLine();
        return new Factory() {
            @Override
            public CubeUnderTest open(long rows, long seed, int threads, Placement placement) {
                return open(rows, seed, threads, placement, 0);
            }

            @Override
            public CubeUnderTest open(long rows, long seed, int threads, Placement placement, double pnlNullFraction) {
                CubeOptions options = CubeOptions.defaults()
                        .withPlacement(engine(placement, firstDataNode))
                        .withThreadsPerNode(Math.max(1, threads / workerNodes));
                Cube cube = Cube.open(options);
                try {
                    long t0 = System.nanoTime();
                    GeneratedTrades data = new GeneratedTrades(rows, seed, pnlNullFraction);
                    cube.generateTrades(data.generator(), ProgressListener.NONE);
                    double seconds = (System.nanoTime() - t0) / 1e9;
                    return new EngineCube(cube, data, seconds);
                } catch (RuntimeException | Error e) {
                    cube.close();
                    throw e;
                }
            }

            @Override
            public int nodes() {
                return workerNodes;
            }

            @Override
            public String description() {
                return "numacube engine (" + status + ")";
            }
        };
    }

    static io.numacube.engine.storage.Placement engine(Placement p, int firstDataNode) {
        return switch (p) {
            case NODE_LOCAL -> io.numacube.engine.storage.Placement.NODE_LOCAL;
            case INTERLEAVE -> io.numacube.engine.storage.Placement.INTERLEAVE;
            case OS_DEFAULT -> io.numacube.engine.storage.Placement.OS_DEFAULT;
            case ONE_NODE -> io.numacube.engine.storage.Placement.oneNode(firstDataNode);
            case REMOTE -> io.numacube.engine.storage.Placement.REMOTE;
        };
    }

    @Override
    public Answer query(String sql) {
        QueryResult result = cube.query(sql);
        QueryStats s = result.stats();
        EngineStats stats = s == null
                ? null
                : new EngineStats(
                        s.rowsScanned(),
                        s.bytesRead(),
                        s.morsels(),
                        s.morselsHome(),
                        s.morselsStolen(),
                        s.morselsSkipped(),
                        s.plan());
        return new Answer(() -> table(result), stats);
    }

    /** The neutral form of an engine answer: cells by {@code getObject} (String, Long, LocalDate, Double, null). */
    public static ResultTable table(QueryResult r) {
        List<List<Object>> rows = new ArrayList<>(r.rowCount());
        for (int i = 0; i < r.rowCount(); i++) {
            List<Object> row = new ArrayList<>(r.columnCount());
            for (int c = 0; c < r.columnCount(); c++) {
                row.add(r.getObject(i, c));
            }
            rows.add(row);
        }
        return new ResultTable(r.columnNames(), rows);
    }

    @Override
    public double loadSeconds() {
        return loadSeconds;
    }

    @Override
    public long rows() {
        return data.rows();
    }

    @Override
    public Map<String, Integer> storedWidths() {
        return GeneratedTrades.NOMINAL_WIDTHS;
    }

    @Override
    public ReferenceQuery.Q3Literals q3Literals() {
        return GeneratedTrades.q3Literals();
    }

    @Override
    public TableSource trades() {
        return data.trades();
    }

    @Override
    public TableSource fx() {
        return GeneratedTrades.fx();
    }

    /** Partitions, nodes, bytes and the page census of the trades table, one line. */
    @Override
    public String placementSummary() {
        List<PartitionInfo> parts = cube.placement().stream()
                .filter(p -> p.table().equals("trades"))
                .toList();
        long bytes = parts.stream().mapToLong(PartitionInfo::bytes).sum();
        TreeSet<Integer> homes = new TreeSet<>();
        TreeSet<String> applied = new TreeSet<>();
        double minPct = Double.NaN;
        for (PartitionInfo p : parts) {
            homes.add(p.homeNode());
            applied.add(p.placementApplied());
            if (!Double.isNaN(p.pagesOnNodePct())) {
                minPct = Double.isNaN(minPct) ? p.pagesOnNodePct() : Math.min(minPct, p.pagesOnNodePct());
            }
        }
        return String.format(
                Locale.ROOT,
                "%d partitions, %.2f GB on home nodes %s, placed %s, pages on their node: %s",
                parts.size(),
                bytes / 1e9,
                homes,
                String.join("/", applied),
                Double.isNaN(minPct) ? "no census here" : String.format(Locale.ROOT, "min %.0f%%", minPct));
    }

    /** The engine's own one-line description of this cube. */
    public String describe() {
        return cube.describe();
    }

    @Override
    public void close() {
        cube.close();
    }
}
