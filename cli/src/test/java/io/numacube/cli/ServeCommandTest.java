package io.numacube.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.Shard;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import io.numacube.server.durable.DurableStore;
import io.numacube.server.wal.DataDirectory;
import io.numacube.server.wal.WalOptions;
import io.numacube.server.write.WriteService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code serve} refuses before it loads anything, and the data directories it will not start on. The running
 * server is checked by the server module's tests, as a real process killed at random moments by {@link
 * ServeCrashTest}, and with curl and psql by {@code tools/serve-check}.
 */
class ServeCommandTest {

    @TempDir
    Path root;

    /** A data directory as a first {@code serve --table t=...} leaves it: table t of three rows, checkpointed. */
    private Path dataDirWithATable() {
        Path dir = root.resolve("data");
        try (DurableStore store = DurableStore.open(dir, WalOptions.defaults());
                Cube cube =
                        Cube.open(CubeOptions.defaults().withSimulatedNodes(1).withThreadsPerNode(1))) {
            TableStaging t = new TableStaging(TableSchema.parse("t", "id:long,name:string"));
            for (int i = 0; i < 3; i++) {
                t.setLong(0, i);
                t.setString(1, "n" + i);
                t.endRow();
            }
            cube.loadTable(t);
            store.checkpoint(new WriteService(cube, store.batchLog()));
        }
        return dir;
    }

    @Test
    void aDataDirectoryHoldingDataRefusesNewTables() {
        Path dir = dataDirWithATable();
        CliRun r = CliRun.of("serve", "--generate", "10", "--data-dir", dir.toString(), "--http-port", "0");
        assertEquals(ErrorReporter.USAGE_ERROR, r.exitCode(), r.err());
        assertTrue(
                r.err()
                        .contains(
                                "the data directory holds tables already: dir=" + dir + " tables=[t] — start without"
                                        + " --table and --generate to recover them, or give an empty --data-dir to load new data"),
                r.err());
        assertEquals("", r.out(), "no ready line");
        DataDirectory.open(dir).close();
    }

    @Test
    void anEmptyDataDirectoryNeedsData() {
        Path dir = root.resolve("empty");
        CliRun r = CliRun.of("serve", "--data-dir", dir.toString());
        assertEquals(ErrorReporter.USAGE_ERROR, r.exitCode(), r.err());
        assertTrue(r.err().contains("serve needs data: the data directory holds none yet: dir=" + dir), r.err());
    }

    @Test
    void aCorruptCheckpointStopsTheStartNamingTheFileWithoutAStackTrace() throws Exception {
        Path dir = dataDirWithATable();
        Path file = dir.resolve("checkpoint-00000001-0-t.csv");
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 2] ^= 1;
        Files.write(file, bytes);
        CliRun r = CliRun.of("serve", "--data-dir", dir.toString(), "--http-port", "0", "--pg-port", "0");
        assertEquals(ErrorReporter.INTERNAL_ERROR, r.exitCode(), r.err());
        assertTrue(
                r.err()
                        .contains("numacube: checkpoint is corrupt: file=" + file
                                + " reason=SHA-256 differs from the manifest"),
                r.err());
        assertTrue(!r.err().contains("\tat "), r.err());
        assertEquals("", r.out(), "no ready line");
        DataDirectory.open(dir).close();
    }

    @Test
    void aNonLoopbackAddressWithoutAnAuthFileIsRefusedSayingWhy() {
        CliRun r = CliRun.of("serve", "--generate", "10", "--bind", "0.0.0.0");
        assertEquals(ErrorReporter.USAGE_ERROR, r.exitCode());
        assertTrue(
                r.err()
                        .contains("numacube serve listens on a non-loopback address only with --auth-file: "
                                + "bind=0.0.0.0 address=0.0.0.0 — without users and passwords anyone who reaches the ports "
                                + "could read and write every table"),
                r.err());
        assertTrue(r.err().contains("numacube auth add-user --file FILE --user NAME --role reader|writer"), r.err());
        assertEquals("", r.out(), "no ready line");
        assertTrue(!r.err().contains("generated"), "refused before generating: " + r.err());
    }

    @Test
    void aBadPreparedJoinIsRefusedBeforeLoading() {
        CliRun bad = CliRun.of("serve", "--generate", "10", "--prepare-join", "trades.book=books");
        assertEquals(ErrorReporter.USAGE_ERROR, bad.exitCode(), bad.err());
        assertTrue(bad.err().contains("join=trades.book=books"), bad.err());
        assertTrue(!bad.err().contains("generated"), "refused before generating: " + bad.err());
    }

    @Test
    void aCertificateWithoutItsKeyOrAMissingOneIsRefusedBeforeLoading(@TempDir Path dir) {
        Path cert = dir.resolve("server.crt");
        CliRun half = CliRun.of("serve", "--generate", "10", "--tls-cert", cert.toString());
        assertEquals(ErrorReporter.USAGE_ERROR, half.exitCode(), half.err());
        assertTrue(half.err().contains("TLS needs both the certificate and its key: --tls-cert=" + cert), half.err());
        CliRun missing =
                CliRun.of("serve", "--generate", "10", "--tls-cert", cert.toString(), "--tls-key", cert.toString());
        assertEquals(ErrorReporter.USAGE_ERROR, missing.exitCode(), missing.err());
        assertTrue(missing.err().contains("the certificate file does not exist: file=" + cert), missing.err());
        assertEquals("", missing.out(), "no ready line");
        assertTrue(!missing.err().contains("generated"), "refused before generating: " + missing.err());
    }

    @Test
    void anAuthFileOthersMayReadOrThatIsMissingIsRefusedBeforeLoading(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("users.auth");
        CliRun missing = CliRun.of("serve", "--generate", "10", "--auth-file", f.toString());
        assertEquals(ErrorReporter.USAGE_ERROR, missing.exitCode());
        assertTrue(missing.err().contains("no auth file: file=" + f), missing.err());
        CliRun added = CliRun.withStdin(
                "pw\n",
                "auth",
                "add-user",
                "--file",
                f.toString(),
                "--user",
                "alice",
                "--role",
                "writer",
                "--password-stdin");
        assertEquals(0, added.exitCode(), added.err());
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
        CliRun open = CliRun.of("serve", "--generate", "10", "--bind", "0.0.0.0", "--auth-file", f.toString());
        assertEquals(ErrorReporter.USAGE_ERROR, open.exitCode());
        assertTrue(open.err().contains("the auth file may be read or changed by others: file=" + f), open.err());
        assertTrue(open.err().contains("run chmod 600 " + f), open.err());
        assertTrue(!open.err().contains("generated"), "refused before generating: " + open.err());
    }

    @Test
    void memoryMarksOutOfOrderAreRefusedBeforeLoading() {
        CliRun bad =
                CliRun.of("serve", "--generate", "10", "--memory-short-below", "1GiB", "--memory-room-again", "512MiB");
        assertEquals(ErrorReporter.USAGE_ERROR, bad.exitCode(), bad.err());
        assertTrue(
                bad.err()
                        .contains("--memory-room-again must be more than --memory-short-below: memory-room-again="
                                + (512L << 20) + " bytes memory-short-below=" + (1L << 30) + " bytes"),
                bad.err());
        assertTrue(!bad.err().contains("generated"), "refused before generating: " + bad.err());
        CliRun size = CliRun.of("serve", "--generate", "10", "--memory-short-below", "lots");
        assertEquals(ErrorReporter.USAGE_ERROR, size.exitCode(), size.err());
        assertEquals("", size.out(), "no ready line");
    }

    @Test
    void servingNeedsData() {
        CliRun r = CliRun.of("serve");
        assertEquals(ErrorReporter.USAGE_ERROR, r.exitCode());
        assertTrue(r.err().contains("serve needs data"), r.err());
    }

    @Test
    void optionsAreChecked() {
        CliRun timeout = CliRun.of("serve", "--generate", "10", "--query-timeout", "5x");
        assertEquals(ErrorReporter.USAGE_ERROR, timeout.exitCode());
        assertTrue(timeout.err().contains("not a duration: value=5x"), timeout.err());
        CliRun port = CliRun.of("serve", "--generate", "10", "--http-port", "70000");
        assertEquals(ErrorReporter.USAGE_ERROR, port.exitCode());
        assertTrue(port.err().contains("a port is 0 (any free one) to 65535: http-port=70000"), port.err());
    }

    @Test
    void shardOptionsAreCheckedBeforeLoading() {
        CliRun noKey = CliRun.of("serve", "--generate", "10", "--shard", "0/2");
        assertEquals(ErrorReporter.USAGE_ERROR, noKey.exitCode());
        assertTrue(
                noKey.err()
                        .contains("--shard needs a key column: shard=0/2 — add --shard-key COLUMN (or --partition-by)"),
                noKey.err());
        CliRun keyAlone = CliRun.of("serve", "--generate", "10", "--shard-key", "desk");
        assertEquals(ErrorReporter.USAGE_ERROR, keyAlone.exitCode());
        assertTrue(keyAlone.err().contains("--shard-key needs --shard I/N: shard-key=desk"), keyAlone.err());
        CliRun outOfRange = CliRun.of("serve", "--generate", "10", "--shard", "2/2", "--shard-key", "desk");
        assertEquals(ErrorReporter.USAGE_ERROR, outOfRange.exitCode());
        assertTrue(outOfRange.err().contains("a shard is I/N with 0 <= I < N: index=2 count=2"), outOfRange.err());
    }

    /** A data directory as a first {@code serve --shard 0/2 --shard-key name --table t=...} leaves it. */
    private Path dataDirOfShardZero() {
        Path dir = root.resolve("data");
        try (DurableStore store = DurableStore.open(dir, WalOptions.defaults())) {
            store.recordShard(Shard.parse("0/2", "name"));
        }
        Path made = dataDirWithATable();
        try (DurableStore store = DurableStore.open(dir, WalOptions.defaults())) {
            assertEquals(java.util.Optional.of(Shard.parse("0/2", "name")), store.shard(), "the record reads back");
        }
        return made;
    }

    @Test
    void aDurableShardRefusesARestartAsAnotherShard() {
        Path dir = dataDirOfShardZero();
        for (String[] other : new String[][] {{"1/2", "name"}, {"0/3", "name"}, {"0/2", "id"}}) {
            CliRun r = CliRun.of(
                    "serve",
                    "--data-dir",
                    dir.toString(),
                    "--shard",
                    other[0],
                    "--shard-key",
                    other[1],
                    "--http-port",
                    "0",
                    "--pg-port",
                    "0");
            assertEquals(ErrorReporter.USAGE_ERROR, r.exitCode(), r.err());
            assertTrue(
                    r.err()
                            .contains("the data directory holds another shard: dir=" + dir + " holds=0/2 by name shard="
                                    + other[0] + " by " + other[1] + " — start it with --shard 0/2 --shard-key name (or"
                                    + " without --shard), or give an empty --data-dir to load shard " + other[0]),
                    r.err());
            assertEquals("", r.out(), "no ready line");
        }
        DataDirectory.open(dir).close();
    }

    @Test
    void aDataDirectoryHoldingEveryRowRefusesToStartAsAShard() {
        Path dir = dataDirWithATable();
        CliRun r = CliRun.of(
                "serve",
                "--data-dir",
                dir.toString(),
                "--shard",
                "1/2",
                "--shard-key",
                "name",
                "--http-port",
                "0",
                "--pg-port",
                "0");
        assertEquals(ErrorReporter.USAGE_ERROR, r.exitCode(), r.err());
        assertTrue(
                r.err()
                        .contains("the data directory holds every row of its tables, not one shard: dir=" + dir
                                + " shard=1/2 by name — start it without --shard, or give an empty --data-dir to load"
                                + " shard 1/2"),
                r.err());
    }

    @Test
    void aDamagedShardFileStopsTheStartNamingIt() throws Exception {
        Path dir = dataDirOfShardZero();
        Files.writeString(dir.resolve("SHARD"), "shard=0/2\n");
        CliRun r = CliRun.of("serve", "--data-dir", dir.toString(), "--http-port", "0", "--pg-port", "0");
        assertTrue(
                r.err()
                        .contains("the data directory's shard file is damaged: file=" + dir.resolve("SHARD")
                                + " reason=shard= or shard_key= is missing"),
                r.err());
        assertTrue(!r.err().contains("\tat "), r.err());
        assertEquals("", r.out(), "no ready line");
    }
}
