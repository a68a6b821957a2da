package io.numacube.engine.storage;

import io.numacube.numa.NumacubeException;
import java.util.Locale;

/**
 * How a cube's partitions are placed on NUMA nodes. The placement decides two things per partition: the node whose
 * workers process it first (its <em>home</em>, balanced by bytes in every mode) and where its memory goes.
 */
public enum Placement {
    /** Memory on the home node, filled by the home node's workers (the default). */
    NODE_LOCAL,
    /** Memory interleaved page by page over all data nodes. */
    INTERLEAVE,
    /** No policy; filled by the one unpinned calling thread, so the OS decides. */
    OS_DEFAULT,
    /** All memory on the first data node; homes still balanced, so the other nodes read remotely. */
    ONE_NODE,
    /** Memory deliberately on a node other than the home (the next node) when there are two or more nodes. */
    REMOTE;

    public static Placement parse(String s) {
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new NumacubeException(NumacubeException.Kind.INVALID_INPUT, "unknown placement: placement=" + s
                    + " — use node_local, interleave, os_default, one_node or remote");
        }
    }
}
