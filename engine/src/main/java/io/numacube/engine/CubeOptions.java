package io.numacube.engine;

import io.numacube.engine.storage.Partitioning;
import io.numacube.engine.storage.Placement;
import io.numacube.numa.base.NumacubeException;

/**
 * How a cube places, cuts and scans its tables. Immutable; change one setting with a {@code with…} method.
 *
 * @param placement       where partition memory goes (default {@link Placement#NODE_LOCAL})
 * @param partitioning    how tables are cut into partitions (default {@link Partitioning#AUTO})
 * @param threadsPerNode  workers per worker node; 0 = one per allowed CPU of the node
 * @param workStealing    whether a worker whose node has no morsels left takes morsels of other nodes (nearest
 *                        first); default true
 * @param morselRows      rows per morsel (default 65,536)
 * @param simulatedNodes  0 (default): use the NUMA runtime (pinned workers, placed memory). N ≥ 1: plain unpinned
 *                        threads on N <em>logical</em> nodes and ordinary off-heap memory — for tests of scheduling
 *                        and stealing on machines with fewer nodes; placement is then not real
 */
public record CubeOptions(
        Placement placement,
        Partitioning partitioning,
        int threadsPerNode,
        boolean workStealing,
        int morselRows,
        int simulatedNodes) {

    public static final int DEFAULT_MORSEL_ROWS = 1 << 16;

    public CubeOptions {
        if (placement == null || partitioning == null) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT, "placement and partitioning are required");
        }
        if (threadsPerNode < 0 || threadsPerNode > 1024) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "threads per node must be 0 (one per CPU) to 1024: threadsPerNode=" + threadsPerNode);
        }
        if (morselRows < 1) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT, "a morsel holds at least one row: morselRows=" + morselRows);
        }
        if (simulatedNodes < 0 || simulatedNodes > 64) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "simulated nodes must be 0 (real NUMA) to 64: simulatedNodes=" + simulatedNodes);
        }
    }

    /** Node-local placement, automatic partitioning, one worker per CPU, stealing on, 64Ki-row morsels. */
    public static CubeOptions defaults() {
        return new CubeOptions(Placement.NODE_LOCAL, Partitioning.AUTO, 0, true, DEFAULT_MORSEL_ROWS, 0);
    }

    public CubeOptions withPlacement(Placement p) {
        return new CubeOptions(p, partitioning, threadsPerNode, workStealing, morselRows, simulatedNodes);
    }

    public CubeOptions withPartitioning(Partitioning p) {
        return new CubeOptions(placement, p, threadsPerNode, workStealing, morselRows, simulatedNodes);
    }

    public CubeOptions withThreadsPerNode(int n) {
        return new CubeOptions(placement, partitioning, n, workStealing, morselRows, simulatedNodes);
    }

    public CubeOptions withWorkStealing(boolean on) {
        return new CubeOptions(placement, partitioning, threadsPerNode, on, morselRows, simulatedNodes);
    }

    public CubeOptions withMorselRows(int rows) {
        return new CubeOptions(placement, partitioning, threadsPerNode, workStealing, rows, simulatedNodes);
    }

    public CubeOptions withSimulatedNodes(int nodes) {
        return new CubeOptions(placement, partitioning, threadsPerNode, workStealing, morselRows, nodes);
    }
}
