package io.numacube.engine.result;

import io.numacube.numa.base.NumacubeException;

/**
 * A query's cancel switch: another thread {@link #cancel}s it (a client's cancel request, a deadline), and the query
 * stops at its next check, between blocks of morsels or every few thousand rows of a projection, with SQLSTATE 57014
 * and the reason given. The workers drop the rest of its morsels, so a cancelled query frees them within about a block's
 * time. Thread-safe; cancelling twice keeps the first reason.
 */
public final class Cancellation {

    /** A switch that is never thrown (a query nobody will cancel). */
    public static final Cancellation NONE = new Cancellation();

    private volatile String reason;

    /** Asks the query to stop; {@code reason} becomes its error's message. */
    public void cancel(String reason) {
        if (this == NONE) {
            throw new IllegalStateException("Cancellation.NONE cannot be cancelled");
        }
        if (this.reason == null) {
            this.reason = reason;
        }
    }

    public boolean isCancelled() {
        return reason != null;
    }

    /** @throws NumacubeException 57014 with the reason, once cancelled */
    public void check() {
        String r = reason;
        if (r != null) {
            throw new NumacubeException(NumacubeException.Kind.INVALID_INPUT, "57014", r, null, null);
        }
    }
}
