package io.numacube.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** Reading frontend messages: what a message's length alone may cost. */
class PgInputTest {

    /**
     * Campaign 11: 63 sessions that each sent the header of a 16 MiB Query, and nothing more, held 1 GiB of the
     * server's heap, allocated from the length alone.
     */
    @Test
    void aLengthAloneReservesNoMemory() throws IOException {
        int announced = 16 << 20;
        byte[] header = ByteBuffer.allocate(5 + 7)
                .put((byte) 'Q')
                .putInt(announced + 4)
                .put("SELECT ".getBytes())
                .array();
        PgInput in = new PgInput(new ByteArrayInputStream(header), announced);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        assertThrows(EOFException.class, in::readMessage);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < announced / 8, "allocated=" + allocated + " announced=" + announced);
    }

    @Test
    void aLargeMessageIsReadWhole() throws IOException {
        byte[] body = new byte[3_000_000];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) ('a' + i % 26);
        }
        byte[] wire = ByteBuffer.allocate(5 + body.length)
                .put((byte) 'd')
                .putInt(body.length + 4)
                .put(body)
                .array();
        PgInput.Message m = new PgInput(new ByteArrayInputStream(wire), body.length).readMessage();
        assertEquals('d', m.type());
        assertArrayEquals(body, m.body().rest());
    }
}
