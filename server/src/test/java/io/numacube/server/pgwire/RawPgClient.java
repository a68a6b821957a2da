package io.numacube.server.pgwire;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A bare protocol-3.0 client for tests: writes raw messages, reads backend messages one by one. Not thread-safe. */
final class RawPgClient implements AutoCloseable {

    /** One backend message. */
    record Message(char type, byte[] body) {

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** The fields of an ErrorResponse or NoticeResponse. */
        Map<Character, String> fields() {
            Map<Character, String> f = new LinkedHashMap<>();
            int i = 0;
            while (i < body.length && body[i] != 0) {
                char code = (char) body[i++];
                int end = i;
                while (body[end] != 0) {
                    end++;
                }
                f.put(code, new String(body, i, end - i, StandardCharsets.UTF_8));
                i = end + 1;
            }
            return f;
        }
    }

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    RawPgClient(InetSocketAddress address) throws IOException {
        socket = new Socket(address.getAddress(), address.getPort());
        socket.setSoTimeout(20_000);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    /** Connects and completes the startup; the messages up to the first ReadyForQuery are returned. */
    static RawPgClient connected(InetSocketAddress address) throws IOException {
        RawPgClient c = new RawPgClient(address);
        c.startup(196_608, "user", "raw", "database", "numacube");
        List<Message> m = c.untilReady();
        if (m.getLast().type() != 'Z') {
            throw new IOException("no ReadyForQuery: " + m);
        }
        return c;
    }

    void startup(int protocol, String... params) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(b);
        d.writeInt(protocol);
        for (String p : params) {
            d.write(p.getBytes(StandardCharsets.UTF_8));
            d.write(0);
        }
        d.write(0);
        out.writeInt(b.size() + 4);
        out.write(b.toByteArray());
        out.flush();
    }

    /** An untyped startup-phase packet of int32 codes: SSLRequest, GSSENCRequest, CancelRequest. */
    void packet(int... ints) throws IOException {
        out.writeInt(4 + 4 * ints.length);
        for (int i : ints) {
            out.writeInt(i);
        }
        out.flush();
    }

    void raw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** A typed message whose body is made of strings (NUL-terminated), shorts, ints and byte arrays, in order. */
    void send(char type, Object... parts) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(b);
        for (Object p : parts) {
            switch (p) {
                case String s -> {
                    d.write(s.getBytes(StandardCharsets.UTF_8));
                    d.write(0);
                }
                case Short s -> d.writeShort(s);
                case Integer i -> d.writeInt(i);
                case Character c -> d.writeByte(c);
                case byte[] bytes -> d.write(bytes);
                default -> throw new IllegalArgumentException(String.valueOf(p));
            }
        }
        out.writeByte(type);
        out.writeInt(b.size() + 4);
        out.write(b.toByteArray());
        out.flush();
    }

    void query(String sql) throws IOException {
        send('Q', sql);
    }

    int readByte() throws IOException {
        return in.read();
    }

    /** The next message, or null at end of stream. */
    Message read() throws IOException {
        int type = in.read();
        if (type < 0) {
            return null;
        }
        int length = in.readInt();
        byte[] body = new byte[length - 4];
        in.readFully(body);
        return new Message((char) type, body);
    }

    /** Messages up to and including ReadyForQuery, or up to the end of the stream. */
    List<Message> untilReady() throws IOException {
        List<Message> out = new ArrayList<>();
        while (true) {
            Message m;
            try {
                m = read();
            } catch (EOFException e) {
                return out;
            }
            if (m == null) {
                return out;
            }
            out.add(m);
            if (m.type() == 'Z') {
                return out;
            }
        }
    }

    /** The types of {@code messages}, as a string: {@code "TDCZ"}. */
    static String types(List<Message> messages) {
        StringBuilder sb = new StringBuilder();
        messages.forEach(m -> sb.append(m.type()));
        return sb.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
