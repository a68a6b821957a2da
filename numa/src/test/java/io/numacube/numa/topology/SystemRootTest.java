package io.numacube.numa.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SystemRootTest {

    @TempDir
    Path tmp;

    @Test
    void resolvesAbsolutePathsUnderTheRoot() {
        SystemRoot r = SystemRoot.at(tmp);
        assertEquals(tmp.resolve("sys/devices/system/node/online"), r.resolve("/sys/devices/system/node/online"));
        assertEquals(Path.of("/proc/self/status"), SystemRoot.live().resolve("/proc/self/status"));
        assertFalse(r.isLive());
        assertTrue(SystemRoot.live().isLive());
        assertSame(SystemRoot.live(), SystemRoot.at(Path.of("/")));
    }

    @Test
    void rejectsRelativePaths() {
        NumacubeException e =
                assertThrows(NumacubeException.class, () -> SystemRoot.at(tmp).resolve("proc/meminfo"));
        assertTrue(e.getMessage().contains("path=proc/meminfo"), e.getMessage());
    }

    @Test
    void treatsMissingFilesAndDirectoriesAsAbsentFacts() throws IOException {
        SystemRoot r = SystemRoot.at(tmp);
        assertEquals(Optional.empty(), r.read("/sys/devices/system/node/online"));
        Files.createDirectories(tmp.resolve("sys/devices"));
        assertEquals(Optional.empty(), r.read("/sys/devices"));
        assertEquals(Optional.empty(), r.read("/sys/devices/x/y"));
        assertEquals(List.of(), r.list("/nowhere"));
    }

    @Test
    void stripsTheTrailingNewlineAndToleratesInvalidUtf8() throws IOException {
        Files.writeString(tmp.resolve("a"), "0-3\n\n");
        Files.write(tmp.resolve("b"), new byte[] {(byte) 0xff, (byte) 0xfe, '1'});
        SystemRoot r = SystemRoot.at(tmp);
        assertEquals("0-3", r.read("/a").orElseThrow());
        assertTrue(r.read("/b").orElseThrow().endsWith("1"));
        NumacubeException e = assertThrows(NumacubeException.class, () -> r.readCpuList("/b"));
        assertTrue(e.getMessage().contains("file=/b"), e.getMessage());
    }

    @Test
    void refusesFilesLargerThanAnyKernelFact() throws IOException {
        Files.write(tmp.resolve("big"), new byte[SystemRoot.MAX_FILE_BYTES + 1]);
        NumacubeException e =
                assertThrows(NumacubeException.class, () -> SystemRoot.at(tmp).read("/big"));
        assertTrue(e.getMessage().contains("file=/big") && e.getMessage().contains("limit="), e.getMessage());
    }

    @Test
    void listsDirectoryEntriesSorted() throws IOException {
        Files.createDirectories(tmp.resolve("n/node1"));
        Files.createDirectories(tmp.resolve("n/node0"));
        assertEquals(List.of("node0", "node1"), SystemRoot.at(tmp).list("/n"));
    }

    @Test
    void abbreviatesLongTextToOneLine() {
        assertEquals("a\\nb", SystemRoot.abbreviate("a\nb\n"));
        assertEquals(80, SystemRoot.abbreviate("x".repeat(500)).length());
    }
}
