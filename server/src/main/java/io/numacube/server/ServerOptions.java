package io.numacube.server;

import io.numacube.numa.base.NumacubeException;
import io.numacube.server.auth.UserDirectory;
import io.numacube.server.tls.ServerTls;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * How {@code numacube serve} listens and what it allows. Immutable; checked on construction: the address must be a
 * loopback address unless there are users (an auth file), since without them anyone who reaches the ports may read
 * and write everything; and every limit positive. Give the users ({@link #withUsers}) before a non-loopback address.
 *
 * @param bind                 the host or address both front ends listen on (loopback only without users)
 * @param httpPort             the HTTP port; 0 for a free one
 * @param pgPort               the PostgreSQL protocol port; 0 for a free one
 * @param maxConcurrentQueries queries the engine runs at once
 * @param maxQueuedQueries     queries that may wait for one of those; more are refused with 53300
 * @param queryTimeout         a query's deadline unless the request names another; {@link Duration#ZERO} for none
 * @param maxBodyBytes         the longest HTTP body and PostgreSQL message read
 * @param maxSqlChars          the longest SQL statement accepted over HTTP
 * @param maxConnections       PostgreSQL sessions at once
 * @param productVersion       numacube's version, for {@code server_version} and {@code version()}
 * @param statementLog         told of every statement the PostgreSQL front end runs; null for none
 * @param users                who may connect, and with which role; null for no authentication (loopback only)
 * @param maxHttpRequests      HTTP requests served at once; more are answered 503 at once
 * @param tls                  the certificate and key both front ends speak TLS with (HTTPS; PostgreSQL's SSLRequest
 *                             answered {@code S}, a connection without it refused), or null for none
 */
public record ServerOptions(
        String bind,
        int httpPort,
        int pgPort,
        int maxConcurrentQueries,
        int maxQueuedQueries,
        Duration queryTimeout,
        int maxBodyBytes,
        int maxSqlChars,
        int maxConnections,
        String productVersion,
        Consumer<String> statementLog,
        UserDirectory users,
        int maxHttpRequests,
        ServerTls tls) {

    /** The default HTTP port. */
    public static final int DEFAULT_HTTP_PORT = 8080;
    /** The default PostgreSQL port: 5433, beside a PostgreSQL server's 5432. */
    public static final int DEFAULT_PG_PORT = 5433;

    public ServerOptions {
        checkExposure(bind, users);
        port("http", httpPort);
        port("pg", pgPort);
        positive("max-concurrent-queries", maxConcurrentQueries);
        positive("max-body-bytes", maxBodyBytes);
        positive("max-sql-chars", maxSqlChars);
        positive("max-connections", maxConnections);
        positive("max-http-requests", maxHttpRequests);
        if (maxQueuedQueries < 0) {
            throw invalid("max-queued-queries must not be negative: max-queued-queries=" + maxQueuedQueries);
        }
        if (queryTimeout == null || queryTimeout.isNegative()) {
            throw invalid("the query timeout is a duration, 0 for none: query-timeout=" + queryTimeout);
        }
    }

    /**
     * Loopback on the default ports; one running query per CPU and 64 waiting; 5-minute queries; 16 MiB bodies and
     * messages; 1 Mi-character statements; 64 connections and 64 HTTP requests at once; no authentication.
     */
    public static ServerOptions defaults(String productVersion) {
        return new ServerOptions(
                "127.0.0.1",
                DEFAULT_HTTP_PORT,
                DEFAULT_PG_PORT,
                Runtime.getRuntime().availableProcessors(),
                64,
                Duration.ofMinutes(5),
                16 << 20,
                1 << 20,
                64,
                productVersion,
                null,
                null,
                64,
                null);
    }

    public ServerOptions withPorts(int http, int pg) {
        return edit(e -> {
            e.httpPort = http;
            e.pgPort = pg;
        });
    }

    public ServerOptions withBind(String host) {
        return edit(e -> e.bind = host);
    }

    public ServerOptions withAdmission(int concurrent, int queued, Duration timeout) {
        return edit(e -> {
            e.maxConcurrentQueries = concurrent;
            e.maxQueuedQueries = queued;
            e.queryTimeout = timeout;
        });
    }

    public ServerOptions withLimits(int bodyBytes, int sqlChars, int connections) {
        return edit(e -> {
            e.maxBodyBytes = bodyBytes;
            e.maxSqlChars = sqlChars;
            e.maxConnections = connections;
        });
    }

    public ServerOptions withStatementLog(Consumer<String> log) {
        return edit(e -> e.statementLog = log);
    }

    /** With {@code users} to authenticate every client (null: none, loopback only). */
    public ServerOptions withUsers(UserDirectory users) {
        return edit(e -> e.users = users);
    }

    public ServerOptions withMaxHttpRequests(int requests) {
        return edit(e -> e.maxHttpRequests = requests);
    }

    /** With TLS on both front ends ({@code null}: none). */
    public ServerOptions withTls(ServerTls tls) {
        return edit(e -> e.tls = tls);
    }

    /** These options with some changed by {@code change}, checked again as a whole. */
    private ServerOptions edit(java.util.function.Consumer<Editor> change) {
        Editor e = new Editor(this);
        change.accept(e);
        return e.build();
    }

    /** The components of a {@link ServerOptions} being changed (one wither's scratch copy). */
    private static final class Editor {
        String bind;
        int httpPort;
        int pgPort;
        int maxConcurrentQueries;
        int maxQueuedQueries;
        Duration queryTimeout;
        int maxBodyBytes;
        int maxSqlChars;
        int maxConnections;
        String productVersion;
        Consumer<String> statementLog;
        UserDirectory users;
        int maxHttpRequests;
        ServerTls tls;

        Editor(ServerOptions o) {
            bind = o.bind;
            httpPort = o.httpPort;
            pgPort = o.pgPort;
            maxConcurrentQueries = o.maxConcurrentQueries;
            maxQueuedQueries = o.maxQueuedQueries;
            queryTimeout = o.queryTimeout;
            maxBodyBytes = o.maxBodyBytes;
            maxSqlChars = o.maxSqlChars;
            maxConnections = o.maxConnections;
            productVersion = o.productVersion;
            statementLog = o.statementLog;
            users = o.users;
            maxHttpRequests = o.maxHttpRequests;
            tls = o.tls;
        }

        ServerOptions build() {
            return new ServerOptions(
                    bind,
                    httpPort,
                    pgPort,
                    maxConcurrentQueries,
                    maxQueuedQueries,
                    queryTimeout,
                    maxBodyBytes,
                    maxSqlChars,
                    maxConnections,
                    productVersion,
                    statementLog,
                    users,
                    maxHttpRequests,
                    tls);
        }
    }

    /** The address to bind. */
    InetAddress address() {
        try {
            return InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw invalid("cannot resolve the address to bind: bind=" + bind);
        }
    }

    private static void checkExposure(String bind, UserDirectory users) {
        InetAddress a;
        try {
            a = InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw invalid("cannot resolve the address to bind: bind=" + bind + " — use 127.0.0.1");
        }
        if (!a.isLoopbackAddress() && users == null) {
            throw invalid("numacube serve listens on a non-loopback address only with --auth-file: bind=" + bind
                    + " address=" + a.getHostAddress() + " — without users and passwords anyone who reaches the "
                    + "ports could read and write every table; create users with numacube auth add-user --file FILE "
                    + "--user NAME --role reader|writer and start with --auth-file FILE, or use --bind 127.0.0.1 "
                    + "(or ::1)");
        }
    }

    private static void port(String name, int port) {
        if (port < 0 || port > 65_535) {
            throw invalid("a port is 0 (any free one) to 65535: " + name + "-port=" + port);
        }
    }

    private static void positive(String name, int value) {
        if (value < 1) {
            throw invalid(name + " must be at least 1: " + name + "=" + value);
        }
    }

    private static NumacubeException invalid(String message) {
        return new NumacubeException(NumacubeException.Kind.INVALID_INPUT, message);
    }
}
