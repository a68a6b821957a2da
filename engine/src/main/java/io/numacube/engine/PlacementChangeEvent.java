package io.numacube.engine;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Percentage;

/**
 * A JFR event per change of the machine followed ({@link Cube#followMachine}), with what {@link PlacementChange}
 * says: {@code jfr print --events numacube.PlacementChange rec.jfr}. Its duration is the move's. Enabled by default;
 * costs nothing while no recording runs. Not thread-safe (one per change, on the watcher's thread).
 */
@Name("numacube.PlacementChange")
@Label("Placement Change")
@Category("numacube")
@Description("The process's bindings changed: what changed, and the partitions moved to follow it")
final class PlacementChangeEvent extends jdk.jfr.Event {

    @Label("Bindings")
    @Description("What changed, e.g. cpus 0-3 -> 2-3, mems 0-1 -> 1")
    String bindings;

    @Label("Data Nodes Before")
    String dataNodesBefore;

    @Label("Data Nodes After")
    String dataNodesAfter;

    @Label("Partitions Moved")
    int partitionsMoved;

    @Label("Bytes Moved")
    @DataAmount
    long bytesMoved;

    @Label("Pages On Target")
    @Description("Share of the moved partitions' pages on their new node; NaN when not measured")
    @Percentage
    double pagesOnTarget;

    @Label("Outcome")
    String outcome;

    /** Commits {@code c} as an event (begun by the caller when the move began), when a recording wants it. */
    void commit(PlacementChange c) {
        if (!shouldCommit()) {
            return;
        }
        bindings = c.bindings();
        dataNodesBefore = c.dataNodesBefore().toString();
        dataNodesAfter = c.dataNodesAfter().toString();
        partitionsMoved = c.partitionsMoved();
        bytesMoved = c.bytesMoved();
        pagesOnTarget = c.percentOnTarget() / 100.0;
        outcome = c.outcome();
        commit();
    }
}
