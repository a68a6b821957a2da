package io.numacube.bench.serve;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The leanest HTTP/1.1 client there is: one blocking socket kept alive, a request written in one piece, the answer
 * read on the calling thread (a {@code Content-Length} body or a chunked one). It stands where curl or a C client
 * would, so that the server's own cost can be told apart from the JDK HttpClient's, whose selector and executor
 * threads add hand-offs to every request.
 *
 * <p>The JDK's server closes a connection idle for 30 s ({@code sun.net.httpserver.idleInterval}), so one idle for
 * {@link #IDLE_NANOS} is replaced before the next request rather than retried after it (a write is not idempotent).
 *
 * <p>Not thread-safe: one thread per client. {@link #close()} closes the connection.
 */
final class PlainHttpClient implements HttpApi, AutoCloseable {

    /** A connection idle this long is replaced before it is used again. */
    static final long IDLE_NANOS = 10_000_000_000L;

    private final int port;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private long lastUsedNanos;

    /** Connects to {@code 127.0.0.1:port}. */
    PlainHttpClient(int port) {
        this.port = port;
        connect();
    }

    private void connect() {
        try {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress("127.0.0.1", port));
            in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
            out = socket.getOutputStream();
            lastUsedNanos = System.nanoTime();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot connect over HTTP: port=" + port + " error=" + e, e);
        }
    }

    @Override
    public byte[] query(String sql) {
        return post("/v1/query", "text/plain", sql.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public long appendCsv(String table, byte[] csv) {
        return HttpSqlClient.answerVersion(post("/v1/tables/" + table + "/rows", "text/csv", csv));
    }

    /**
     * Posts {@code body} and returns the answer's body.
     *
     * @throws IllegalStateException for any answer but 200, with its body
     */
    byte[] post(String path, String type, byte[] body) {
        if (System.nanoTime() - lastUsedNanos > IDLE_NANOS) {
            close();
            connect();
        }
        try {
            byte[] head = ("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + type
                            + "\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
            byte[] request = new byte[head.length + body.length];
            System.arraycopy(head, 0, request, 0, head.length);
            System.arraycopy(body, 0, request, head.length, body.length);
            out.write(request);
            out.flush();
            byte[] answer = answer(path);
            lastUsedNanos = System.nanoTime();
            return answer;
        } catch (IOException e) {
            throw new UncheckedIOException("HTTP request failed: path=" + path + " error=" + e, e);
        }
    }

    private byte[] answer(String path) throws IOException {
        String status = line();
        long length = -1;
        boolean chunked = false;
        for (String h = line(); !h.isEmpty(); h = line()) {
            String lower = h.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Long.parseLong(
                        lower.substring("content-length:".length()).strip());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            }
        }
        byte[] body = chunked ? chunks() : in.readNBytes((int) Math.max(0, length));
        if (!status.startsWith("HTTP/1.1 200")) {
            throw new IllegalStateException("the server refused a request: path=" + path + " status=" + status
                    + " body=" + new String(body, StandardCharsets.UTF_8).strip());
        }
        return body;
    }

    private byte[] chunks() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream(1 << 16);
        for (int n = Integer.parseInt(line().strip(), 16); n > 0; n = Integer.parseInt(line().strip(), 16)) {
            body.write(in.readNBytes(n));
            line();
        }
        line();
        return body.toByteArray();
    }

    /** One header line without its CRLF. */
    private String line() throws IOException {
        StringBuilder b = new StringBuilder(64);
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new EOFException("the server closed the connection mid-answer");
            }
            if (c != '\r') {
                b.append((char) c);
            }
        }
        return b.toString();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing a loopback socket the bench is done with
        }
    }
}
