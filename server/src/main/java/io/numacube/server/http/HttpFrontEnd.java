package io.numacube.server.http;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.numacube.server.auth.Identity;
import io.numacube.server.auth.LoginThrottle;
import io.numacube.server.auth.PasswordCheck;
import io.numacube.server.auth.UserDirectory;
import io.numacube.server.auth.WebSessions;
import io.numacube.server.query.ClientError;
import io.numacube.server.query.QueryService;
import io.numacube.server.write.WriteService;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

/**
 * The HTTP front end of {@code numacube serve}: the JDK's {@code com.sun.net.httpserver} with one virtual thread per
 * exchange (its {@code HttpsServer}, HTTPS only, when the settings give a certificate), JSON bodies written by Jackson. Routes:
 *
 * <ul>
 *   <li>{@code GET /v1/health}: 200 {@code {"status": "ready"}}, 503 {@code {"status": "shutting down"}} once
 *       stopping ({@code HEAD}: the same status, no body);
 *   <li>{@code POST /v1/query}: {@link QueryEndpoint};
 *   <li>{@code GET /v1/tables}, {@code GET /v1/tables/NAME}, {@code GET /v1/placement}: {@link CatalogEndpoints};
 *   <li>{@code GET /v1/tables/NAME/events}: the table's versions as server-sent events, {@link VersionEvents};
 *   <li>{@code POST /v1/tables/NAME/rows}: {@link RowsEndpoint};
 *   <li>{@code GET /v1/queries}, {@code DELETE /v1/queries/ID}: {@link QueriesEndpoint};
 *   <li>{@code GET /metrics}: {@link io.numacube.server.query.ServerMetrics} in Prometheus' text format;
 *   <li>{@code POST /v1/login}, {@code POST /v1/logout}, {@code GET /v1/session}: the login form's, {@link
 *       LoginEndpoints};
 *   <li>{@code GET /} and the page's files ({@code /app.js}, {@code /placement.html}, {@code /login.html},
 *       {@code /vendor/...}): the pivot page, the placement view and the login form, {@link WebPage}.
 * </ul>
 *
 * Any other path is 404, another method 405 (with {@code Allow}); every error is an {@link HttpError} body, an
 * unexpected exception a 500 with SQLSTATE XX000 whose stack trace goes to the log only.
 *
 * <p>With users ({@link Settings#users}), every request but {@code GET /v1/health} and the login form's must carry a
 * user's password ({@link BasicAuthentication}, 401 otherwise) or a login's session cookie, with its CSRF token when
 * it may change state ({@link RequestAuthentication}), and a reader's writes are 403 with SQLSTATE 42501. Without users
 * no credentials are checked (the server then listens on loopback only). Either way a browser's write from another
 * site's page, and without users a request for a host name other than localhost, are 403 ({@link BrowserGuard}). At most {@link Settings#maxRequests} requests are
 * served at once, health checks aside; one more is answered 503 (53300) at once, before its credentials are checked
 * or its body read. Open connections, idle ones included, are capped at 1024 through the JDK's
 * {@code jdk.httpserver.maxConnections} unless that is set: beyond, new ones wait in the listen backlog. A request
 * must arrive whole (line, headers, body) within {@link #MAX_REQUEST_SECONDS} through the JDK's
 * {@code sun.net.httpserver.maxReqTime} unless that is set, or its connection closes: slow clients cannot hold the
 * request slots.
 *
 * <p>Thread-safe. {@link #stop} stops accepting and waits for exchanges in progress.
 */
public final class HttpFrontEnd {

    /** The JDK server's limit, in seconds, on the time a request's line, headers and body take to arrive. */
    static final String MAX_REQUEST_SECONDS_PROPERTY = "sun.net.httpserver.maxReqTime";

    /** {@link #MAX_REQUEST_SECONDS_PROPERTY} unless set: 16 MiB, the largest body by default, at 280 KB/s. */
    static final long MAX_REQUEST_SECONDS = 60;

    static {
        // The JDK's server leaves Nagle's algorithm on unless told: a response's last small write then waits for the
        // client's delayed ACK. Read once, when the first HttpServer is made; a value set by the user wins.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
        if (System.getProperty("jdk.httpserver.maxConnections") == null) {
            System.setProperty("jdk.httpserver.maxConnections", "1024");
        }
        // A request's line, headers and body must arrive within this many seconds, or its connection closes: without
        // it, clients that send a body's first bytes and then nothing hold every one of the maxRequests slots for ever.
        if (System.getProperty(MAX_REQUEST_SECONDS_PROPERTY) == null) {
            System.setProperty(MAX_REQUEST_SECONDS_PROPERTY, String.valueOf(MAX_REQUEST_SECONDS));
        }
    }

    /**
     * How the front end behaves. Immutable.
     *
     * @param maxBodyBytes the longest request body read; longer is 413
     * @param maxSqlChars  the longest SQL statement accepted
     * @param maxRequests  requests served at once, health checks aside; more are 503
     * @param users        who may make requests, or null for anyone (no authentication)
     * @param tls          the certificate to serve HTTPS with (then only HTTPS), or null for plain HTTP
     */
    public record Settings(
            int maxBodyBytes,
            int maxSqlChars,
            int maxRequests,
            UserDirectory users,
            io.numacube.server.tls.ServerTls tls) {}

    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private final HttpServer server;
    private final QueryService service;
    private final ExecutorService threads;
    private final QueryEndpoint query;
    private final CatalogEndpoints catalog;
    private final RowsEndpoint rows;
    private final QueriesEndpoint queries;
    private final WebPage page = new WebPage();
    private final VersionEvents events;
    private final RequestAuthentication authentication;
    private final LoginEndpoints login;
    private final Semaphore serving;
    private final int maxRequests;
    private volatile boolean stopping;

    private HttpFrontEnd(HttpServer server, QueryService service, WriteService writes, Settings settings) {
        this.server = server;
        this.service = service;
        this.threads = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("numacube-http-", 0).factory());
        this.query = new QueryEndpoint(service, writes, settings.maxBodyBytes(), settings.maxSqlChars());
        this.catalog = new CatalogEndpoints(service.cube(), service.metrics());
        this.events = new VersionEvents(service.cube());
        this.rows = new RowsEndpoint(writes, settings.maxBodyBytes());
        this.queries = new QueriesEndpoint(service);
        if (settings.users() == null) {
            this.authentication = null;
            this.login = null;
        } else {
            PasswordCheck passwords = new PasswordCheck(settings.users());
            WebSessions sessions = new WebSessions();
            this.authentication =
                    new RequestAuthentication(new BasicAuthentication(passwords), sessions, settings.users());
            this.login = new LoginEndpoints(passwords, sessions, new LoginThrottle());
        }
        this.serving = new Semaphore(settings.maxRequests());
        this.maxRequests = settings.maxRequests();
        server.setExecutor(threads);
        server.createContext("/", this::exchange);
    }

    /** Binds {@code address} (port 0: a free port, see {@link #address}) and starts serving. */
    public static HttpFrontEnd start(
            QueryService service, WriteService writes, InetSocketAddress address, Settings settings)
            throws IOException {
        HttpFrontEnd f = new HttpFrontEnd(listener(address, settings.tls()), service, writes, settings);
        f.server.start();
        return f;
    }

    private static HttpServer listener(InetSocketAddress address, io.numacube.server.tls.ServerTls tls)
            throws IOException {
        if (tls == null) {
            return HttpServer.create(address, 128);
        }
        com.sun.net.httpserver.HttpsServer https = com.sun.net.httpserver.HttpsServer.create(address, 128);
        https.setHttpsConfigurator(new com.sun.net.httpserver.HttpsConfigurator(tls.context()) {
            @Override
            public void configure(com.sun.net.httpserver.HttpsParameters params) {
                params.setSSLParameters(tls.parameters());
            }
        });
        return https;
    }

    /** The address it listens on, with the real port. */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** Health answers 503 from now on; requests keep being served until {@link #stop}. */
    public void markStopping() {
        stopping = true;
    }

    /** Stops accepting, waits up to {@code waitSeconds} for exchanges in progress, then closes. */
    public void stop(int waitSeconds) {
        stopping = true;
        server.stop(waitSeconds);
        threads.shutdownNow();
    }

    private void exchange(HttpExchange ex) {
        String path = ex.getRequestURI().getPath();
        if (path.equals("/v1/health")) {
            if (ex.getRequestMethod().equals("HEAD")) {
                headHealth(ex);
            } else {
                serve(ex, path, true);
            }
            return;
        }
        String events = eventsTable(path);
        if (events != null) {
            streamEvents(ex, events);
            return;
        }
        if (!serving.tryAcquire()) {
            HttpError busy = new HttpError(
                    503,
                    ClientError.TOO_BUSY,
                    "too many HTTP requests at once: max-http-requests=" + maxRequests + " — retry later");
            send(ex, new Reply(503, busy::write));
            return;
        }
        try {
            serve(ex, path, false);
        } finally {
            serving.release();
        }
    }

    /** {@code HEAD /v1/health}, as load balancers check: the status of a GET, without its body. */
    private void headHealth(HttpExchange ex) {
        try (ex) {
            ex.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
            ex.sendResponseHeaders(stopping ? 503 : 200, -1);
        } catch (IOException e) {
            // the checker went away
        }
    }

    /** Authenticates the request (but a health check), then answers it. */
    private void serve(HttpExchange ex, String path, boolean health) {
        Reply reply;
        try {
            if (!health) {
                BrowserGuard.check(ex, authentication != null);
            }
            boolean open = health || authentication == null || RequestAuthentication.isPublic(path);
            Identity who = open ? Identity.unauthenticated("") : authentication.authenticate(ex, path);
            if (path.equals("/metrics") && ex.getRequestMethod().equals("GET")) {
                sendText(ex, service.metrics().prometheus(service.cube(), service.admission()));
                return;
            }
            String method = ex.getRequestMethod();
            if (!path.startsWith("/v1/") && (method.equals("GET") || method.equals("HEAD")) && page.serve(ex, path)) {
                return;
            }
            reply = route(ex, path, method, who);
        } catch (HttpError e) {
            reply = new Reply(e.status(), e::write);
        } catch (Throwable t) {
            HttpError e = new HttpError(500, ClientError.of(t), 0);
            reply = new Reply(500, e::write);
        }
        send(ex, reply);
    }

    /** {@code GET /v1/tables/NAME/events}: authenticated as any request, but outside {@link #serving}'s count. */
    private void streamEvents(HttpExchange ex, String table) {
        try {
            BrowserGuard.check(ex, authentication != null);
            if (authentication != null) {
                authentication.authenticate(ex, ex.getRequestURI().getPath());
            }
            allow(ex, ex.getRequestMethod(), "GET");
            events.stream(ex, table, () -> stopping);
        } catch (HttpError e) {
            send(ex, new Reply(e.status(), e::write));
        } catch (Throwable t) {
            HttpError e = new HttpError(500, ClientError.of(t), 0);
            send(ex, new Reply(500, e::write));
        }
    }

    /** NAME of {@code /v1/tables/NAME/events}, or null for any other path (a table named events included). */
    static String eventsTable(String path) {
        String prefix = "/v1/tables/";
        String suffix = "/events";
        if (!path.startsWith(prefix) || !path.endsWith(suffix) || path.length() <= prefix.length() + suffix.length()) {
            return null;
        }
        String table = path.substring(prefix.length(), path.length() - suffix.length());
        return table.indexOf('/') < 0 ? table : null;
    }

    private Reply route(HttpExchange ex, String path, String method, Identity who) throws IOException {
        Reply session = sessionRoute(ex, path, method, who);
        if (session != null) {
            return session;
        }
        if (path.equals("/v1/query")) {
            allow(ex, method, "POST");
            return query.handle(ex, who);
        }
        if (path.equals("/v1/health")) {
            allow(ex, method, "GET");
            String status = stopping ? "shutting down" : "ready";
            return new Reply(stopping ? 503 : 200, g -> {
                g.writeStartObject();
                g.writeStringField("status", status);
                g.writeEndObject();
            });
        }
        if (path.equals("/v1/tables") || path.equals("/v1/tables/")) {
            allow(ex, method, "GET");
            return catalog.tables();
        }
        if (path.startsWith("/v1/tables/") && path.endsWith("/rows")) {
            String table = path.substring("/v1/tables/".length(), path.length() - "/rows".length());
            if (!table.isEmpty() && table.indexOf('/') < 0) {
                allow(ex, method, "POST");
                return rows.handle(ex, table, who);
            }
        }
        if (path.startsWith("/v1/tables/") && path.indexOf('/', "/v1/tables/".length()) < 0) {
            allow(ex, method, "GET");
            return catalog.table(path.substring("/v1/tables/".length()));
        }
        if (path.equals("/v1/queries") || path.equals("/v1/queries/")) {
            allow(ex, method, "GET");
            return queries.list();
        }
        if (path.startsWith("/v1/queries/")) {
            allow(ex, method, "DELETE");
            return queries.cancel(path.substring("/v1/queries/".length()));
        }
        if (path.equals("/v1/placement")) {
            allow(ex, method, "GET");
            return catalog.placement();
        }
        throw new HttpError(
                404,
                "42704",
                "no such endpoint: path=" + path
                        + " — endpoints: GET /v1/health, POST /v1/query, GET /v1/tables[/NAME], POST /v1/tables/NAME/rows,"
                        + " GET /v1/tables/NAME/events, GET /v1/queries, DELETE /v1/queries/ID, GET /v1/placement,"
                        + " GET /metrics, POST /v1/login, POST /v1/logout, GET /v1/session, GET / (the pivot page)");
    }

    /** The login form's endpoints ({@link LoginEndpoints}); null for any other path. */
    private Reply sessionRoute(HttpExchange ex, String path, String method, Identity who) throws IOException {
        switch (path) {
            case "/v1/login" -> {
                allow(ex, method, "POST");
                if (login == null) {
                    throw new HttpError(
                            404,
                            "42704",
                            "no login here: this server has no users (serve --auth-file FILE), so nothing is checked");
                }
                return login.login(ex);
            }
            case "/v1/logout" -> {
                allow(ex, method, "POST");
                boolean withSession = login != null && ex.getRequestHeaders().getFirst("Authorization") == null;
                return withSession ? login.logout(ex) : LoginEndpoints.noSessionToEnd();
            }
            case "/v1/session" -> {
                allow(ex, method, "GET");
                boolean basic = ex.getRequestHeaders().getFirst("Authorization") != null;
                WebSessions.Session s = authentication == null || basic ? null : authentication.session(ex);
                return LoginEndpoints.session(who, s, authentication != null);
            }
            default -> {
                return null;
            }
        }
    }

    private static void allow(HttpExchange ex, String method, String allowed) {
        if (!method.equals(allowed)) {
            ex.getResponseHeaders().set("Allow", allowed);
            throw new HttpError(
                    405,
                    ClientError.NOT_SUPPORTED,
                    "method not allowed: method=" + method + " path="
                            + ex.getRequestURI().getPath() + " — use " + allowed);
        }
    }

    private static void sendText(HttpExchange ex, String text) {
        try (ex) {
            byte[] body = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
        } catch (IOException e) {
            // the scraper went away
        }
    }

    private static void send(HttpExchange ex, Reply reply) {
        if (reply.raw() != null) {
            sendBytes(ex, reply);
            return;
        }
        try (ex) {
            ex.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
            try (OutputStream out = new ResponseBody(ex, reply.status(), 1 << 20);
                    JsonGenerator g = JSON.createGenerator(out, JsonEncoding.UTF8)) {
                reply.body().write(g);
                g.writeRaw('\n');
            }
        } catch (IOException e) {
            // the client went away while its answer was written: nothing is left to tell it
        }
    }

    private static void sendBytes(HttpExchange ex, Reply reply) {
        try (ex) {
            ex.getResponseHeaders().set("Content-Type", reply.contentType());
            try (OutputStream out = new ResponseBody(ex, reply.status(), 1 << 20)) {
                reply.raw().write(out);
            }
        } catch (IOException e) {
            // the client went away while its answer was written
        }
    }
}
