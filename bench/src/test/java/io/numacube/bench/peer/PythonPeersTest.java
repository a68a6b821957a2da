package io.numacube.bench.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PythonPeersTest {

    private static final PythonPeers.TimingRule TIMING = new PythonPeers.TimingRule(1, 0.1, 3, 1);
    private static final String LOAD =
            "{\"version\":\"ClickHouse 26.9 threads=$POLARS_MAX_THREADS\",\"layout\":\"MergeTree\",\"loadSeconds\":0.5,\"rows\":3}";

    @TempDir
    Path dir;

    @Test
    void loadsAnEngineAndReadsItsTimingsAndAnswerOverTheLineProtocol() throws Exception {
        Path python = FakePython.write(
                dir,
                LOAD,
                "{\"seconds\":[0.3,0.1,0.2],\"columns\":[\"day\",\"n\",\"s\"],"
                        + "\"rows\":[[\"2024-01-02\",3,1.5],[null,18446744073709551615,2.0]]}");
        try (PythonPeers peers = PythonPeers.start(python, dir.resolve("work"), 2)) {
            PythonPeers.Loaded loaded = peers.load("clickhouse", dir);
            assertEquals("ClickHouse 26.9 threads=2", loaded.version());
            assertEquals(3, loaded.rows());
            assertEquals(0.5, loaded.loadSeconds());
            PythonPeers.Answer a = peers.query("clickhouse", "Q1", "SELECT 1", TIMING);
            assertEquals(3, a.seconds().count());
            assertEquals(0.2, a.seconds().median(), 1e-12);
            assertEquals(List.of("2024-01-02", 3L, 1.5), a.answer().rows().get(0));
            assertEquals(18446744073709551615.0, a.answer().rows().get(1).get(1));
        }
        assertTrue(Files.exists(dir.resolve("work").resolve("peers.py")), "the script is written beside the data");
    }

    @Test
    void anErrorReplyIsAPeerExceptionNamingTheEngineAndTheRequest() throws Exception {
        Path python = FakePython.write(dir, LOAD, "{\"error\":\"UNKNOWN_FUNCTION: foo\"}");
        try (PythonPeers peers = PythonPeers.start(python, dir.resolve("work"), 2)) {
            PythonPeers.PeerException e =
                    assertThrows(PythonPeers.PeerException.class, () -> peers.query("polars", "Q3", "SELECT", TIMING));
            assertEquals("polars failed: request=Q3 — UNKNOWN_FUNCTION: foo", e.getMessage());
        }
    }

    @Test
    void aProcessThatEndsIsReportedWithTheEndOfItsStderr() throws Exception {
        Path python = dir.resolve("dying-python");
        Files.writeString(python, "#!/usr/bin/env bash\necho 'ImportError: no module named chdb' >&2\nexit 1\n");
        python.toFile().setExecutable(true);
        try (PythonPeers peers = PythonPeers.start(python, dir.resolve("work"), 2)) {
            PythonPeers.PeerException e =
                    assertThrows(PythonPeers.PeerException.class, () -> peers.load("clickhouse", dir));
            assertTrue(
                    e.getMessage().startsWith("the Python peers' process ended: engine=clickhouse request=load"),
                    e.getMessage());
            assertTrue(e.getMessage().endsWith("ImportError: no module named chdb"), e.getMessage());
        }
    }
}
