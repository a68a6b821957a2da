package io.numacube.bench.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeerVenvTest {

    @TempDir
    Path dir;

    @Test
    void aMissingPythonIsAReasonNamingTheFixNotAnException() {
        PeerVenv.Outcome o = PeerVenv.prepare(dir.resolve("venv"), "/nonexistent/python3", l -> {});
        PeerVenv.Unavailable u = assertInstanceOf(PeerVenv.Unavailable.class, o);
        assertTrue(
                u.reason().startsWith("no Python to create the peers' environment with: /nonexistent/python3"),
                u.reason());
        assertTrue(u.reason().endsWith("install Python 3.10 or later, or set NUMACUBE_PYTHON to one"), u.reason());
    }

    @Test
    void anEnvironmentWhoseStampListsThePinsIsReusedWithoutRunningPython() throws Exception {
        Path venv = dir.resolve("venv");
        Path python = Files.createDirectories(venv.resolve("bin")).resolve("python");
        Files.writeString(python, "#!/bin/sh\n");
        python.toFile().setExecutable(true);
        Files.write(venv.resolve(PeerVenv.STAMP), PeerVenv.REQUIREMENTS);
        List<String> steps = new ArrayList<>();
        PeerVenv.Outcome o = PeerVenv.prepare(venv, "/nonexistent/python3", steps::add);
        assertEquals(new PeerVenv.Ready(python, false), o);
        assertEquals(List.of(), steps);
    }

    @Test
    void aStampWithOtherPinsIsNotReused() throws Exception {
        Path venv = dir.resolve("venv");
        Path python = Files.createDirectories(venv.resolve("bin")).resolve("python");
        Files.writeString(python, "#!/bin/sh\n");
        python.toFile().setExecutable(true);
        Files.write(venv.resolve(PeerVenv.STAMP), List.of("chdb==4.3.0", "polars==2.1.0", "duckdb==2.0.0"));
        assertInstanceOf(PeerVenv.Unavailable.class, PeerVenv.prepare(venv, "/nonexistent/python3", l -> {}));
    }

    @Test
    void everyPeerPackageIsPinnedToOneVersion() {
        for (String r : PeerVenv.REQUIREMENTS) {
            assertTrue(r.matches("[a-z]+==[0-9][0-9.]*"), r);
        }
    }
}
