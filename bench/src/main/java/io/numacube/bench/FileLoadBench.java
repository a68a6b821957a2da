package io.numacube.bench;

import io.numacube.bench.data.GeneratedTrades;
import io.numacube.bench.peer.DuckDbPeer;
import io.numacube.bench.report.BenchReport;
import io.numacube.bench.report.BenchReport.FileLoad;
import io.numacube.bench.stats.Summary;
import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.ingest.csv.CsvOptions;
import io.numacube.engine.ingest.csv.CsvProgress;
import io.numacube.engine.ingest.csv.CsvStagingLoader;
import io.numacube.engine.ingest.parquet.ParquetStagingLoader;
import io.numacube.engine.storage.ProgressListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The load section: the generated trades written once by DuckDB as a Parquet file (its defaults: snappy, row groups of
 * 122,880 rows) and a CSV file with a header, then loaded into a table again and again, run by run in turn, by
 * numacube (the staging loader of the format, then {@code Cube.loadTable}; the Parquet row groups decoded on the
 * cube's workers) and by DuckDB ({@code CREATE TABLE t AS SELECT * FROM read_parquet(...)}, and {@code read_csv}), with
 * the same threads. Always the engine, whatever {@code --engine} measures elsewhere. The files are deleted afterwards.
 * Not thread-safe: one run.
 */
final class FileLoadBench {

    /** Rows of a {@code --quick} run: a smoke test of the section, not a measurement. */
    static final long QUICK_ROWS = 200_000;

    private final BenchOptions options;
    private final int nodes;
    private final Progress progress;

    /** @param nodes the NUMA nodes numacube's workers are spread over */
    FileLoadBench(BenchOptions options, int nodes, Progress progress) {
        this.options = options;
        this.nodes = nodes;
        this.progress = progress;
    }

    BenchReport.FileLoads run() throws Exception {
        long rows = options.quick() ? Math.min(options.rows(), QUICK_ROWS) : options.rows();
        int threads = options.threads();
        Path dir = Files.createTempDirectory("numacube-bench-load");
        Path parquet = dir.resolve("trades.parquet");
        Path csv = dir.resolve("trades.csv");
        try (DuckDbPeer duck = DuckDbPeer.open(threads);
                Cube cube = Cube.open(
                        CubeOptions.defaults().withThreadsPerNode(Math.max(1, threads / Math.max(1, nodes))))) {
            writeFiles(duck, rows, parquet, csv);
            int runs = options.quick() ? 1 : 3;
            Timed[] timed = {new Timed(runs), new Timed(runs), new Timed(runs), new Timed(runs)};
            ParquetStagingLoader parquetLoader = new ParquetStagingLoader(cube.workers());
            CsvStagingLoader csvLoader = new CsvStagingLoader(CsvOptions.DEFAULT, cube.workers());
            for (int r = 0; r < runs; r++) {
                timed[0].add(
                        r,
                        cube,
                        () -> parquetLoader
                                .stage(parquet, "t", null, ProgressListener.NONE)
                                .staging());
                timed[1].add(
                        r,
                        cube,
                        () -> csvLoader.stage(csv, "t", null, CsvProgress.NONE).staging());
                timed[2].add(r, duck, "CREATE OR REPLACE TABLE t AS SELECT * FROM read_parquet('" + parquet + "')");
                timed[3].add(r, duck, "CREATE OR REPLACE TABLE t AS SELECT * FROM read_csv('" + csv + "')");
                progress.line(
                        "load: run %d of %d: numacube Parquet %.2f s, CSV %.2f s; DuckDB Parquet %.2f s, CSV %.2f s",
                        r + 1,
                        runs,
                        timed[0].seconds[r],
                        timed[1].seconds[r],
                        timed[2].seconds[r],
                        timed[3].seconds[r]);
            }
            return report(rows, cube.workers().workerCount(), Files.size(parquet), Files.size(csv), timed);
        } finally {
            Files.deleteIfExists(parquet);
            Files.deleteIfExists(csv);
            Files.deleteIfExists(dir);
        }
    }

    /** Generates the trades into DuckDB and writes them out; the table is dropped after. */
    private void writeFiles(DuckDbPeer duck, long rows, Path parquet, Path csv) throws Exception {
        progress.line("load: writing %,d trades as Parquet and CSV (DuckDB)", rows);
        duck.load(new GeneratedTrades(rows, options.seed()).trades());
        duck.execute("COPY trades TO '" + parquet + "' (FORMAT parquet)");
        duck.execute("COPY trades TO '" + csv + "' (HEADER)");
        duck.execute("DROP TABLE trades");
    }

    /** @param threads numacube's workers, as many as DuckDB's threads where they divide evenly over the nodes */
    private static BenchReport.FileLoads report(long rows, int threads, long parquetBytes, long csvBytes, Timed[] t) {
        String cubeHow = "%s, then Cube.loadTable (%d workers)";
        List<FileLoad> loads = new ArrayList<>();
        loads.add(t[0].figure(
                "numacube",
                "Parquet",
                String.format(cubeHow, "ParquetStagingLoader, row groups decoded on the workers", threads),
                rows));
        loads.add(t[1].figure(
                "numacube",
                "CSV",
                String.format(cubeHow, "CsvStagingLoader, chunks parsed on the workers", threads),
                rows));
        loads.add(t[2].figure("DuckDB", "Parquet", "CREATE TABLE t AS SELECT * FROM read_parquet(...)", rows));
        loads.add(t[3].figure("DuckDB", "CSV", "CREATE TABLE t AS SELECT * FROM read_csv(...)", rows));
        return new BenchReport.FileLoads(
                rows,
                threads,
                parquetBytes,
                csvBytes,
                loads,
                loads.get(0).rowsPerSecond() / loads.get(1).rowsPerSecond(),
                loads.get(0).rowsPerSecond() / loads.get(2).rowsPerSecond(),
                loads.get(1).rowsPerSecond() / loads.get(3).rowsPerSecond());
    }

    /** The timings of one way of loading, run by run. */
    private static final class Timed {
        private final double[] seconds;
        private final double[] readSeconds;
        private boolean staged;

        Timed(int runs) {
            seconds = new double[runs];
            readSeconds = new double[runs];
        }

        /** Stages with {@code stage} and places the rows in {@code cube}. */
        void add(int run, Cube cube, Supplier<TableStaging> stage) {
            System.gc();
            long t0 = System.nanoTime();
            TableStaging staging = stage.get();
            long t1 = System.nanoTime();
            cube.loadTable(staging);
            seconds[run] = (System.nanoTime() - t0) / 1e9;
            readSeconds[run] = (t1 - t0) / 1e9;
            staged = true;
        }

        void add(int run, DuckDbPeer duck, String sql) throws Exception {
            System.gc();
            long t0 = System.nanoTime();
            duck.execute(sql);
            seconds[run] = (System.nanoTime() - t0) / 1e9;
            duck.execute("DROP TABLE t");
        }

        FileLoad figure(String engine, String format, String how, long rows) {
            Summary s = Summary.of(seconds);
            return new FileLoad(engine, format, how, s, staged ? Summary.of(readSeconds) : null, rows / s.median());
        }
    }
}
