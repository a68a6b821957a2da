package io.numacube.server.pgwire;

import io.numacube.server.pgwire.types.BinaryFormat;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * Reads frontend messages from a connection: the untyped startup packets (length, then body) and the typed messages
 * after them (a type byte, an int32 length that counts itself, the body). A length below 4 or above the limit is
 * malformed ({@link PgProtocolException#fatal}): the connection cannot find the next message boundary and closes. A
 * body whose fields do not fit ({@link Body}) is not: the next message starts where the length says.
 * Not thread-safe: one connection thread reads.
 */
final class PgInput {

    /** One frontend message: its type byte and its body. */
    record Message(char type, Body body) {}

    private final DataInputStream in;
    private final int maxMessageBytes;

    PgInput(InputStream in, int maxMessageBytes) {
        this.in = new DataInputStream(new java.io.BufferedInputStream(in, 16 * 1024));
        this.maxMessageBytes = maxMessageBytes;
    }

    /** A startup-phase packet's body (after its length), or null at end of stream. */
    Body readStartupPacket() throws IOException {
        int length;
        try {
            length = in.readInt();
        } catch (EOFException e) {
            return null;
        }
        if (length < 8 || length > 10_000) {
            throw PgProtocolException.malformed("invalid length of startup packet: length=" + length);
        }
        return new Body(readFully(length - 4));
    }

    /** The next message, or null at end of stream. */
    Message readMessage() throws IOException {
        return readMessage(maxMessageBytes);
    }

    /** The next message, or null at end of stream; one with a body over {@code maxBytes} is malformed. */
    Message readMessage(int maxBytes) throws IOException {
        int type = in.read();
        if (type < 0) {
            return null;
        }
        int length = in.readInt();
        if (length < 4) {
            throw PgProtocolException.malformed("invalid message length: type=" + (char) type + " length=" + length);
        }
        if (length - 4 > maxBytes) {
            throw PgProtocolException.malformed(
                    "message too large: type=" + (char) type + " bytes=" + (length - 4) + " max-bytes=" + maxBytes);
        }
        return new Message((char) type, new Body(readFully(length - 4)));
    }

    /**
     * Whether the next message has already arrived and is a Sync; neither waits for the client nor consumes it.
     */
    boolean syncIsNext() throws IOException {
        if (in.available() < 5) {
            return false;
        }
        in.mark(1);
        int type = in.read();
        in.reset();
        return type == 'S';
    }

    /**
     * The next {@code n} bytes. They are read as they arrive, never allocated at once from the length: a client that
     * announces a large message and sends nothing more holds no more memory than it sent.
     */
    private byte[] readFully(int n) throws IOException {
        byte[] b = in.readNBytes(n);
        if (b.length < n) {
            throw new EOFException("the message ended early: bytes=" + b.length + " length=" + n);
        }
        return b;
    }

    /** Strict UTF-8 ({@link BinaryFormat#utf8}). */
    static String utf8(byte[] bytes) {
        return BinaryFormat.utf8(bytes);
    }

    /**
     * A message body read field by field; reading past its end, or a string without its zero byte, is
     * {@linkplain PgProtocolException#invalidContent invalid content} (an ERROR after the startup, FATAL during it).
     * Not thread-safe.
     */
    static final class Body {
        private final ByteBuffer b;

        Body(byte[] bytes) {
            this.b = ByteBuffer.wrap(bytes);
        }

        int int32() {
            need(4);
            return b.getInt();
        }

        short int16() {
            need(2);
            return b.getShort();
        }

        byte int8() {
            need(1);
            return b.get();
        }

        /** A NUL-terminated UTF-8 string. */
        String cstring() {
            int start = b.position();
            int end = start;
            while (end < b.limit() && b.get(end) != 0) {
                end++;
            }
            if (end >= b.limit()) {
                throw PgProtocolException.invalidContent("invalid string in message: no terminating zero byte");
            }
            byte[] s = new byte[end - start];
            b.get(s);
            b.get();
            return utf8(s);
        }

        byte[] bytes(int n) {
            if (n < 0) {
                throw PgProtocolException.invalidContent("invalid length in message: length=" + n);
            }
            need(n);
            byte[] out = new byte[n];
            b.get(out);
            return out;
        }

        int remaining() {
            return b.remaining();
        }

        /** The bytes left in the message (CopyData's data). */
        byte[] rest() {
            return bytes(b.remaining());
        }

        /** A message must be read to its end: bytes left over mean the client and server disagree on its shape. */
        void end(String what) {
            if (b.hasRemaining()) {
                throw PgProtocolException.invalidContent(
                        "invalid message format: " + what + " has " + b.remaining() + " bytes too many");
            }
        }

        private void need(int n) {
            if (b.remaining() < n) {
                throw PgProtocolException.invalidContent("invalid message format: message ends too early");
            }
        }
    }
}
