package io.numacube.numa;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.numacube.numa.base.IoReason;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IoReasonTest {

    @Test
    void namesTheCommonFailuresInTheSystemsWords(@TempDir Path dir) {
        IOException missing = org.junit.jupiter.api.Assertions.assertThrows(
                IOException.class, () -> Files.readString(dir.resolve("absent.sql")));
        assertEquals("no such file or directory", IoReason.of(missing));
        assertEquals("permission denied", IoReason.of(new AccessDeniedException("/root/x")));
        assertEquals(
                "No space left on device", IoReason.of(new FileSystemException("/d", null, "No space left on device")));
        assertEquals("no such file or directory", IoReason.of(new NoSuchFileException("/x")));
    }

    @Test
    void aFailureWithoutAMessageIsNamedWithoutItsJavaClass() {
        assertEquals("char conversion", IoReason.of(new java.io.CharConversionException()));
        assertEquals("disk on fire", IoReason.of(new IOException("disk on fire")));
    }
}
