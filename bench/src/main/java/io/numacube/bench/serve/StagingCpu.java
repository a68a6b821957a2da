package io.numacube.bench.serve;

import io.numacube.engine.gen.TradesGenerator;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.ingest.csv.CsvOptions;
import io.numacube.engine.ingest.csv.CsvStagingLoader;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.storage.Dictionary;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * A manual measurement, never run by the tests or the bench: the CPU time of the calling thread to stage one CSV batch
 * of trades (the serve writer's batches) on that thread alone, as {@code POST /v1/tables/trades/rows} stages it when
 * no worker is free. Thread CPU time, so that other processes on a shared machine disturb it less than wall time:
 * compare builds by running it with each build's class path in turn. Prints the median and the minimum. With
 * {@code known} it stages as the server does since batches are coded against the table's dictionaries: against the
 * dictionaries of the distinct batches staged once before (so every text value is one the table holds, as for a
 * table that has seen its counterparties); without it, each batch codes its values anew (as before).
 *
 * <p>{@code java -cp bench/target/numacube-bench.jar:bench/target/lib/* io.numacube.bench.serve.StagingCpu
 * [batch-rows=10000] [batches=400] [known|fresh]}
 */
public final class StagingCpu {

    private StagingCpu() {}

    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int count = args.length > 1 ? Integer.parseInt(args[1]) : 400;
        TradeBatches batches = new TradeBatches(rows, 7);
        boolean known = args.length > 2 && args[2].equals("known");
        CsvStagingLoader loader = new CsvStagingLoader(CsvOptions.DEFAULT);
        Dictionary[] dictionaries = known ? dictionaries(loader, batches) : null;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[] nanos = new long[count];
        for (int i = -count / 4; i < count; i++) {
            long t0 = threads.getCurrentThreadCpuTime();
            byte[] body = batches.body(Math.max(0, i));
            loader.stage(body, "batch", TradesGenerator.TRADES, dictionaries);
            if (i >= 0) {
                nanos[i] = threads.getCurrentThreadCpuTime() - t0;
            }
        }
        Arrays.sort(nanos);
        System.out.printf(
                "batch-rows=%d batches=%d dictionaries=%s cpu-ms p50=%.2f min=%.2f%n",
                rows, count, known ? "known" : "fresh", nanos[count / 2] / 1e6, nanos[0] / 1e6);
    }

    /** The STRING dictionaries of every distinct batch staged as one table, as a table that holds them would have. */
    private static Dictionary[] dictionaries(CsvStagingLoader loader, TradeBatches batches) {
        TableStaging all = new TableStaging(TradesGenerator.TRADES);
        for (int b = 0; b < TradeBatches.DISTINCT; b++) {
            all.append(loader.stage(batches.body(b), "batch", TradesGenerator.TRADES)
                    .staging());
        }
        Dictionary[] out = new Dictionary[TradesGenerator.TRADES.size()];
        for (int c = 0; c < out.length; c++) {
            if (TradesGenerator.TRADES.column(c).type() == ColumnType.STRING) {
                out[c] = all.dictionary(c).snapshot(false);
            }
        }
        return out;
    }
}
