package io.numacube.numa.memory;

import io.numacube.numa.topology.NodeSet;

/**
 * What a caller asks of a segment's placement. Immutable.
 *
 * @param mode      the placement mode asked for
 * @param nodes     one node for BIND, PREFERRED and FIRST_TOUCH; one or more for INTERLEAVE; empty for OS_DEFAULT
 * @param hugePages whether to madvise(MADV_HUGEPAGE)
 */
public record PlacementRequest(PlacementMode mode, NodeSet nodes, boolean hugePages) {

    public static PlacementRequest bind(int node) {
        return new PlacementRequest(PlacementMode.BIND, NodeSet.of(node), false);
    }

    public static PlacementRequest preferred(int node) {
        return new PlacementRequest(PlacementMode.PREFERRED, NodeSet.of(node), false);
    }

    public static PlacementRequest interleave(NodeSet nodes) {
        return new PlacementRequest(PlacementMode.INTERLEAVE, nodes, false);
    }

    public static PlacementRequest firstTouch(int node) {
        return new PlacementRequest(PlacementMode.FIRST_TOUCH, NodeSet.of(node), false);
    }

    public static PlacementRequest osDefault() {
        return new PlacementRequest(PlacementMode.OS_DEFAULT, NodeSet.empty(), false);
    }

    public PlacementRequest withHugePages(boolean on) {
        return new PlacementRequest(mode, nodes, on);
    }

    /** The single node this request targets, or -1 for INTERLEAVE over several nodes and OS_DEFAULT. */
    public int targetNode() {
        return nodes.size() == 1 ? nodes.stream().findFirst().getAsInt() : -1;
    }
}
