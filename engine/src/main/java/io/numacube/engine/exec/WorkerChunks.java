package io.numacube.engine.exec;

import io.numacube.engine.workers.ThreadWorkerPool;
import io.numacube.engine.workers.WorkerPool;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Runs a function of consecutive ranges of {@code [0, n)}, or of each item of a list, on a query's workers, side by
 * side, and gives the results in range (item) order: the caller lays them end to end. The ranges are a function of {@code n} and the worker count alone,
 * never of timing; where any range fails, the failure of the first failing range is thrown (the one a serial loop in
 * order would meet first, when each range fails at its first failing item). The function must read shared state only.
 * Stateless.
 */
final class WorkerChunks {

    /** The items below which a range is not worth a task of its own. */
    static final int MIN_ITEMS = 4096;

    private WorkerChunks() {}

    /** One range of items {@code [from, to)}. */
    @FunctionalInterface
    interface Range<T> {
        T apply(int from, int to);
    }

    /** The workers' nodes that have workers, or an empty list where the pool cannot run chunks. */
    static List<Integer> nodes(WorkerPool pool) {
        List<Integer> nodes = new ArrayList<>();
        for (int node : pool.nodes()) {
            if (pool.workersOn(node) > 0) {
                nodes.add(node);
            }
        }
        return nodes;
    }

    /** {@code range} over {@code [0, n)} cut in up to twice as many ranges as workers (at most 64). */
    static <T> List<T> map(WorkerPool pool, int n, Range<T> range) {
        int chunks = Math.max(1, Math.min(n / MIN_ITEMS, Math.min(64, 2 * pool.workerCount())));
        List<int[]> ranges = new ArrayList<>(chunks);
        for (int c = 0; c < chunks; c++) {
            ranges.add(new int[] {(int) ((long) n * c / chunks), (int) ((long) n * (c + 1) / chunks)});
        }
        return each(pool, ranges, r -> range.apply(r[0], r[1]));
    }

    /** {@code task} of each of {@code items}, one task each, results in the items' order. */
    static <S, T> List<T> each(WorkerPool pool, List<S> items, java.util.function.Function<S, T> task) {
        List<Integer> nodes = nodes(pool);
        if (nodes.isEmpty() || items.size() == 1) {
            return items.stream().map(task).toList();
        }
        List<CompletableFuture<T>> tasks = new ArrayList<>();
        for (int c = 0; c < items.size(); c++) {
            S item = items.get(c);
            tasks.add(pool.submit(nodes.get(c % nodes.size()), () -> task.apply(item)));
        }
        ThreadWorkerPool.awaitAll(tasks);
        List<T> out = new ArrayList<>(items.size());
        for (CompletableFuture<T> t : tasks) {
            out.add(t.join());
        }
        return out;
    }
}
