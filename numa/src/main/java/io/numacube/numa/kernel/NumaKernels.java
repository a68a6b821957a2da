package io.numacube.numa.kernel;

import java.util.Optional;

/** Finds the {@link NumaKernel} for this platform once. Thread-safe. */
public final class NumaKernels {

    private NumaKernels() {
    }

    /** The native kernel access for this platform, or empty with {@link #unavailableReason()} saying why. */
    public static Optional<NumaKernel> load() {
        return Optional.empty();
    }

    /** Why {@link #load()} is empty; empty when it is not. */
    public static Optional<String> unavailableReason() {
        return Optional.of("native access not implemented yet");
    }
}
