package io.numacube.bench.serve;

import io.numacube.engine.gen.TradesGenerator;
import io.numacube.engine.ingest.csv.CsvOptions;
import io.numacube.engine.ingest.csv.CsvStagingLoader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * A manual measurement, never run by the tests or the bench: the CPU time of the calling thread to stage one CSV batch
 * of trades (the serve writer's batches) on that thread alone, as {@code POST /v1/tables/trades/rows} stages it when
 * no worker is free. Thread CPU time, so that other processes on a shared machine disturb it less than wall time:
 * compare builds by running it with each build's class path in turn. Prints the median and the minimum.
 *
 * <p>{@code java -cp bench/target/numacube-bench.jar:bench/target/lib/* io.numacube.bench.serve.StagingCpu
 * [batch-rows=10000] [batches=400]}
 */
public final class StagingCpu {

    private StagingCpu() {}

    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int count = args.length > 1 ? Integer.parseInt(args[1]) : 400;
        TradeBatches batches = new TradeBatches(rows, 7);
        CsvStagingLoader loader = new CsvStagingLoader(CsvOptions.DEFAULT);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[] nanos = new long[count];
        for (int i = -count / 4; i < count; i++) {
            long t0 = threads.getCurrentThreadCpuTime();
            byte[] body = batches.body(Math.max(0, i));
            loader.stage(body, "batch", TradesGenerator.TRADES);
            if (i >= 0) {
                nanos[i] = threads.getCurrentThreadCpuTime() - t0;
            }
        }
        Arrays.sort(nanos);
        System.out.printf(
                "batch-rows=%d batches=%d cpu-ms p50=%.2f min=%.2f%n",
                rows, count, nanos[count / 2] / 1e6, nanos[0] / 1e6);
    }
}
