package io.numacube.numa.memory;

/** How a segment's pages are put on nodes. */
public enum PlacementMode {
    /** mbind(MPOL_BIND) to one node: pages there or allocation fails. */
    BIND,
    /** mbind(MPOL_PREFERRED): that node first, others when it is full. */
    PREFERRED,
    /** mbind(MPOL_INTERLEAVE) over several nodes, page by page. */
    INTERLEAVE,
    /** No policy call: the pages are written first by a thread pinned to the node's CPUs (works in containers). */
    FIRST_TOUCH,
    /** Whatever the OS does for the thread that touches the pages first. */
    OS_DEFAULT
}
