package io.numacube.cli;

import io.numacube.cli.cube.CubeLoader;
import io.numacube.cli.cube.CubeSettings;
import io.numacube.cli.cube.DataSources;
import io.numacube.cli.cube.RowCount;
import io.numacube.cli.cube.TimeSpan;
import io.numacube.engine.Cube;
import io.numacube.numa.base.NumacubeException;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.auth.AuthFile;
import io.numacube.server.auth.UserDirectory;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code numacube serve}: loads data as {@code query} does, places it, and answers SQL over HTTP and the PostgreSQL
 * protocol until SIGTERM or SIGINT. Prints one line to stdout when ready; everything else goes to stderr.
 */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        description = {
            "Loads tables (--table NAME=FILE, or --generate ROWS), places them, and answers SQL over HTTP (POST "
                    + "/v1/query, JSON) and the PostgreSQL protocol (psql, JDBC) until stopped (SIGTERM or Ctrl-C: "
                    + "queries in flight get 5 s to finish). Prints one line when ready: numacube ready http://HOST:PORT "
                    + "postgresql://HOST:PORT (data in memory only). Without --auth-file it listens on loopback "
                    + "only and checks no one; with it, every client logs in (numacube auth add-user).",
            "Example: numacube serve --generate 10M --http-port 8080 --pg-port 5433"
        })
final class ServeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    DataSources sources;

    @Mixin
    CubeSettings settings;

    @Option(
            names = "--generate",
            paramLabel = "ROWS",
            converter = RowCount.class,
            description = "Generate this many trades (tables trades, fx and books) instead of, or before, loading "
                    + "--table files.")
    Long generate;

    @Option(
            names = "--seed",
            paramLabel = "S",
            defaultValue = "42",
            description = "Generator seed for --generate (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--bind",
            paramLabel = "HOST",
            defaultValue = "127.0.0.1",
            description = "The address to listen on (default: ${DEFAULT-VALUE}); a non-loopback one (0.0.0.0, a LAN "
                    + "address) only with --auth-file.")
    String bind;

    @Option(
            names = "--auth-file",
            paramLabel = "FILE",
            description = "Users, roles and SCRAM-SHA-256 password verifiers (numacube auth add-user): every client "
                    + "must then log in, over PostgreSQL with SCRAM, over HTTP with Basic; readers may not write. The "
                    + "file must not be readable by group or others.")
    java.nio.file.Path authFile;

    @Option(
            names = "--max-http-requests",
            paramLabel = "N",
            defaultValue = "64",
            description = "HTTP requests served at once, health checks aside; more are answered 503 at once (default: "
                    + "${DEFAULT-VALUE}).")
    int maxHttpRequests;

    @Option(
            names = "--http-port",
            paramLabel = "PORT",
            defaultValue = "8080",
            description = "HTTP port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int httpPort;

    @Option(
            names = "--pg-port",
            paramLabel = "PORT",
            defaultValue = "5433",
            description = "PostgreSQL protocol port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int pgPort;

    @Option(
            names = "--max-concurrent-queries",
            paramLabel = "N",
            defaultValue = "0",
            description = "Queries the engine runs at once; 0 = one per CPU (default: ${DEFAULT-VALUE}).")
    int maxConcurrent;

    @Option(
            names = "--max-queued-queries",
            paramLabel = "N",
            defaultValue = "64",
            description = "Queries that may wait for a running one to finish; beyond, requests are refused as too "
                    + "busy (HTTP 503, SQLSTATE 53300) (default: ${DEFAULT-VALUE}).")
    int maxQueued;

    @Option(
            names = "--query-timeout",
            paramLabel = "DURATION",
            defaultValue = "5m",
            converter = TimeSpan.class,
            description = "A query's deadline unless the request sets one (timeout_ms, SET statement_timeout), e.g. "
                    + "30s, 5m; 0 = none (default: ${DEFAULT-VALUE}).")
    Duration queryTimeout;

    @Option(
            names = "--max-connections",
            paramLabel = "N",
            defaultValue = "64",
            description = "PostgreSQL connections at once (default: ${DEFAULT-VALUE}).")
    int maxConnections;

    @Option(names = "--log-statements", description = "Print every statement the PostgreSQL front end runs to stderr.")
    boolean logStatements;

    @Option(
            names = "--key",
            paramLabel = "TABLE=COL[,COL]",
            description =
                    "Give a table a key: a written row whose key equals an existing row's replaces it (upsert; the"
                            + " last row of a batch wins); repeatable, e.g. --key trades=trade_id.")
    java.util.List<String> keys = new java.util.ArrayList<>();

    /** Applies {@code --key TABLE=COL[,COL]}. */
    private void setKeys(Cube cube) {
        for (String k : keys) {
            int eq = k.indexOf('=');
            if (eq <= 0 || eq == k.length() - 1) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "--key takes TABLE=COL[,COL]: key=" + k + " — e.g. --key trades=trade_id");
            }
            cube.setKey(
                    k.substring(0, eq).strip(),
                    java.util.Arrays.stream(k.substring(eq + 1).split(","))
                            .map(String::strip)
                            .toList());
        }
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
            System.setProperty("java.util.logging.SimpleFormatter.format", "numacube: %4$s: %5$s%6$s%n");
        }
        if (sources.tables().isEmpty() && generate == null) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "serve needs data: tables=0 generate=none — give --table NAME=FILE (repeatable) or --generate ROWS");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ServerOptions options = options(err);
        Cube cube = Cube.open(settings.toOptions());
        NumacubeServer server;
        try {
            CubeLoader.generateAndLoad(cube, generate, seed, sources, settings.maxMemory(), err);
            setKeys(cube);
            server = NumacubeServer.start(cube, options);
        } catch (IOException | RuntimeException e) {
            cube.close();
            throw e;
        }
        err.println("-- " + cube.describe());
        err.flush();
        out.println(server.readyLine());
        out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(server, cube, out, err), "numacube-shutdown"));
        new java.util.concurrent.CountDownLatch(1).await();
        return 0;
    }

    private ServerOptions options(PrintWriter err) {
        UserDirectory users = authFile == null ? null : AuthFile.readUsers(authFile);
        ServerOptions o = ServerOptions.defaults(Main.VERSION)
                .withUsers(users)
                .withMaxHttpRequests(maxHttpRequests)
                .withBind(bind)
                .withPorts(httpPort, pgPort)
                .withAdmission(
                        maxConcurrent > 0 ? maxConcurrent : Runtime.getRuntime().availableProcessors(),
                        maxQueued,
                        queryTimeout);
        o = o.withLimits(o.maxBodyBytes(), o.maxSqlChars(), maxConnections);
        err.println(
                users == null
                        ? "-- auth: none (no --auth-file): every local client may read and write"
                        : "-- auth: " + users.size() + " users from " + authFile
                                + " (PostgreSQL: SCRAM-SHA-256, HTTP: Basic; " + "no TLS)");
        return logStatements ? o.withStatementLog(line -> err.println("-- " + line)) : o;
    }

    /**
     * The shutdown hook (SIGTERM, SIGINT): stop accepting, give queries in flight 5 seconds, free the cube when they
     * finished, and exit 0, which is a clean stop for a server (the JVM's own exit status after a signal is 143).
     */
    private static void stop(NumacubeServer server, Cube cube, PrintWriter out, PrintWriter err) {
        int inFlight = server.queries().inFlight();
        err.println("-- stopping: no new connections or queries; " + inFlight + " in flight get up to 5 s");
        err.flush();
        if (server.shutdown(Duration.ofSeconds(5))) {
            cube.close();
            err.println("-- stopped");
        } else {
            err.println("-- stopped with " + server.queries().inFlight() + " queries still running in the engine");
        }
        err.flush();
        out.flush();
        Runtime.getRuntime().halt(0);
    }
}
