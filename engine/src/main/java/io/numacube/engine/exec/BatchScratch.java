package io.numacube.engine.exec;

/**
 * One worker task's temporaries for evaluating {@link BatchExpression}s and {@link BatchPredicate}s: {@code
 * doubles[slot]} of batch length for intermediate results, {@code booleans[slot]} for the terms of a junction, and,
 * allocated on first use (the double path never pays for them), {@code longs(slot)} for the exact BIGINT path and
 * {@code rows(slot)}/{@code positions(slot)} for a junction's undecided rows. Slots are numbered by the {@link
 * QueryCompiler} ({@link ScratchLayout}); each plan node owns its slots, so nodes never share one. Not thread-safe:
 * owned by one task; holds nothing between batches.
 */
final class BatchScratch {
    final double[][] doubles;
    final boolean[][] booleans;
    private final long[][] longs;
    private final int[][] rows;
    private final int[][] positions;
    private final int batch;

    BatchScratch(int doubleSlots, int booleanSlots, int batch) {
        doubles = new double[doubleSlots][batch];
        booleans = new boolean[booleanSlots][batch];
        longs = new long[doubleSlots][];
        rows = new int[booleanSlots][];
        positions = new int[booleanSlots][];
        this.batch = batch;
    }

    /** The rows a junction's later term is evaluated on (by boolean slot), allocated on first use. */
    int[] rows(int slot) {
        int[] a = rows[slot];
        if (a == null) {
            a = new int[batch];
            rows[slot] = a;
        }
        return a;
    }

    /** For each of {@link #rows(int)}, its position in the junction's batch (by boolean slot). */
    int[] positions(int slot) {
        int[] a = positions[slot];
        if (a == null) {
            a = new int[batch];
            positions[slot] = a;
        }
        return a;
    }

    long[] longs(int slot) {
        long[] a = longs[slot];
        if (a == null) {
            a = new long[batch];
            longs[slot] = a;
        }
        return a;
    }
}
