package io.numacube.server.pgwire;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A proxy for tests between one client and the server that records every message's type both ways, and each
 * CommandComplete's tag, so that a test sees what a driver sent and got (a client's SSLRequest is not taken: connect
 * with {@code sslmode=disable}). Thread-safe: two threads copy, the test reads {@link #frontend} and {@link #backend}.
 */
final class WireTap implements AutoCloseable {

    private final ServerSocket listener;
    private final InetSocketAddress target;
    /** The client's messages by type, in order (the startup packet is not one). */
    final List<Character> frontend = new CopyOnWriteArrayList<>();
    /** The server's messages by type, a CommandComplete as {@code C:tag}. */
    final List<String> backend = new CopyOnWriteArrayList<>();

    WireTap(InetSocketAddress target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(this::accept);
    }

    int port() {
        return listener.getLocalPort();
    }

    private void accept() {
        try (Socket client = listener.accept();
                Socket server = new Socket(target.getAddress(), target.getPort())) {
            Thread up = Thread.ofVirtual().start(() -> copy(client, server, true));
            copy(server, client, false);
            up.join();
        } catch (IOException | InterruptedException e) {
            // the tap ends with its connection
        }
    }

    private void copy(Socket from, Socket to, boolean fromClient) {
        try {
            DataInputStream in = new DataInputStream(from.getInputStream());
            DataOutputStream out = new DataOutputStream(to.getOutputStream());
            if (fromClient) {
                int length = in.readInt();
                out.writeInt(length);
                forward(in, out, length - 4);
            }
            while (true) {
                int type = in.read();
                if (type < 0) {
                    break;
                }
                int length = in.readInt();
                byte[] body = in.readNBytes(length - 4);
                if (fromClient) {
                    frontend.add((char) type);
                } else {
                    backend.add(
                            type == 'C'
                                    ? "C:" + new String(body, 0, body.length - 1, StandardCharsets.UTF_8)
                                    : String.valueOf((char) type));
                }
                out.writeByte(type);
                out.writeInt(length);
                out.write(body);
                out.flush();
            }
        } catch (IOException e) {
            // a side closed
        } finally {
            close(to);
        }
    }

    private static void forward(InputStream in, OutputStream out, int n) throws IOException {
        out.write(in.readNBytes(n));
        out.flush();
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closed already
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
