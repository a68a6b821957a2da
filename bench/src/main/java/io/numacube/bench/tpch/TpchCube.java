package io.numacube.bench.tpch;

import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.ingest.csv.CsvOptions;
import io.numacube.engine.ingest.csv.CsvProgress;
import io.numacube.engine.ingest.csv.CsvStagingLoader;
import io.numacube.engine.ingest.parquet.ParquetStagingLoader;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.storage.ProgressListener;
import io.numacube.numa.NumaRuntime;

/**
 * A numacube {@link Cube} holding TPC-H tables loaded from the {@link TpchData} files with the {@link TpchSchema}
 * types: CSV by {@link CsvStagingLoader} (chunks parsed on the cube's workers), Parquet by {@link ParquetStagingLoader}
 * (row groups decoded on the cube's workers), then {@code Cube.loadTable}. {@code threads} workers in all, spread evenly over the
 * runtime's worker nodes, as in the other sections.
 *
 * <p>Thread-safety: loads from one thread; {@link #query} may run concurrently (the cube is thread-safe).
 * {@link #close()} frees the cube's native memory.
 */
public final class TpchCube implements AutoCloseable {

    private final Cube cube;
    private final TpchData data;

    private TpchCube(Cube cube, TpchData data) {
        this.cube = cube;
        this.data = data;
    }

    /** An empty cube over {@code data}'s files, with {@code threads} workers. */
    public static TpchCube open(TpchData data, int threads) {
        return new TpchCube(Cube.open(options(threads)), data);
    }

    /** The cube options of {@code threads} workers spread over the worker nodes. */
    static CubeOptions options(int threads) {
        int nodes = Math.max(1, NumaRuntime.detect().plan().workerNodes().size());
        return CubeOptions.defaults().withThreadsPerNode(Math.max(1, threads / nodes));
    }

    /**
     * How long one load took.
     *
     * @param stageSeconds reading the file into a staging table
     * @param seconds      until the table was queryable: staging, then placing it ({@code Cube.loadTable})
     */
    public record LoadTime(double stageSeconds, double seconds) {}

    /** Loads {@code table} from its CSV file. */
    public LoadTime loadCsv(TpchSchema table) {
        long t0 = System.nanoTime();
        TableStaging staging = new CsvStagingLoader(CsvOptions.DEFAULT, cube.workers())
                .stage(data.csv(table.name()), table.name(), table.numacube(), CsvProgress.NONE)
                .staging();
        return place(staging, t0);
    }

    /** Loads {@code table} from its Parquet file. */
    public LoadTime loadParquet(TpchSchema table) {
        long t0 = System.nanoTime();
        TableStaging staging = new ParquetStagingLoader(cube.workers())
                .stage(data.parquet(table.name()), table.name(), table.numacube(), ProgressListener.NONE)
                .staging();
        return place(staging, t0);
    }

    private LoadTime place(TableStaging staging, long t0) {
        long t1 = System.nanoTime();
        cube.loadTable(staging);
        return new LoadTime((t1 - t0) / 1e9, (System.nanoTime() - t0) / 1e9);
    }

    /** Runs {@code sql}; the answer is materialised. */
    public QueryResult query(String sql) {
        return cube.query(sql);
    }

    /** The cube itself, for checks. */
    public Cube cube() {
        return cube;
    }

    @Override
    public void close() {
        cube.close();
    }
}
