package io.numacube.numa.kernel;

import io.numacube.numa.topology.NodeSet;

/** A memory policy as get_mempolicy(2) returns it: the mode number with its flags split off, and the node mask.
 *  Immutable. */
public record RawMemoryPolicy(int mode, int modeFlags, NodeSet nodes) {}
