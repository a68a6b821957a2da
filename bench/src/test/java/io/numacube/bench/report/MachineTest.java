package io.numacube.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MachineTest {

    @TempDir
    Path dir;

    private void cache(int index, int level, String type, String size, String shared) throws Exception {
        Path d = Files.createDirectories(dir.resolve("cache").resolve("index" + index));
        Files.writeString(d.resolve("level"), level + "\n");
        Files.writeString(d.resolve("type"), type + "\n");
        Files.writeString(d.resolve("size"), size + "\n");
        Files.writeString(d.resolve("shared_cpu_list"), shared + "\n");
    }

    @Test
    void keepsTheVectorFlagsAndTheCachesOfCpuZero() throws Exception {
        Path cpuinfo = dir.resolve("cpuinfo");
        Files.writeString(
                cpuinfo,
                "processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Processor\n"
                        + "flags\t\t: fpu sse4_1 sse4_2 avx avx2 fma bmi2 avx512f avx512bw sha_ni\n");
        cache(0, 1, "Data", "48K", "0");
        cache(1, 1, "Instruction", "32K", "0");
        cache(2, 2, "Unified", "2048K", "0");
        cache(3, 3, "Unified", "491520K", "0-1");
        Machine m = new Machine(
                Machine.cpuModel(cpuinfo),
                Machine.cpuFlags(cpuinfo),
                Machine.caches(dir.resolve("cache")),
                2,
                1,
                0,
                "Linux",
                "25",
                List.of(),
                0);
        assertEquals(List.of("sse4_1", "sse4_2", "avx", "avx2", "fma", "bmi2", "avx512f", "avx512bw"), m.cpuFlags());
        assertEquals(List.of("L1d 48K", "L1i 32K", "L2 2048K", "L3 491520K shared by 0-1"), m.caches());
        assertEquals(
                "Intel(R) Xeon(R) Processor; AVX-512 (avx512f avx512bw); L1d 48K, L1i 32K, L2 2048K, L3 491520K shared by 0-1",
                m.cpuSummary());
    }

    @Test
    void aCpuWithoutAvx512SaysSoAndUnreadableFilesGiveEmptyLists() throws Exception {
        Path cpuinfo = dir.resolve("cpuinfo");
        Files.writeString(cpuinfo, "model name\t: AMD EPYC\nflags\t\t: fpu avx avx2 fma\n");
        Machine m = new Machine(
                "AMD EPYC",
                Machine.cpuFlags(cpuinfo),
                Machine.caches(dir.resolve("none")),
                2,
                1,
                0,
                "",
                "",
                List.of(),
                0);
        assertEquals(List.of(), m.caches());
        assertEquals("AMD EPYC; avx2, no AVX-512; caches unknown", m.cpuSummary());
        assertEquals(List.of(), Machine.cpuFlags(dir.resolve("missing")));
    }
}
