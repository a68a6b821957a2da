package io.numacube.engine.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * Merges the block states of one partition in block order, as they complete: a state that finishes before its
 * predecessor waits here; the merged prefix is one state. Thread-safe (its methods are synchronized); the
 * result is read once every block completed.
 */
final class PartitionMerger {
    private final List<AggregationState> waiting = new ArrayList<>();
    private int next;
    private AggregationState merged;

    synchronized void complete(int block, AggregationState state) {
        while (waiting.size() <= block) {
            waiting.add(null);
        }
        waiting.set(block, state);
        while (next < waiting.size() && waiting.get(next) != null) {
            AggregationState s = waiting.set(next, null);
            next++;
            if (merged == null) {
                merged = s;
            } else {
                merged.combine(s);
            }
        }
    }

    /** The partition's merged state, or null when none of its blocks ran. */
    synchronized AggregationState result() {
        return merged;
    }
}
