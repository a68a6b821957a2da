package io.numacube.server.pgwire;

import io.numacube.server.auth.Identity;
import io.numacube.server.auth.UserDirectory;
import io.numacube.server.pgwire.catalog.PgCatalog;
import io.numacube.server.query.ClientError;
import io.numacube.server.query.QueryService;
import io.numacube.server.write.WriteService;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The PostgreSQL front end of {@code numacube serve}: a plain {@link ServerSocket}, one virtual thread per
 * connection ({@link PgConnection}), at most {@code maxConnections} sessions and twice as many connections in all
 * (those still authenticating count too; more are told FATAL 53300, "sorry, too many clients already", as PostgreSQL
 * says). With users, each connection authenticates with SCRAM-SHA-256 before it gets a session. Each session gets a process id and a random secret, sent in
 * BackendKeyData, by which a CancelRequest on another connection finds and cancels its running query.
 *
 * <p>Thread-safe: the accept loop, the connections and shutdown share only concurrent maps.
 */
public final class PgServer {

    /**
     * How the front end behaves. Immutable.
     *
     * @param maxConnections       sessions at once
     * @param maxMessageBytes      the longest message body read; a longer one closes the connection
     * @param startupTimeoutMillis how long a new connection may take to start, authentication included, in all
     * @param serverVersion        {@code server_version} as reported, e.g. {@code 16.0 (numacube 0.1.0)}
     * @param versionText          what {@code SELECT version()} answers
     * @param statementLog         told of every statement run; null for none
     * @param users                who may connect (SCRAM-SHA-256), or null for anyone (no authentication)
     * @param tls                  the certificate an SSLRequest is answered with ({@code S}, then the handshake), every
     *                             connection then having to ask for it; null to answer {@code N}
     */
    public record Settings(
            int maxConnections,
            int maxMessageBytes,
            int startupTimeoutMillis,
            String serverVersion,
            String versionText,
            Consumer<String> statementLog,
            UserDirectory users,
            io.numacube.server.tls.ServerTls tls) {

        /**
         * The most connections open at once, sessions and those still starting or authenticating: twice
         * {@link #maxConnections}. One more is told FATAL 53300 and closed at once.
         */
        int maxSockets() {
            return 2 * maxConnections;
        }

        /** The most bytes one COPY ... FROM STDIN may send: they are held in memory until CopyDone. */
        long maxCopyBytes() {
            return 512L << 20;
        }
    }

    private record Registered(PgConnection connection, int secret) {}

    private static final System.Logger LOG = System.getLogger(PgServer.class.getName());

    private final ServerSocket listener;
    private final QueryService service;
    private final Settings settings;
    private final StatementRunner runner;
    private final WriteService writes;
    private final Set<PgConnection> connections = ConcurrentHashMap.newKeySet();
    private final Map<Integer, Registered> sessions = new ConcurrentHashMap<>();
    private final AtomicInteger nextProcessId = new AtomicInteger(1_000);
    private final SecureRandom random = new SecureRandom();
    private final Thread acceptor;
    private final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("numacube-pg-startup-deadlines").factory());

    private PgServer(ServerSocket listener, QueryService service, WriteService writes, Settings settings) {
        this.listener = listener;
        this.service = service;
        this.settings = settings;
        this.writes = writes;
        this.runner = new StatementRunner(
                service, writes, new PgCatalog(service.cube()), settings.versionText(), settings.statementLog());
        this.acceptor = Thread.ofVirtual().name("numacube-pg-accept").unstarted(this::acceptLoop);
    }

    /** Binds {@code address} (port 0: a free port, see {@link #address}) and starts accepting. */
    public static PgServer start(
            QueryService service, WriteService writes, InetSocketAddress address, Settings settings)
            throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(address, 128);
        PgServer server = new PgServer(s, service, writes, settings);
        server.acceptor.start();
        return server;
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) listener.getLocalSocketAddress();
    }

    /** Stops accepting connections; open ones go on. */
    public void stopAccepting() {
        try {
            listener.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "closing the listener: {0}", e.getMessage());
        }
    }

    /** Closes every connection, telling idle ones FATAL 57P01 first. */
    public void closeConnections() {
        deadlines.shutdownNow();
        connections.forEach(PgConnection::terminate);
    }

    /** Closes {@code c} when its startup has not ended by {@link Settings#startupTimeoutMillis}; cancel when it has. */
    Future<?> startupDeadline(PgConnection c) {
        try {
            return deadlines.schedule(c::startupTimedOut, settings.startupTimeoutMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            c.startupTimedOut();
            return java.util.concurrent.CompletableFuture.completedFuture(null);
        }
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket s = listener.accept();
                if (connections.size() >= settings.maxSockets()) {
                    refuse(s);
                    continue;
                }
                s.setTcpNoDelay(true);
                PgConnection c = new PgConnection(s, this);
                connections.add(c);
                Thread.ofVirtual().name("numacube-pg-connection").start(c);
            } catch (IOException e) {
                if (!listener.isClosed()) {
                    LOG.log(System.Logger.Level.WARNING, "accepting a connection failed: {0}", e.getMessage());
                }
            }
        }
    }

    /** Tells a connection over {@link Settings#maxSockets} that there are too many, before reading from it. */
    private static void refuse(Socket s) {
        try (s) {
            PgOutput out = new PgOutput(s.getOutputStream());
            Replies.fatal(out, ClientError.of(ClientError.TOO_BUSY, "sorry, too many clients already"));
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "refusing a connection: {0}", e.getMessage());
        }
    }

    Settings settings() {
        return settings;
    }

    /** The server's random source, for SCRAM nonces; thread-safe. */
    SecureRandom random() {
        return random;
    }

    WriteService writes() {
        return writes;
    }

    StatementRunner runner() {
        return runner;
    }

    /**
     * Opens a session for a connection that finished its startup packet: its process id and secret, and the
     * startup parameters applied as settings ({@code options} may hold {@code -c name=value}).
     *
     * @throws PgProtocolException FATAL 53300 when the server has its most sessions, FATAL for a bad parameter
     */
    Session open(PgConnection connection, Identity identity, String database, Map<String, String> params) {
        SessionSettings s = new SessionSettings(
                identity.user(),
                params.getOrDefault("application_name", ""),
                settings.serverVersion(),
                service.defaultTimeout());
        try {
            for (Map.Entry<String, String> p : params.entrySet()) {
                switch (p.getKey()) {
                    case "user", "database", "replication" -> {}
                    case "options" -> options(p.getValue(), s);
                    default -> s.set(p.getKey(), p.getValue());
                }
            }
        } catch (PgProtocolException e) {
            throw new PgProtocolException(e.sqlState(), e.getMessage(), true);
        }
        s.startupApplied();
        int processId = nextProcessId.incrementAndGet();
        synchronized (sessions) {
            if (sessions.size() >= settings.maxConnections()) {
                throw new PgProtocolException(ClientError.TOO_BUSY, "sorry, too many clients already", true);
            }
            sessions.put(processId, new Registered(connection, random.nextInt()));
        }
        return new Session(identity, database, processId, s);
    }

    private static void options(String options, SessionSettings s) {
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("(?:-c\\s*|--)([\\w.]+)=(\\S+)").matcher(options);
        while (m.find()) {
            s.set(m.group(1), m.group(2));
        }
    }

    int secretOf(int processId) {
        return sessions.get(processId).secret();
    }

    /** A CancelRequest: cancels the named session's running query when the secret matches; else nothing. */
    void cancel(int processId, int secret) {
        Registered r = sessions.get(processId);
        if (r != null && r.secret() == secret) {
            r.connection().cancel();
        }
    }

    void unregister(PgConnection connection) {
        connections.remove(connection);
        synchronized (sessions) {
            sessions.remove(connection.processId());
        }
    }
}
