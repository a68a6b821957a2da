package io.numacube.bench.jmh;

import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.gen.ReferenceQueries;
import io.numacube.engine.storage.ProgressListener;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Whole engine queries (parse, plan, morsels on the pinned workers, merge, result) on small cubes: with
 * {@code rows} = 1,000 the score is the engine's fixed cost per query; with 1M (L3-resident) it adds the kernels.
 * Compare with {@link KernelBenchmarks} to see what the machinery costs on top of the loops.
 *
 * <p>One cube per trial, shared by the benchmark threads ({@link Scope#Benchmark}; the cube is thread-safe), closed
 * at tear-down.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class EngineQueryBenchmarks {

    @Param({"1000", "1048576"})
    public long rows;

    @Param({"1", "2", "3", "4", "5"})
    public int query;

    private Cube cube;
    private String sql;

    @Setup(Level.Trial)
    public void load() {
        cube = Cube.open(CubeOptions.defaults());
        cube.generateTrades(rows, 42, ProgressListener.NONE);
        sql = ReferenceQueries.q(query);
    }

    @TearDown(Level.Trial)
    public void close() {
        cube.close();
    }

    /** One reference query, answer materialised. */
    @Benchmark
    public int referenceQuery() {
        return cube.query(sql).rowCount();
    }
}
