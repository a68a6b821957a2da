package io.numacube.engine.exec;

/**
 * How many scratch vectors of each kind the batch expressions and predicates of one plan use: {@link BatchScratch}
 * is sized from this. Slots are numbered from 0 by {@link QueryCompiler} as it builds the plan's nodes.
 *
 * @param doubleSlots  slots of {@code double} (and, for the exact path, {@code long}) vectors
 * @param booleanSlots slots of {@code boolean} vectors (and a junction's row and position vectors)
 */
record ScratchLayout(int doubleSlots, int booleanSlots) {}
