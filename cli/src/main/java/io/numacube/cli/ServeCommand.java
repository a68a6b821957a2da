package io.numacube.cli;

import io.numacube.cli.cube.CubeLoader;
import io.numacube.cli.cube.CubeSettings;
import io.numacube.cli.cube.DataSources;
import io.numacube.cli.cube.RowCount;
import io.numacube.cli.cube.TimeSpan;
import io.numacube.engine.Cube;
import io.numacube.engine.Warmup;
import io.numacube.numa.base.NumacubeException;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.auth.AuthFile;
import io.numacube.server.auth.UserDirectory;
import io.numacube.server.durable.CheckpointPolicy;
import io.numacube.server.durable.CheckpointSchedule;
import io.numacube.server.durable.DurableStore;
import io.numacube.server.query.ServerMetrics;
import io.numacube.server.tls.ServerTls;
import io.numacube.server.wal.WalOptions;
import io.numacube.server.write.WriteService;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code numacube serve}: loads data as {@code query} does (or, with {@code --data-dir} holding data, recovers it),
 * places it, and answers SQL and takes writes over HTTP and the PostgreSQL protocol until SIGTERM or SIGINT. With
 * {@code --data-dir}, what it loads is checkpointed before the ready line, every write is in the WAL before it is
 * acknowledged, and the stop ends with a checkpoint. Prints one line to stdout when ready; everything else goes to
 * stderr.
 */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        description = {
            "Loads tables (--table NAME=FILE, or --generate ROWS), places them, and answers SQL over HTTP (POST "
                    + "/v1/query, JSON) and the PostgreSQL protocol (psql, JDBC) until stopped (SIGTERM or Ctrl-C: "
                    + "writes and queries in flight get 5 s to finish). Takes writes: POST /v1/tables/NAME/rows (CSV "
                    + "or JSON lines), INSERT, COPY FROM STDIN, transaction blocks. Prints one line when ready: numacube"
                    + " ready http://HOST:PORT postgresql://HOST:PORT (data in memory only), or (durable in DIR) with "
                    + "--data-dir. Without --auth-file it listens on loopback only and checks no one; with it, every "
                    + "client logs in (numacube auth add-user).",
            "With --data-dir DIR every acknowledged write survives kill -9 and power loss (a write-ahead log fsynced"
                    + " before the answer; checkpoints at start, periodically and at SIGTERM); restarting with the same"
                    + " --data-dir and no --table or --generate recovers every table.",
            "Examples: numacube serve --generate 10M --http-port 8080 --pg-port 5433",
            "          numacube serve --table t=t.csv --data-dir data    (first start)",
            "          numacube serve --data-dir data                    (later starts)"
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
                    + "must then log in, over PostgreSQL with SCRAM, over HTTP with Basic or, in a browser, the login "
                    + "form; readers may not write. The "
                    + "file must not be readable by group or others.")
    java.nio.file.Path authFile;

    @Option(
            names = "--tls-cert",
            paramLabel = "FILE",
            description = "The server's certificate chain, PEM, its own certificate first (as PostgreSQL's "
                    + "ssl_cert_file); with --tls-key, both front ends speak TLS only: HTTPS, and PostgreSQL clients "
                    + "must ask for it (sslmode=require or verify-full; psql and pgjdbc try it first by default).")
    java.nio.file.Path tlsCert;

    @Option(
            names = "--tls-key",
            paramLabel = "FILE",
            description = "The private key of --tls-cert: unencrypted PKCS#8 PEM (-----BEGIN PRIVATE KEY-----; RSA, "
                    + "EC or Ed25519), readable by its owner only (chmod 600).")
    java.nio.file.Path tlsKey;

    @Option(
            names = "--tls-client-ca",
            paramLabel = "FILE",
            description = "With --tls-cert and --auth-file: CA certificates (PEM, as PostgreSQL's ssl_ca_file)"
                    + " that client certificates are verified against. A client that presents one logs in"
                    + " without a password as the user its CN names (PostgreSQL's cert method; over PostgreSQL that"
                    + " must be the startup user); a client without one logs in with its password.")
    java.nio.file.Path tlsClientCa;

    @Option(
            names = "--tls-reload-interval",
            paramLabel = "DURATION",
            defaultValue = "10s",
            converter = TimeSpan.class,
            description = "With --tls-cert: check the certificate and key files this often and, when either changed"
                    + " (a renewed certificate), serve the new pair from the next connection on, one line on stderr;"
                    + " a pair that fails the checks is refused and the old one kept; 0 = never (default:"
                    + " ${DEFAULT-VALUE}).")
    Duration tlsReloadInterval;

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
            names = "--data-dir",
            paramLabel = "DIR",
            description = "Keep the data durable in DIR (created if missing; one server at a time): a write-ahead log "
                    + "of every write, fsynced before it is acknowledged, and checkpoints of every table. An empty DIR "
                    + "needs --table or --generate; a DIR holding data is recovered, and --table or --generate is then "
                    + "refused.")
    Path dataDir;

    @Option(
            names = "--checkpoint-interval",
            paramLabel = "DURATION",
            defaultValue = "10m",
            converter = TimeSpan.class,
            description = "With --data-dir: the longest time between checkpoints while writes come in; 0 = no limit "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration checkpointInterval;

    @Option(
            names = "--checkpoint-wal-size",
            paramLabel = "SIZE",
            defaultValue = "256M",
            converter = io.numacube.cli.cube.ByteSize.class,
            description = "With --data-dir: checkpoint once this much WAL was written since the last checkpoint, so "
                    + "that a restart replays at most about this much (default: ${DEFAULT-VALUE}).")
    long checkpointWalBytes;

    @Option(
            names = "--key",
            paramLabel = "TABLE=COL[,COL]",
            description =
                    "Give a table a key: a written row whose key equals an existing row's replaces it (upsert; the"
                            + " last row of a batch wins); repeatable, e.g. --key trades=trade_id. With --data-dir the"
                            + " key is kept with the data: a restart without --key keeps it.")
    java.util.List<String> keys = new java.util.ArrayList<>();

    @Option(
            names = "--warm-up",
            paramLabel = "DURATION",
            defaultValue = io.numacube.engine.Warmup.DEFAULT_BUDGET_SECONDS + "s",
            converter = TimeSpan.class,
            description = "Before the ready line, warm the engine for at most this long: generic query shapes over "
                    + "small generated tables of its own (never the served data), so that the first queries do not "
                    + "pay for class loading and the JIT; 0 = none (default: ${DEFAULT-VALUE}).")
    Duration warmUp;

    @Option(
            names = "--prepare-join",
            paramLabel = "FACT.COL[+COL]=DIM.COL[+COL]",
            description = "Before the ready line, build what the first query taking this join would (the fact key's "
                    + "codes, the join's index), so that it answers as fast as later ones; repeatable, e.g. "
                    + "--prepare-join lineitem.l_orderkey=orders.o_orderkey. Built again, by the first query that "
                    + "takes it, after a write changes either table.")
    java.util.List<String> prepareJoins = new java.util.ArrayList<>();

    @Option(
            names = "--follow-machine",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "Follow the machine while serving (default: on): every second re-read this process's bindings"
                    + " (allowed CPUs, the cgroup cpuset, memory nodes) and, when they change, re-pin the workers and"
                    + " move the partitions off nodes no longer allowed, one line on stderr per change;"
                    + " --no-follow-machine keeps the placement made at start.")
    boolean followMachine;

    @Option(
            names = "--migrate-rate",
            paramLabel = "SIZE",
            defaultValue = "256MiB",
            converter = MigrateRate.class,
            description = "At most this many bytes of partitions copied per second when they move to another node"
                    + " (e.g. 64MiB, 1GiB; 0 = no limit; default: ${DEFAULT-VALUE}), so queries keep their bandwidth.")
    long migrateRate;

    @Option(
            names = "--migrate-in-place",
            description = "While following the machine, move a partition's pages where they are (mbind with"
                    + " MPOL_MF_MOVE: no second copy in memory) where the kernel allows it, instead of copying it to"
                    + " its new node; off by default: slower than the copy under QEMU's emulation, not yet measured on"
                    + " real hardware.")
    boolean migrateInPlace;

    @Option(
            names = "--memory-short-below",
            paramLabel = "SIZE",
            defaultValue = "256MiB",
            converter = io.numacube.cli.cube.ByteSize.class,
            description = "While following the machine: a data node with less memory available than this (or a 16th"
                    + " of its memory, when less) is short, and new data for it goes to the nearest node with room,"
                    + " with a warning (default: ${DEFAULT-VALUE}).")
    long memoryShortBelow;

    @Option(
            names = "--memory-room-again",
            paramLabel = "SIZE",
            defaultValue = "1GiB",
            converter = io.numacube.cli.cube.ByteSize.class,
            description = "A short node has room again, and its data moves back onto it, once this much is available"
                    + " (or a quarter of its memory, when less); more than --memory-short-below, so that a node"
                    + " hovering about one mark does not flip (default: ${DEFAULT-VALUE}).")
    long memoryRoomAgain;

    @Option(
            names = "--shard",
            paramLabel = "I/N",
            description = "Hold one shard of N (0 <= I < N): of each table with the shard key column keep only the"
                    + " rows whose key hashes to I (FNV-1a 32 of the key's text, modulo N), and refuse appended rows"
                    + " of other shards; tables without the column are held whole. Run N servers, one per I, on the"
                    + " same data (e.g. --shard 0/2 and --shard 1/2); the Spark connector reads and writes them as one"
                    + " table. With --data-dir the directory records its shard at the first start; later starts"
                    + " recover it (--shard may be left out) and refuse another.")
    String shard;

    @Option(
            names = "--shard-key",
            paramLabel = "COLUMN[,COLUMN]",
            description = "With --shard: the key column (VARCHAR, INTEGER or BIGINT; default: the --partition-by"
                    + " column), e.g. --shard-key desk; several, comma-separated, for tables that name the key"
                    + " differently: each table's key is the first it has, e.g. --shard-key l_orderkey,o_orderkey.")
    String shardKey;

    /**
     * {@code --shard} and {@code --shard-key} read together, or null without {@code --shard} (with {@code --data-dir},
     * {@link DataDirShard} checks it against the directory's).
     */
    private io.numacube.engine.Shard shardSpec() {
        if (shard == null) {
            if (shardKey != null) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "--shard-key needs --shard I/N: shard-key=" + shardKey + " — e.g. --shard 0/2 --shard-key "
                                + shardKey);
            }
            return null;
        }
        String key = shardKey != null
                ? shardKey
                : settings.toOptions().partitioning().dimension();
        if (key == null) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "--shard needs a key column: shard=" + shard + " — add --shard-key COLUMN (or --partition-by)");
        }
        return io.numacube.engine.Shard.parse(shard, key);
    }

    /** Keeps this shard's rows of the freshly loaded tables, one line on {@code err}; nothing without --shard. */
    private static void keepShard(io.numacube.engine.Shard keep, Cube cube, PrintWriter err) {
        if (keep == null) {
            return;
        }
        java.util.Map<String, Long> deleted = cube.keepShard(keep);
        err.println("-- shard " + keep + " by " + keep.column() + ": rows of other shards dropped " + deleted
                + "; held whole: "
                + cube.tables().stream().filter(t -> !deleted.containsKey(t)).toList());
    }

    /** {@code --migrate-rate}: a size ({@link io.numacube.cli.cube.ByteSize}) or 0 for no limit. */
    static final class MigrateRate implements picocli.CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return value.strip().equals("0") ? 0L : new io.numacube.cli.cube.ByteSize().convert(value);
        }
    }

    /** {@code --migrate-rate} and the memory marks, checked (a bad pair is an error before anything loads). */
    private io.numacube.engine.FollowOptions followOptions() {
        if (memoryRoomAgain <= memoryShortBelow) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "--memory-room-again must be more than --memory-short-below: memory-room-again="
                            + memoryRoomAgain + " bytes memory-short-below=" + memoryShortBelow
                            + " bytes — e.g. --memory-short-below 256MiB --memory-room-again 1GiB");
        }
        return new io.numacube.engine.FollowOptions(
                Duration.ofSeconds(1), migrateRate, memoryShortBelow, memoryRoomAgain, migrateInPlace);
    }

    /** Starts following the machine (unless --no-follow-machine), each change a line on {@code err}. */
    private void follow(Cube cube, PrintWriter err, ServerMetrics metrics) {
        if (!followMachine) {
            return;
        }
        long rate = migrateRate;
        if (cube.options().simulatedNodes() > 0) {
            err.println("-- following the machine: off (simulated nodes)");
            return;
        }
        cube.followMachine(followOptions(), c -> {
            metrics.placementChange(c);
            err.println("-- " + c.logLine());
            err.flush();
        });
        err.println("-- following the machine: bindings re-read every 1 s, moves at most "
                + (rate == 0 ? "unlimited" : rate + " bytes/s") + ", a node short below " + memoryShortBelow
                + " bytes available, room again at " + memoryRoomAgain + " (--no-follow-machine turns it off)");
    }

    /** Runs the engine's warm-up within {@code --warm-up}, saying what it did on {@code err}. */
    private void warmUp(PrintWriter err) {
        if (warmUp.isZero()) {
            return;
        }
        err.println("-- warming up (at most " + warmUp.toMillis() / 1000.0 + " s; --warm-up 0 skips it)");
        err.flush();
        Warmup.Report r = Warmup.run(settings.toOptions(), warmUp);
        err.printf(
                java.util.Locale.ROOT,
                "-- warmed up: %d queries of %d shapes in %.1f s%s%n",
                r.queries(),
                Warmup.shapes(),
                r.elapsed().toNanos() / 1e9,
                r.failures().isEmpty() ? "" : "; shapes that failed (reported, skipped): " + r.failures());
    }

    /**
     * Builds each {@code --prepare-join} ahead, then each chain of them ({@code Cube.prepareJoinChains}), a line each
     * on {@code err}.
     */
    private void prepareJoins(Cube cube, PrintWriter err) {
        java.util.List<io.numacube.engine.JoinSpec> declared = new java.util.ArrayList<>();
        for (String text : prepareJoins) {
            Cube.JoinPrepared p = cube.prepareJoin(io.numacube.engine.JoinSpec.parse(text));
            declared.add(p.join());
            err.printf(
                    java.util.Locale.ROOT,
                    "-- prepared join %s in %.2f s (%,d bytes of codes)%n",
                    p.join(),
                    p.seconds(),
                    p.codedBytes());
            err.flush();
        }
        for (Cube.ChainPrepared c : cube.prepareJoinChains(declared)) {
            err.printf(java.util.Locale.ROOT, "-- prepared join chain %s in %.2f s%n", c.chain(), c.seconds());
            err.flush();
        }
    }

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
        boolean loads = !sources.tables().isEmpty() || generate != null;
        if (!loads && dataDir == null) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "serve needs data: tables=0 generate=none — give --table NAME=FILE (repeatable) or --generate ROWS,"
                            + " or --data-dir DIR holding the data of an earlier serve");
        }
        io.numacube.engine.Shard given = shardSpec();
        prepareJoins.forEach(io.numacube.engine.JoinSpec::parse);
        followOptions();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ServerOptions options = options(err);
        CheckpointPolicy policy = new CheckpointPolicy(checkpointInterval, checkpointWalBytes);
        ServerMetrics metrics = new ServerMetrics();
        DurableStore store = dataDir == null ? null : openStore(loads, metrics);
        io.numacube.engine.Shard keep;
        Cube cube;
        try {
            keep = DataDirShard.resolve(store, given);
            cube = Cube.open(settings.toOptions());
        } catch (RuntimeException e) {
            closeQuietly(store);
            throw e;
        }
        WriteService writes =
                new WriteService(cube, store == null ? WriteService.BatchLog.NONE : store.batchLog(), metrics);
        NumacubeServer server;
        try {
            fill(store, writes, keep, err);
            warmUp(err);
            prepareJoins(cube, err);
            follow(cube, err, metrics);
            server = NumacubeServer.start(options, writes, metrics);
            watchCertificate(options, err);
        } catch (IOException | RuntimeException e) {
            cube.close();
            closeQuietly(store);
            throw e;
        }
        CheckpointSchedule schedule = store == null ? null : CheckpointSchedule.start(store, writes, policy);
        err.println("-- " + cube.describe());
        err.println("-- pivot page: " + server.httpUrl() + "/ (open it in a browser)");
        err.flush();
        String where = store == null ? "data in memory only" : "durable in " + store.path();
        out.println(server.readyLine(keep == null ? where : where + "; shard " + keep + " by " + keep.column()));
        out.flush();
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> stop(server, new Durable(store, schedule, writes), cube, out, err), "numacube-shutdown"));
        new java.util.concurrent.CountDownLatch(1).await();
        return 0;
    }

    /**
     * Opens the data directory; refuses to load new tables over data it holds, and to start with neither.
     *
     * @param loads whether --table or --generate was given
     */
    private DurableStore openStore(boolean loads, ServerMetrics metrics) {
        DurableStore store =
                DurableStore.open(dataDir, WalOptions.defaults().withFsyncLatencyNanos(metrics.walFsync()));
        if (store.holdsData() && loads) {
            List<String> tables = store.manifest().orElseThrow().tables().stream()
                    .map(t -> t.schema().name())
                    .toList();
            closeQuietly(store);
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "the data directory holds tables already: dir=" + dataDir + " tables=" + tables
                            + " — start without --table and --generate to recover them, or give an empty --data-dir to"
                            + " load new data");
        }
        if (!store.holdsData() && !loads) {
            closeQuietly(store);
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "serve needs data: the data directory holds none yet: dir=" + dataDir
                            + " — give --table NAME=FILE or --generate ROWS for its first start");
        }
        return store;
    }

    /**
     * Recovers the data directory's tables (with the keys they had, as the shard it recorded), or loads the command
     * line's (of {@code keep}'s rows only); sets {@code --key}; with a data directory, checkpoints them.
     */
    private void fill(DurableStore store, WriteService writes, io.numacube.engine.Shard keep, PrintWriter err) {
        if (store != null && store.holdsData()) {
            DurableStore.Recovered r = store.recover(writes);
            err.printf(
                    java.util.Locale.ROOT,
                    "-- recovered %d tables %s from %s: %,d rows from the checkpoint at lsn %d, %,d writes replayed"
                            + " from the WAL (rows %+,d%s), in %.2f s%n",
                    r.tables().size(),
                    r.tables(),
                    store.path(),
                    r.rowsLoaded(),
                    r.checkpointLsn(),
                    r.writes(),
                    r.rowsChanged(),
                    r.failedAlike() == 0
                            ? ""
                            : "; " + r.failedAlike() + " DELETE or UPDATE writes failed again as at first",
                    r.nanos() / 1e9);
            if (keep != null) {
                writes.cube().loadShard(keep);
                err.println("-- shard " + keep + " by " + keep.column() + ": recovered as recorded in " + store.path());
            }
        } else {
            if (keep != null) {
                writes.cube().loadShard(keep);
            }
            CubeLoader.generateAndLoad(writes.cube(), generate, seed, sources, settings.maxMemory(), err);
            keepShard(keep, writes.cube(), err);
        }
        setKeys(writes.cube());
        if (store != null) {
            DurableStore.Checkpointed c = store.checkpoint(writes);
            err.println("-- " + (c.written() ? CheckpointSchedule.describe(c) : "checkpoint: nothing new to write"));
        }
        err.flush();
    }

    private static void closeQuietly(DurableStore store) {
        if (store == null) {
            return;
        }
        try {
            store.close();
        } catch (RuntimeException e) {
            // the failure that made us close it is the one to report
        }
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
        o = o.withLimits(o.maxBodyBytes(), o.maxSqlChars(), maxConnections).withTls(tls());
        err.println(
                users == null
                        ? "-- auth: none (no --auth-file): every local client may read and write"
                        : "-- auth: " + users.size() + " users from " + authFile
                                + " (PostgreSQL: SCRAM-SHA-256, HTTP: Basic or the login form at /login.html"
                                + (tlsClientCa == null ? "" : "; or a client certificate naming the user") + ")");
        err.println(
                o.tls() == null
                        ? "-- tls: none (no --tls-cert): passwords and data cross the network in the clear"
                        : "-- tls: HTTPS and PostgreSQL over TLS only; certificate "
                                + o.tls().describe());
        return logStatements ? o.withStatementLog(line -> err.println("-- " + line)) : o;
    }

    /** With TLS and a reload interval, watches the certificate files for the server's life (a daemon thread). */
    private void watchCertificate(ServerOptions options, PrintWriter err) {
        if (options.tls() == null || tlsReloadInterval.isZero()) {
            return;
        }
        io.numacube.server.tls.CertificateWatch.start(options.tls(), tlsReloadInterval, line -> {
            err.println("-- " + line);
            err.flush();
        });
    }

    private ServerTls tls() {
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "TLS needs both the certificate and its key: --tls-cert=" + tlsCert + " --tls-key=" + tlsKey
                            + " — give both, or neither");
        }
        if (tlsClientCa != null && (tlsCert == null || authFile == null)) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "--tls-client-ca=" + tlsClientCa + " logs clients in by their certificates: it needs TLS"
                            + " (--tls-cert and --tls-key) and users to log in as (--auth-file)");
        }
        return tlsCert == null ? null : ServerTls.load(tlsCert, tlsKey, tlsClientCa);
    }

    /** What a durable server stops besides the front ends; all null without --data-dir. */
    private record Durable(DurableStore store, CheckpointSchedule schedule, WriteService writes) {}

    /**
     * The shutdown hook (SIGTERM, SIGINT): stop accepting, give writes and queries in flight 5 seconds, then, with a
     * data directory, write a last checkpoint and close the WAL; free the cube when the queries finished, and exit 0,
     * which is a clean stop for a server (the JVM's own exit status after a signal is 143). Exit 1 when the last
     * checkpoint failed: every acknowledged write is still in the WAL, and the next start replays it.
     */
    private static void stop(NumacubeServer server, Durable durable, Cube cube, PrintWriter out, PrintWriter err) {
        int inFlight = server.queries().inFlight();
        err.println("-- stopping: no new connections, queries or writes; " + inFlight + " queries in flight get up to"
                + " 5 s");
        err.flush();
        boolean drained = server.shutdown(Duration.ofSeconds(5));
        int status = durable.store() == null ? 0 : lastCheckpoint(durable, err);
        if (drained) {
            cube.close();
            err.println("-- stopped");
        } else {
            err.println("-- stopped with " + server.queries().inFlight() + " queries still running in the engine");
        }
        err.flush();
        out.flush();
        Runtime.getRuntime().halt(status);
    }

    /** Stops the periodic checkpoints, writes the last one and closes the data directory; the exit status. */
    private static int lastCheckpoint(Durable durable, PrintWriter err) {
        int status = 0;
        durable.schedule().close();
        try {
            DurableStore.Checkpointed c = durable.store().checkpoint(durable.writes());
            err.println("-- " + (c.written() ? CheckpointSchedule.describe(c) : "checkpoint: nothing new to write"));
        } catch (RuntimeException e) {
            err.println("-- the last checkpoint failed (every acknowledged write is in the WAL; the next start replays"
                    + " it): " + e.getMessage());
            status = 1;
        }
        try {
            durable.store().close();
        } catch (RuntimeException e) {
            err.println("-- closing the data directory failed: " + e.getMessage());
            status = 1;
        }
        err.flush();
        return status;
    }
}
