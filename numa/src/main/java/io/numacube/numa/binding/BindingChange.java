package io.numacube.numa.binding;

import java.time.Instant;

/**
 * A change of the process's bindings seen by a {@link BindingWatcher}: the state before and after. Immutable.
 *
 * @param before the last state with other bindings
 * @param after  the state read now
 * @param seenAt when the watcher read {@code after}
 */
public record BindingChange(BindingState before, BindingState after, Instant seenAt) {

    /** {@code cpus 0-3 -> 2-3, mems 0-1 -> 1}: see {@link BindingState#describeChangeFrom}. */
    public String describe() {
        return after.describeChangeFrom(before);
    }
}
