package io.numacube.server;

import io.numacube.engine.Cube;
import io.numacube.server.http.HttpFrontEnd;
import io.numacube.server.pgwire.PgServer;
import io.numacube.server.query.QueryAdmission;
import io.numacube.server.query.QueryService;
import io.numacube.server.query.ServerMetrics;
import io.numacube.server.write.WriteService;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * {@code numacube serve}: a loaded cube answering SQL over HTTP ({@link HttpFrontEnd}) and the PostgreSQL protocol
 * ({@link PgServer}), both through one {@link QueryService} (so admission control and timeouts cover both), and
 * taking writes through one {@link WriteService} (durable when its log is; {@code serve --data-dir} makes it so). With
 * users ({@link ServerOptions#users}) both front ends authenticate every client against them and refuse a reader's
 * writes; without, nothing is checked and it listens on loopback only.
 *
 * <p>Life cycle: {@link #start} listens on both ports and returns; {@link #shutdown} stops accepting, lets queries
 * in flight finish for a while, and closes every connection. The caller owns the cube and closes it after shutdown.
 * Thread-safe.
 */
public final class NumacubeServer implements AutoCloseable {

    private final QueryService queries;
    private final WriteService writes;
    private final HttpFrontEnd http;
    private final PgServer pg;
    private final boolean tls;
    private volatile boolean stopped;

    private NumacubeServer(QueryService queries, WriteService writes, HttpFrontEnd http, PgServer pg, boolean tls) {
        this.queries = queries;
        this.writes = writes;
        this.http = http;
        this.pg = pg;
        this.tls = tls;
    }

    /**
     * Starts both front ends over {@code cube}.
     *
     * @throws io.numacube.numa.base.NumacubeException PLATFORM when a port is taken or not permitted
     * @throws IOException when the sockets cannot be opened otherwise
     */
    public static NumacubeServer start(Cube cube, ServerOptions options) throws IOException {
        return start(cube, options, WriteService.BatchLog.NONE);
    }

    /**
     * As {@link #start(Cube, ServerOptions)}, with writes made durable by {@code log} before they are applied and
     * acknowledged.
     */
    public static NumacubeServer start(Cube cube, ServerOptions options, WriteService.BatchLog log) throws IOException {
        return start(cube, options, log, new ServerMetrics());
    }

    /**
     * As {@link #start(Cube, ServerOptions, WriteService.BatchLog)}, reporting to {@code metrics} (which the caller
     * may also have given the log's fsync observer, {@link ServerMetrics#walFsync()}).
     */
    public static NumacubeServer start(
            Cube cube, ServerOptions options, WriteService.BatchLog log, ServerMetrics metrics) throws IOException {
        return start(options, new WriteService(cube, log, metrics), metrics);
    }

    /**
     * As {@link #start(Cube, ServerOptions, WriteService.BatchLog, ServerMetrics)}, with writes going through {@code
     * writes} (over its cube, telling {@code metrics} of each write), which the caller also checkpoints.
     */
    public static NumacubeServer start(ServerOptions options, WriteService writes, ServerMetrics metrics)
            throws IOException {
        Cube cube = writes.cube();
        QueryService queries = new QueryService(
                cube,
                new QueryAdmission(options.maxConcurrentQueries(), options.maxQueuedQueries()),
                options.queryTimeout(),
                metrics);
        InetSocketAddress httpAt = new InetSocketAddress(options.address(), options.httpPort());
        HttpFrontEnd http;
        try {
            http = HttpFrontEnd.start(
                    queries,
                    writes,
                    httpAt,
                    new HttpFrontEnd.Settings(
                            options.maxBodyBytes(),
                            options.maxSqlChars(),
                            options.maxHttpRequests(),
                            options.users(),
                            options.tls()));
        } catch (java.net.BindException e) {
            throw cannotListen("HTTP", httpAt, e);
        }
        InetSocketAddress pgAt = new InetSocketAddress(options.address(), options.pgPort());
        try {
            String version = "16.0 (numacube " + options.productVersion() + ")";
            PgServer pg = PgServer.start(
                    queries,
                    writes,
                    pgAt,
                    new PgServer.Settings(
                            options.maxConnections(),
                            options.maxBodyBytes(),
                            10_000,
                            version,
                            "PostgreSQL " + version + " on " + System.getProperty("os.arch") + "-"
                                    + System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT)
                                    + ", an in-memory aggregation engine speaking the PostgreSQL protocol",
                            options.statementLog(),
                            options.users(),
                            options.tls()));
            return new NumacubeServer(queries, writes, http, pg, options.tls() != null);
        } catch (java.net.BindException e) {
            http.stop(0);
            throw cannotListen("PostgreSQL", pgAt, e);
        } catch (IOException | RuntimeException e) {
            http.stop(0);
            throw e;
        }
    }

    private static io.numacube.numa.base.NumacubeException cannotListen(
            String what, InetSocketAddress at, java.net.BindException e) {
        return new io.numacube.numa.base.NumacubeException(
                io.numacube.numa.base.NumacubeException.Kind.PLATFORM,
                "cannot listen for " + what + ": address=" + at.getAddress().getHostAddress() + " port=" + at.getPort()
                        + " error=" + e.getMessage() + " — is another process on the port? choose another port, or 0 "
                        + "for a free one");
    }

    public QueryService queries() {
        return queries;
    }

    public InetSocketAddress httpAddress() {
        return http.address();
    }

    public InetSocketAddress pgAddress() {
        return pg.address();
    }

    /** {@code http://127.0.0.1:8080} */
    public String httpUrl() {
        return (tls ? "https://" : "http://") + hostPort(http.address());
    }

    /** {@code postgresql://127.0.0.1:5433}, with {@code ?sslmode=require} when the server speaks only TLS. */
    public String postgresUrl() {
        return "postgresql://" + hostPort(pg.address()) + (tls ? "?sslmode=require" : "");
    }

    /** The one line {@code numacube serve} prints when it is ready, for data in memory only. */
    public String readyLine() {
        return readyLine("data in memory only");
    }

    /** The ready line saying where the data is: {@code numacube ready http://... postgresql://... (where)}. */
    public String readyLine(String where) {
        return "numacube ready " + httpUrl() + " " + postgresUrl() + " (" + where + ")";
    }

    /** {@code 127.0.0.1:8080}; a wildcard address, which the JDK may report as IPv4's or IPv6's, as {@code 0.0.0.0}. */
    private static String hostPort(InetSocketAddress a) {
        String host =
                a.getAddress().isAnyLocalAddress() ? "0.0.0.0" : a.getAddress().getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    /**
     * Stops accepting connections, queries and writes, waits up to {@code drain} for writes in flight (so that each is
     * logged, applied and answered) and for queries in flight, then closes both front ends and every connection.
     * Idempotent.
     *
     * @return true when every write and query finished within {@code drain} (the cube may then be closed at once)
     */
    public boolean shutdown(Duration drain) {
        if (stopped) {
            return queries.inFlight() == 0;
        }
        stopped = true;
        http.markStopping();
        pg.stopAccepting();
        long start = System.nanoTime();
        boolean drained = writes.stop(drain);
        try {
            drained &= queries.drain(drain.minusNanos(System.nanoTime() - start));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            drained = false;
        }
        http.stop(1);
        pg.closeConnections();
        return drained;
    }

    /** {@link #shutdown} with five seconds for queries in flight. */
    @Override
    public void close() {
        shutdown(Duration.ofSeconds(5));
    }
}
