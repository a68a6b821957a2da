package io.numacube.numa.jvm;

import java.util.List;

/**
 * What {@code -XX:+UseNUMA} will do in this process, why, and what to do about it. Immutable.
 *
 * @param prediction whether the JVM's NUMA support ends up on
 * @param reason     one line: the rule that decided, in the JVM's own words where it logs them
 * @param advice     zero or more lines of advice for the user
 */
public record JvmNumaAdvice(Prediction prediction, String reason, List<String> advice) {

    /** The outcome for UseNUMA. */
    public enum Prediction {
        /** UseNUMA is on and the young generation is split per node. */
        ON,
        /** UseNUMA was asked for (or is the GC's default) but the JVM turns it off. */
        OFF,
        /** UseNUMA is not asked for and not the GC's default. */
        NOT_REQUESTED,
        /** UseNUMA is on but this GC does not use it. */
        NO_EFFECT
    }

    public JvmNumaAdvice {
        advice = List.copyOf(advice);
    }
}
