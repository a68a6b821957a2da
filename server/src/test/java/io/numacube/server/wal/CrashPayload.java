package io.numacube.server.wal;

import java.nio.ByteBuffer;
import java.util.Random;

/**
 * The payloads of the crash test: self-describing, so that any record replayed after a crash can be checked whole
 * against what its appender must have written, acknowledged or not. Layout: run id (long), thread (int), sequence
 * number (long), then 0 to 4000 bytes drawn from a generator seeded by those three.
 */
record CrashPayload(long run, int thread, long seq) {

    private static final int HEADER_BYTES = 20;

    byte[] bytes() {
        Random random = new Random(run * 1_000_003L + thread * 7_919L + seq);
        byte[] body = new byte[random.nextInt(4001)];
        random.nextBytes(body);
        return ByteBuffer.allocate(HEADER_BYTES + body.length)
                .putLong(run)
                .putInt(thread)
                .putLong(seq)
                .put(body)
                .array();
    }

    /** What {@code payload} says it is; throws when it is not exactly what that appender wrote. */
    static CrashPayload of(byte[] payload) {
        if (payload.length < HEADER_BYTES) {
            throw new AssertionError("payload too short to be the crash test's: bytes=" + payload.length);
        }
        ByteBuffer b = ByteBuffer.wrap(payload);
        CrashPayload p = new CrashPayload(b.getLong(), b.getInt(), b.getLong());
        if (!java.util.Arrays.equals(payload, p.bytes())) {
            throw new AssertionError("garbled payload: claims " + p + " bytes=" + payload.length);
        }
        return p;
    }
}
