package io.numacube.bench.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuMeterTest {

    @Test
    void busyTicksAreEverythingButIdleAndIoWait(@TempDir Path dir) throws Exception {
        Path stat = dir.resolve("stat");
        Files.writeString(stat, "cpu  100 5 50 800 40 3 2 10 0 0\ncpu0 50 2 25 400 20 1 1 5 0 0\nintr 1\n");
        assertArrayEquals(new long[] {100 + 5 + 50 + 3 + 2 + 10, 1010}, CpuMeter.ticks(stat));
    }

    @Test
    void unreadableStatGivesNoTicks(@TempDir Path dir) {
        assertNull(CpuMeter.ticks(dir.resolve("missing")));
    }

    @Test
    void othersFractionIsAShareOrNaN() throws Exception {
        CpuMeter m = CpuMeter.start();
        Thread.sleep(50);
        double f = m.othersFraction();
        assertTrue(Double.isNaN(f) || f >= 0 && f <= 1, "fraction=" + f);
    }
}
