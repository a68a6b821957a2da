package io.numacube.bench;

import io.numacube.bench.baseline.LoopCube;
import io.numacube.bench.engine.EngineCube;
import io.numacube.bench.probe.ThreadTeam;

/** Chooses what the bench measures and how the probe's threads run, by name. Stateless. */
public final class Engines {

    private Engines() {
    }

    /**
     * The cube factory named {@code name}: "numacube" (the engine) or "loop" (the plain-loop baseline).
     *
     * @throws IllegalArgumentException for any other name
     */
    public static CubeUnderTest.Factory factory(String name) {
        return switch (name) {
            case "loop" -> LoopCube.factory();
            case "numacube" -> EngineCube.factory();
            default -> throw new IllegalArgumentException("unknown bench engine: engine=" + name
                    + " — use numacube or loop");
        };
    }

    /**
     * The bare-loop baseline to run beside {@code engine} in the peer comparison: the loop factory for the engine,
     * none when the loop itself is measured.
     */
    public static CubeUnderTest.Factory baselineFor(String engine) {
        return "loop".equals(engine) ? null : LoopCube.factory();
    }

    /** Threads for the probe: pinned per node when the runtime can pin, plain threads otherwise. */
    public static ThreadTeam probeTeam() {
        return ThreadTeam.unpinned();
    }
}
