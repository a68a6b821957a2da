package io.numacube.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputFileTest {

    @Test
    void aFailedWriteLeavesThePreviousFileAndNoTemporaryOne(@TempDir Path dir) throws Exception {
        Path target = Files.writeString(dir.resolve("report.json"), "old");
        NumacubeException e = assertThrows(
                NumacubeException.class,
                () -> OutputFile.writeAtomically(target, out -> {
                    out.write(new byte[100_000]);
                    throw new IOException("No space left on device");
                }));
        assertEquals(NumacubeException.Kind.PLATFORM, e.kind());
        assertEquals(
                "cannot write " + target + ": error=No space left on device — no partial file was left",
                e.getMessage());
        assertEquals("old", Files.readString(target));
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count());
        }
    }

    @Test
    void writesTheWholeText(@TempDir Path dir) throws Exception {
        Path target = dir.resolve("r.json");
        OutputFile.writeAtomically(target, "{\"a\": 1}\n");
        assertEquals("{\"a\": 1}\n", Files.readString(target));
    }

    @Test
    void refusesADirectoryAMissingDirectoryAndAReadOnlyDirectoryBeforeAnyWork(@TempDir Path dir) throws Exception {
        assertEquals(
                "cannot write --json " + dir + ": it is a directory — name a file",
                assertThrows(NumacubeException.class, () -> OutputFile.checkWritable(dir, "--json"))
                        .getMessage());
        Path missing = dir.resolve("no/such/r.json");
        assertEquals(
                "cannot write --json " + missing + ": its directory does not exist — create it first",
                assertThrows(NumacubeException.class, () -> OutputFile.checkWritable(missing, "--json"))
                        .getMessage());
        assertFalse(Files.exists(missing.getParent()));
        OutputFile.checkWritable(dir.resolve("fine.json"), "--json");
    }

    /** Renaming over a device node would replace /dev/full (or /dev/stdout) with a regular file. */
    @Test
    void aDeviceIsWrittenInPlaceNotReplaced() throws Exception {
        Path full = Path.of("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(full) && !Files.isRegularFile(full));
        NumacubeException e = assertThrows(NumacubeException.class, () -> OutputFile.writeAtomically(full, "{}\n"));
        assertEquals(NumacubeException.Kind.PLATFORM, e.kind());
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
        assertFalse(Files.isRegularFile(full));
    }

    /** A symbolic link stays a link: the file it names gets the new text. */
    @Test
    void aSymbolicLinkIsFollowed(@TempDir Path dir) throws Exception {
        Path real = Files.writeString(dir.resolve("real.json"), "old");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), real);
        OutputFile.writeAtomically(link, "new");
        assertEquals("new", Files.readString(real));
        org.junit.jupiter.api.Assertions.assertTrue(Files.isSymbolicLink(link));
    }

    /** The written file gets the mode any new file gets here (the umask's), not a temporary file's owner-only 0600. */
    @Test
    void theFileHasTheUsualModeNotOwnerOnly(@TempDir Path dir) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                dir.getFileSystem().supportedFileAttributeViews().contains("posix"));
        Path plain = Files.writeString(dir.resolve("plain.txt"), "x");
        Path target = dir.resolve("r.json");
        OutputFile.writeAtomically(target, "{}");
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(target));
    }
}
