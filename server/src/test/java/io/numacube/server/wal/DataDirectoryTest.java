package io.numacube.server.wal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataDirectoryTest {

    @TempDir
    Path root;

    @Test
    void aSecondOpenerOfALockedDirectoryFailsNamingItUntilTheFirstCloses() {
        Path dir = root.resolve("data");
        try (DataDirectory first = DataDirectory.open(dir)) {
            NumacubeException e = assertThrows(NumacubeException.class, () -> DataDirectory.open(dir));
            assertEquals("55006", e.code());
            assertEquals(
                    "data directory in use: dir=" + dir + " lock=" + dir.resolve("LOCK") + " pid="
                            + ProcessHandle.current().pid()
                            + " — another numacube serve holds it; stop that server or pass another --data-dir",
                    e.getMessage());
            assertEquals(dir, first.path());
        }
        DataDirectory.open(dir).close();
    }

    @Test
    void writesFilesAtomicallyAndReadsThemBack() throws IOException {
        try (DataDirectory data = DataDirectory.open(root.resolve("data"))) {
            assertEquals(Optional.empty(), data.read("checkpoint.json"));
            data.writeAtomically("checkpoint.json", "{\"lsn\": 1}".getBytes(StandardCharsets.UTF_8));
            data.writeAtomically("checkpoint.json", out -> out.write("{\"lsn\": 42}".getBytes(StandardCharsets.UTF_8)));
            assertArrayEquals(
                    "{\"lsn\": 42}".getBytes(StandardCharsets.UTF_8),
                    data.read("checkpoint.json").orElseThrow());
            assertFalse(Files.exists(data.path().resolve("checkpoint.json.tmp")));
            assertTrue(Files.isDirectory(data.walDirectory()));
            assertEquals(data.path().resolve("wal"), data.walDirectory());
        }
    }

    @Test
    void aFailedContentWriterLeavesTheOldFile() {
        try (DataDirectory data = DataDirectory.open(root.resolve("data"))) {
            data.writeAtomically("m", new byte[] {1, 2});
            NumacubeException e = assertThrows(
                    NumacubeException.class,
                    () -> data.writeAtomically("m", out -> {
                        out.write(new byte[] {9, 9, 9});
                        throw new IOException("disk full");
                    }));
            assertEquals("cannot write: file=" + data.path().resolve("m.tmp") + " error=disk full", e.getMessage());
            assertArrayEquals(new byte[] {1, 2}, data.read("m").orElseThrow());
        }
    }

    @Test
    void refusesNamesOutsideTheDirectoryAndItsOwnFiles() {
        try (DataDirectory data = DataDirectory.open(root.resolve("data"))) {
            for (String name : new String[] {"../x", "a/b", "LOCK", "wal", "x.tmp", "", "..", "."}) {
                NumacubeException e =
                        assertThrows(NumacubeException.class, () -> data.writeAtomically(name, new byte[0]), name);
                assertTrue(e.getMessage().startsWith("not a data file name: name=" + name), e.getMessage());
            }
        }
    }
}
