package io.numacube.cli.cube;

import io.numacube.engine.CubeOptions;
import io.numacube.engine.storage.Partitioning;
import io.numacube.engine.storage.Placement;
import picocli.CommandLine.Option;

/**
 * The cube options shared by {@code query}, {@code load} and {@code demo} (a picocli mixin). Turned into
 * {@link CubeOptions} by {@link #toOptions()}, which validates them. Filled by picocli on one thread.
 */
public final class CubeSettings {

    @Option(
            names = "--placement",
            paramLabel = "MODE",
            defaultValue = "node_local",
            description = "Where partition memory goes: node_local, interleave, os_default, remote or one_node:N "
                    + "(default: ${DEFAULT-VALUE}).")
    String placement = "node_local";

    @Option(
            names = "--threads",
            paramLabel = "N",
            defaultValue = "0",
            description = "Worker threads per NUMA node; 0 = one per allowed CPU (default: ${DEFAULT-VALUE}).")
    int threadsPerNode;

    @Option(
            names = "--partition-by",
            paramLabel = "DIM",
            description = "Partition tables by this dimension (all rows of a value in one partition), e.g. desk or "
                    + "currency; default: by row ranges.")
    String partitionBy;

    @Option(
            names = "--partitions",
            paramLabel = "N",
            defaultValue = "0",
            description = "Number of partitions; 0 = automatic, two per worker (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--no-stealing", description = "Workers never take morsels of other nodes.")
    boolean noStealing;

    @Option(
            names = "--morsel-rows",
            paramLabel = "N",
            defaultValue = "65536",
            description = "Rows per morsel (default: ${DEFAULT-VALUE}).")
    int morselRows = CubeOptions.DEFAULT_MORSEL_ROWS;

    @Option(
            names = "--simulated-nodes",
            paramLabel = "N",
            defaultValue = "0",
            hidden = true,
            description = "Testing aid: run on N logical nodes of unpinned threads and ordinary memory.")
    int simulatedNodes;

    @Option(
            names = "--max-memory",
            paramLabel = "SIZE",
            converter = ByteSize.class,
            description = "The most memory the data may take (placed columns, and the heap that stages a CSV file), "
                    + "e.g. 16G; a load or generation that needs more is refused before it starts. Default: what the "
                    + "NUMA nodes have free, the cgroup's limit and the JVM's heap allow.")
    Long maxMemory;

    /** The --max-memory cap in bytes, or null for none. */
    public Long maxMemory() {
        return maxMemory;
    }

    /** The options these settings describe. */
    public CubeOptions toOptions() {
        Partitioning partitioning = partitionBy != null
                ? Partitioning.byDimension(partitionBy, partitions)
                : partitions != 0 ? Partitioning.rowRanges(partitions) : Partitioning.AUTO;
        return CubeOptions.defaults()
                .withPlacement(Placement.parse(placement))
                .withPartitioning(partitioning)
                .withThreadsPerNode(threadsPerNode)
                .withWorkStealing(!noStealing)
                .withMorselRows(morselRows)
                .withSimulatedNodes(simulatedNodes);
    }
}
