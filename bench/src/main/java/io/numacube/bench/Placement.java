package io.numacube.bench;

/**
 * The placement policies the bench compares (seed 003), independent of how the engine names them.
 * Immutable.
 */
public enum Placement {
    NODE_LOCAL("node-local", "each partition on the node whose pinned workers fill and scan it (numacube's default)"),
    INTERLEAVE("interleave", "every partition's pages spread round-robin over all nodes"),
    OS_DEFAULT("os-default", "loaded by one unpinned thread, pages wherever the OS puts them (first touch)"),
    ONE_NODE("one-node", "all data on one node, workers on every node"),
    REMOTE("remote", "each partition deliberately on a node other than its workers' (experiment)");

    private final String label;
    private final String description;

    Placement(String label, String description) {
        this.label = label;
        this.description = description;
    }

    public String label() {
        return label;
    }

    public String description() {
        return description;
    }
}
