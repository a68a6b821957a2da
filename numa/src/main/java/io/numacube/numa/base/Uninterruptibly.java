package io.numacube.numa.base;

/**
 * Waits that must not be cut short by an interrupt (joining a thread that is being stopped, a copy the caller needs):
 * the wait is repeated until it returns, and the caller's interrupt status is set again afterwards when an interrupt
 * came meanwhile. Stateless.
 */
public final class Uninterruptibly {

    /** A wait that an interrupt may break off, with its result and the one checked exception it may throw. */
    @FunctionalInterface
    public interface Wait<T, E extends Exception> {
        T get() throws InterruptedException, E;
    }

    private Uninterruptibly() {}

    /** {@code wait}'s result, waited for through any interrupt; the interrupt status is restored when one came. */
    public static <T, E extends Exception> T await(Wait<T, E> wait) throws E {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return wait.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
