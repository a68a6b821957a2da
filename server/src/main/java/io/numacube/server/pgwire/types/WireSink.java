package io.numacube.server.pgwire.types;

/**
 * Where a DataRow's fields are written: the connection's message under construction. Big-endian, as on the wire.
 * Not thread-safe: one connection's thread writes.
 */
public interface WireSink {

    void int32(int v);

    void int64(long v);

    /** {@code length} bytes of {@code b} from {@code offset}. */
    void bytes(byte[] b, int offset, int length);
}
