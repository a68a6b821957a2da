package io.numacube.server.pgwire;

import io.numacube.server.query.ClientError;
import io.numacube.server.query.RunningQuery;
import io.numacube.server.query.SqlStatements;
import io.numacube.server.write.CopyStatement;
import io.numacube.server.write.WriteService;
import java.io.IOException;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One client connection speaking protocol 3.0, on its own virtual thread: the startup phase ({@link PgStartup}:
 * SSLRequest answered {@code S} and the TLS handshake run when the server has a certificate, else {@code N}, CancelRequest, StartupMessage, SCRAM-SHA-256 when the server has
 * users, AuthenticationOk, ParameterStatus, BackendKeyData, ReadyForQuery), then simple queries and the extended protocol
 * ({@link ExtendedQuery}) until Terminate. After an error in the extended protocol, messages are skipped until
 * Sync. Malformed bytes, an unknown message type or a message over the size limit end this connection only, with a
 * FATAL error; so does a startup (authentication included) that takes longer than the startup timeout in all.
 *
 * <p>Thread-safety: the connection's thread does everything but {@link #cancel} (a cancel request's thread) and
 * {@link #terminate} (shutdown), which touch only the running query and, while the connection is idle, the socket.
 */
final class PgConnection implements Runnable {

    private static final System.Logger LOG = System.getLogger(PgConnection.class.getName());

    /** The client's socket; the TLS socket layered over it once the handshake is done. */
    private volatile Socket socket;

    private final PgServer server;
    private final ReentrantLock busy = new ReentrantLock();
    private volatile RunningQuery running;
    private volatile Session session;
    private final java.util.concurrent.atomic.AtomicBoolean startupOver =
            new java.util.concurrent.atomic.AtomicBoolean();
    private PgOutput out;
    private Replies replies;
    private ExtendedQuery extended;
    private PgInput in;

    PgConnection(Socket socket, PgServer server) {
        this.socket = socket;
        this.server = server;
    }

    @Override
    public void run() {
        try (Socket plain = socket) {
            serve();
            socket.close();
        } catch (IOException e) {
            // closing a socket that is gone already
        } finally {
            RunningQuery q = running;
            if (q != null) {
                q.cancel();
            }
            Session s = session;
            if (s != null) {
                s.closeTrial();
            }
            server.unregister(this);
        }
    }

    /** The connection's life; a fatal error is told to the client before the socket closes. */
    private void serve() {
        try {
            in = new PgInput(socket.getInputStream(), server.settings().maxMessageBytes());
            out = new PgOutput(socket.getOutputStream());
            socket.setSoTimeout(server.settings().startupTimeoutMillis());
            java.util.concurrent.Future<?> deadline = server.startupDeadline(this);
            PgStartup startup = new PgStartup(in, out, server, this, false);
            session = startup.run();
            if (startup.wantsTls()) {
                encrypt(server.settings().tls());
                session = new PgStartup(in, out, server, this, true).run();
            }
            deadline.cancel(false);
            if (session == null || !startupOver.compareAndSet(false, true)) {
                return;
            }
            socket.setSoTimeout(0);
            replies = new Replies(out, session);
            extended = new ExtendedQuery(session, server.runner(), replies, q -> running = q);
            messages(in);
        } catch (PgProtocolException e) {
            fatal(e.toClientError());
        } catch (IOException e) {
            // the client went away or the server is closing the socket: nothing left to tell it
        } catch (RuntimeException | Error e) {
            fatal(ClientError.of(e));
        }
    }

    /** Runs the TLS handshake as the server over the socket, and reads and writes through it from now on. */
    private void encrypt(io.numacube.server.tls.ServerTls tls) throws IOException {
        Socket plain = socket;
        javax.net.ssl.SSLSocket ssl = (javax.net.ssl.SSLSocket) tls.context()
                .getSocketFactory()
                .createSocket(plain, plain.getInetAddress().getHostAddress(), plain.getPort(), true);
        ssl.setUseClientMode(false);
        ssl.setSSLParameters(tls.parameters());
        socket = ssl;
        ssl.startHandshake();
        in = new PgInput(ssl.getInputStream(), server.settings().maxMessageBytes());
        out = new PgOutput(ssl.getOutputStream());
    }

    /**
     * The {@code tls-server-end-point} channel binding data of this connection's certificate, or null when the
     * connection is not over TLS or the certificate has none ({@link io.numacube.server.tls.TlsServerEndPoint}).
     */
    byte[] tlsServerEndPoint() {
        if (socket instanceof javax.net.ssl.SSLSocket ssl
                && ssl.getSession().getLocalCertificates() instanceof java.security.cert.Certificate[] local
                && local.length > 0
                && local[0] instanceof java.security.cert.X509Certificate certificate) {
            return io.numacube.server.tls.TlsServerEndPoint.of(certificate);
        }
        return null;
    }

    /**
     * The user the connection's verified client certificate names (its CN), or null when the connection is not over
     * TLS or the client sent no certificate ({@link io.numacube.server.tls.ClientCertificate}).
     */
    String clientCertificateUser() {
        return socket instanceof javax.net.ssl.SSLSocket ssl
                ? io.numacube.server.tls.ClientCertificate.commonName(ssl.getSession())
                : null;
    }

    /** The key a CancelRequest names this connection by, or 0 before startup ends. */
    int processId() {
        Session s = session;
        return s == null ? 0 : s.processId;
    }

    /**
     * The startup deadline passed: a connection still starting or authenticating is closed (its thread's read then
     * fails and it ends), so that trickling bytes cannot hold one of the server's sockets for ever.
     */
    void startupTimedOut() {
        if (startupOver.compareAndSet(false, true)) {
            try {
                socket.close();
            } catch (IOException e) {
                // already closed
            }
        }
    }

    /** Abandons the query running now, if any (a CancelRequest). */
    void cancel() {
        RunningQuery q = running;
        if (q != null) {
            q.cancel();
        }
    }

    /** Shutdown: an idle connection is told FATAL 57P01 first, as PostgreSQL does; then the socket closes. */
    void terminate() {
        if (busy.tryLock()) {
            try {
                if (out != null && session != null) {
                    Replies.fatal(
                            out,
                            ClientError.of(
                                    ClientError.SHUTTING_DOWN, "terminating connection due to administrator command"));
                }
            } catch (IOException e) {
                // closing anyway
            } finally {
                busy.unlock();
            }
        }
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    private void messages(PgInput in) throws IOException {
        boolean skipping = false;
        while (true) {
            PgInput.Message m = in.readMessage();
            if (m == null || m.type() == 'X') {
                return;
            }
            busy.lock();
            try {
                if (skipping && m.type() != 'S') {
                    continue;
                }
                skipping = message(m) && m.type() != 'S';
            } finally {
                busy.unlock();
            }
        }
    }

    /**
     * Handles one message; returns true when it failed in the extended protocol (skip until Sync). A message whose
     * bytes do not fit its type (its length being right, the next message is found all the same), text that is not
     * UTF-8 and a FunctionCall are an ERROR and ReadyForQuery, as in PostgreSQL, and the connection goes on.
     */
    private boolean message(PgInput.Message m) throws IOException {
        try {
            return dispatch(m);
        } catch (RuntimeException e) {
            if (e instanceof PgProtocolException p && p.fatal()) {
                throw e;
            }
            failed(e, null, null);
            session.endImplicit();
            if (session.status() == Session.IDLE) {
                session.endTransaction(true);
            }
            out.readyForQuery(session.status());
            return false;
        }
    }

    private boolean dispatch(PgInput.Message m) throws IOException {
        if ("QPBE".indexOf(m.type()) >= 0) {
            session.messageArrived();
        }
        switch (m.type()) {
            case 'Q' -> simpleQuery(m.body());
            case 'P', 'B', 'D', 'E', 'C' -> {
                implicitBlockFor(m.type());
                return extendedMessage(m);
            }
            case 'S' -> sync(m.body());
            case 'H' -> out.flush();
            case 'd', 'c', 'f' -> {
                // CopyData, CopyDone, CopyFail outside COPY: PostgreSQL ignores them, and so does numacube
            }
            // a FunctionCall is answered at once, ReadyForQuery included: its client (libpq's PQfn) sends no Sync
            case 'F' -> throw new PgProtocolException(ClientError.NOT_SUPPORTED, "function calls are not supported");
            default -> throw PgProtocolException.malformed("invalid frontend message type " + (int) m.type());
        }
        return false;
    }

    private boolean extendedMessage(PgInput.Message m) throws IOException {
        try {
            extended.handle(m.type(), m.body());
            return false;
        } catch (PgProtocolException e) {
            if (e.fatal()) {
                throw e;
            }
            failed(e, extended.origin(), extended.ranSql());
        } catch (RuntimeException | StackOverflowError e) {
            failed(e, extended.origin(), extended.ranSql());
        }
        // PostgreSQL flushes an error at once: a client that sent Flush, not Sync (asyncpg's prepare), waits for it,
        // and the Flush after the failed message is skipped with the rest up to the Sync
        out.flush();
        return true;
    }

    /**
     * The extended protocol's messages up to a Sync are one implicit block ({@link Session#beginImplicit}), but for an
     * Execute right before the Sync with no write kept before it: nothing after it can fail, so its write applies at
     * once.
     */
    private void implicitBlockFor(char type) throws IOException {
        if (type == 'E' && session.pendingWrites.isEmpty() && in.syncIsNext()) {
            session.endImplicit();
        } else {
            session.beginImplicit();
        }
    }

    /** Applies an implicit block's kept writes as one; a failure is the block's error. */
    private void endImplicitBlock() throws IOException {
        if (session.inImplicitBlock() && !session.pendingWrites.isEmpty()) {
            try {
                server.runner().commitWrites(session);
            } catch (RuntimeException e) {
                failed(e, null, null);
            }
        }
        session.endImplicit();
    }

    private void sync(PgInput.Body body) throws IOException {
        body.end("Sync");
        endImplicitBlock();
        if (session.status() == Session.IDLE) {
            // the implicit transaction commits (one that failed was rolled back at its error)
            session.endTransaction(true);
        }
        replies.settingsChanged();
        out.readyForQuery(session.status());
    }

    private void simpleQuery(PgInput.Body body) throws IOException {
        String query = body.cstring();
        body.end("Query");
        extended.forgetUnnamed();
        List<SqlStatements.Statement> statements = SqlStatements.split(query);
        if (statements.isEmpty()) {
            out.empty('I');
        }
        if (statements.size() > 1) {
            session.beginImplicit();
            session.queryOfSeveral(true);
        }
        for (SqlStatements.Statement st : statements) {
            try {
                Outcome o = CopyStatement.isCopy(st.sql())
                        ? copyIn(st.sql())
                        : server.runner().run(st.sql(), session, q -> running = q);
                replies.outcome(o, null, 0, null, true);
            } catch (PgProtocolException e) {
                if (e.fatal()) {
                    throw e;
                }
                failed(e, new SqlOrigin(query, st.offset(), null), st.sql());
                break;
            } catch (RuntimeException | StackOverflowError e) {
                failed(e, new SqlOrigin(query, st.offset(), null), st.sql());
                break;
            }
        }
        session.queryOfSeveral(false);
        endImplicitBlock();
        if (session.status() == Session.IDLE) {
            // the implicit transaction commits (one that failed was rolled back at its error)
            session.endTransaction(true);
        }
        replies.settingsChanged();
        out.readyForQuery(session.status());
    }

    /**
     * {@code COPY ... FROM STDIN}: asks for the data (CopyInResponse), reads CopyData until CopyDone, and appends it
     * as one write (or keeps it for COMMIT inside a transaction block). CopyFail, or data that does not fit, is an
     * error and nothing is appended.
     */
    private Outcome copyIn(String sql) throws IOException {
        if (session.status() == Session.FAILED_BLOCK) {
            throw new PgProtocolException(
                    "25P02", "current transaction is aborted, commands ignored until end of transaction block");
        }
        session.checkWritable("COPY FROM");
        CopyStatement copy = CopyStatement.parse(sql);
        session.identity.checkMayWrite(copy.table());
        WriteService writes = server.writes();
        List<String> columns = writes.columnNames(copy.table());
        copy.checkColumns(columns);
        out.copyInResponse(
                copy.columns().isEmpty() ? columns.size() : copy.columns().size());
        out.flush();
        byte[] data = copyData();
        WriteService.Batch batch = copy.batch(data, columns);
        if (session.stagesWrites()) {
            int rows = copy.reporting(() -> writes.check(batch));
            session.pendingWrites.add(batch);
            return Outcome.command("COPY " + rows);
        }
        return Outcome.command(
                "COPY " + copy.reporting(() -> writes.append(batch)).rows());
    }

    /** The CopyData bytes up to CopyDone; CopyFail and data over the size limit are errors once the copy ends. */
    private byte[] copyData() throws IOException {
        java.io.ByteArrayOutputStream data = new java.io.ByteArrayOutputStream();
        long limit = server.settings().maxCopyBytes();
        boolean tooLong = false;
        while (true) {
            PgInput.Message m = in.readMessage();
            if (m == null) {
                throw new IOException("the client went away during COPY");
            }
            switch (m.type()) {
                case 'd' -> {
                    byte[] chunk = m.body().rest();
                    tooLong |= data.size() + (long) chunk.length > limit;
                    if (!tooLong) {
                        data.write(chunk, 0, chunk.length);
                    }
                }
                case 'c' -> {
                    if (tooLong) {
                        throw new PgProtocolException(
                                ClientError.LIMIT_EXCEEDED,
                                "COPY data too large: max-bytes=" + limit + " — send it in several COPY statements");
                    }
                    return data.toByteArray();
                }
                case 'f' ->
                    throw new PgProtocolException(
                            ClientError.QUERY_CANCELED,
                            "COPY from stdin failed: " + m.body().cstring());
                case 'H', 'S' -> {}
                default ->
                    throw PgProtocolException.malformed(
                            "unexpected message type " + (int) m.type() + " during COPY from stdin");
            }
        }
    }

    private void failed(Throwable e, SqlOrigin origin, String ranSql) throws IOException {
        replies.error(e, origin, ranSql);
        session.fail();
    }

    private void fatal(ClientError e) {
        if (out == null) {
            return;
        }
        try {
            Replies.fatal(out, e);
        } catch (IOException ignored) {
            LOG.log(System.Logger.Level.DEBUG, "could not send FATAL: {0}", e.message());
        }
    }
}
