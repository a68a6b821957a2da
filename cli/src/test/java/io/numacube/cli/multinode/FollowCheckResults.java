package io.numacube.cli.multinode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.numacube.cli.multinode.VmResults.Config;
import java.util.Optional;

/**
 * What the host tests of the follow checks ({@code guest-follow.sh}) read alike: a check's JSON (it ran and exited 0)
 * and a phase's convergence within {@link #MAX_SECONDS} of the script's change of the cgroup. Stateless.
 */
final class FollowCheckResults {

    /** The most seconds from a cgroup change to convergence that a follow check passes with. */
    static final double MAX_SECONDS = 30.0;

    private FollowCheckResults() {}

    /** The JSON the check wrote, after asserting that it exited 0. */
    static JsonNode result(Config c, String check) {
        Optional<JsonNode> found = c.optionalJson(check + ".json");
        if (found.isEmpty()) {
            fail("the follow check wrote no " + c.dir().resolve(check + ".json") + ": " + c.tail(check + ".err"));
        }
        assertEquals(0, c.check(check).rc(), () -> c.tail(check + ".err"));
        return found.get();
    }

    /** Seconds from the script's change of the cgroup ({@code CHECK.STAMP}, the guest's clock) to convergence. */
    static void convergedWithin30Seconds(Config c, String check, String stamp, JsonNode phase, JsonNode doc) {
        assertTrue(phase.get("seen").asBoolean(), () -> "the cgroup change (" + stamp + ") was never seen");
        assertTrue(
                phase.get("converged").asBoolean(),
                () -> "not converged after 60 s (" + stamp + "): " + phase.get("not_converged_because") + " log="
                        + doc.get("log"));
        long changedMillis = Long.parseLong(c.read(check + "." + stamp).strip());
        double seconds = (phase.get("converged_at_ms").asLong() - changedMillis) / 1000.0;
        assertTrue(
                seconds > 0 && seconds <= MAX_SECONDS,
                () -> "converged " + seconds + " s after the cgroup was " + stamp + " (at most " + MAX_SECONDS + " s): "
                        + doc.get("log"));
    }
}
