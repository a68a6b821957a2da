package io.numacube.bench;

import io.numacube.bench.baseline.LoopCube;
import io.numacube.bench.engine.EngineCube;
import io.numacube.bench.probe.PinnedTeam;
import io.numacube.bench.probe.ThreadTeam;
import io.numacube.numa.NumaRuntime;

/** Chooses what the bench measures and how the probe's threads run, by name. Stateless. */
public final class Engines {

    private Engines() {}

    /**
     * The cube factory named {@code name}: "numacube" (the engine) or "loop" (the plain-loop baseline).
     *
     * @throws IllegalArgumentException for any other name
     */
    public static CubeUnderTest.Factory factory(String name) {
        return switch (name) {
            case "loop" -> LoopCube.factory();
            case "numacube" -> EngineCube.factory();
            default ->
                throw new IllegalArgumentException("unknown bench engine: engine=" + name + " — use numacube or loop");
        };
    }

    /**
     * The bare-loop baseline to run beside {@code engine} in the peer comparison: the loop factory for the engine,
     * none when the loop itself is measured.
     */
    public static CubeUnderTest.Factory baselineFor(String engine) {
        return "loop".equals(engine) ? null : LoopCube.factory();
    }

    /**
     * Threads for the probe: the runtime's pinned workers when it runs natively and has at least {@code threads}
     * workers, plain threads otherwise.
     */
    public static ThreadTeam probeTeam(int threads) {
        try {
            NumaRuntime rt = NumaRuntime.detect();
            if (rt.kernel().isPresent()) {
                PinnedTeam team = new PinnedTeam(rt.startWorkers(0, "nc-probe"));
                if (team.size() >= threads) {
                    return team;
                }
            }
        } catch (RuntimeException e) {
            System.getLogger(Engines.class.getName())
                    .log(
                            System.Logger.Level.INFO,
                            "probe threads unpinned: the runtime could not start pinned workers: " + e);
        }
        return ThreadTeam.unpinned();
    }
}
