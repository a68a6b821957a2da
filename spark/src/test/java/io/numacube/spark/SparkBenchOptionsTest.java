package io.numacube.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class SparkBenchOptionsTest {

    @Test
    void defaultsAreASmallRunAndOptionsOverrideThem() {
        assertEquals(
                new SparkBenchOptions(2_000_000, 2, 3, 1, 42, Path.of("target", "spark-bench"), "1g", null, List.of()),
                SparkBenchOptions.parse());
        SparkBenchOptions o =
                SparkBenchOptions.parse("--rows", "500k", "--shards", "3", "--runs", "9", "--dir", "/tmp/x");
        assertEquals(500_000, o.rows());
        assertEquals(3, o.shards());
        assertEquals(9, o.runs());
        assertEquals(Path.of("/tmp/x"), o.dir());
    }

    @Test
    void badOptionsAreClearErrorsWithTheUsage() {
        var e = assertThrows(IllegalArgumentException.class, () -> SparkBenchOptions.parse("--rows", "2x"));
        assertEquals("not a row count: \"2x\" (e.g. 2M, 500k, 100000)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> SparkBenchOptions.parse("--shards", "1"));
        assertEquals(
                "the bench needs rows >= 1, shards >= 2, runs >= 1, warmups >= 0: rows=2000000 shards=1 runs=3"
                        + " warmups=1 — " + SparkBenchOptions.USAGE,
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> SparkBenchOptions.parse("--nope", "1"));
        assertEquals("unknown option --nope — " + SparkBenchOptions.USAGE, e.getMessage());
    }

    @Test
    void tpchRunsEveryQueryUnlessSomeAreNamed() {
        SparkBenchOptions all = SparkBenchOptions.parse("--tpch", "build/tpch/sf1");
        assertEquals(Path.of("build/tpch/sf1"), all.tpchDir());
        assertEquals(22, all.queries().size());
        assertEquals(1, all.queries().getFirst());
        assertEquals(
                List.of(1, 3, 4, 5, 9),
                SparkBenchOptions.parse("--tpch", "d", "--queries", "1,3-5,9").queries());
    }

    @Test
    void badQueryNumbersAreClearErrors() {
        var e = assertThrows(
                IllegalArgumentException.class, () -> SparkBenchOptions.parse("--tpch", "d", "--queries", "0,23"));
        assertEquals("TPC-H has queries 1 to 22: \"0,23\"", e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class, () -> SparkBenchOptions.parse("--tpch", "d", "--queries", "q1"));
        assertEquals("not TPC-H query numbers: \"q1\" (e.g. 1,3,6 or 1-22)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> SparkBenchOptions.parse("--queries", "1"));
        assertEquals("--queries picks TPC-H queries: it needs --tpch DIR — " + SparkBenchOptions.USAGE, e.getMessage());
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleRuns() {
        BenchTimings t = new BenchTimings();
        for (long ms : new long[] {40, 10, 30, 20}) {
            t.add(ms * 1_000_000);
        }
        assertEquals(10.0, t.best());
        assertEquals(25.0, t.median());
    }
}
