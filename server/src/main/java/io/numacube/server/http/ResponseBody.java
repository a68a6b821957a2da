package io.numacube.server.http;

import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The body of a response, sent with a Content-Length when it fits in {@code bufferBytes} (most answers: one write,
 * no chunk framing) and chunked as it is written when it grows past that (a large result is never held twice in
 * memory). The status goes out with the first bytes. Not thread-safe: one exchange's thread writes it.
 */
final class ResponseBody extends OutputStream {

    private final HttpExchange exchange;
    private final int status;
    private final int bufferBytes;
    private ByteArrayOutputStream buffer = new ByteArrayOutputStream(8192);
    private OutputStream streaming;

    ResponseBody(HttpExchange exchange, int status, int bufferBytes) {
        this.exchange = exchange;
        this.status = status;
        this.bufferBytes = bufferBytes;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (streaming == null && buffer.size() + len > bufferBytes) {
            exchange.sendResponseHeaders(status, 0);
            streaming = exchange.getResponseBody();
            buffer.writeTo(streaming);
            buffer = null;
        }
        if (streaming != null) {
            streaming.write(b, off, len);
        } else {
            buffer.write(b, off, len);
        }
    }

    @Override
    public void close() throws IOException {
        if (streaming == null) {
            exchange.sendResponseHeaders(status, buffer.size());
            streaming = exchange.getResponseBody();
            buffer.writeTo(streaming);
            buffer = null;
        }
        streaming.close();
    }
}
