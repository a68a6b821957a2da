package io.numacube.spark;

/**
 * A shard could not answer, or answered something the connector cannot use; the message names the shard ({@code
 * host:port}), what happened and what to do. Spark reports it as the failing task's cause.
 */
public final class ShardException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    ShardException(String message) {
        super(message);
    }

    ShardException(String message, Throwable cause) {
        super(message, cause);
    }
}
