package io.numacube.cli.doctor;

import io.numacube.numa.NumaRuntime;
import io.numacube.numa.jvm.JvmNumaAdvice;
import java.util.Optional;

/**
 * Everything {@code numacube doctor} reports, gathered once and rendered as text ({@link DoctorText}) or JSON
 * ({@link DoctorJson}). Immutable once built.
 *
 * @param runtime  the machine, the process's bindings, what works, the plan
 * @param jvm      this JVM's version, collector and UseNUMA flag
 * @param useNuma  what -XX:+UseNUMA would do here, and advice
 * @param useNumaBefore25 what it would do here on JDK 24 and earlier (no memory/CPU mismatch rule: the eden-split
 *                 problem), when this JVM is 25 or later; empty on an older JVM, whose own prediction says it
 * @param checks   the placement checks, when asked for
 * @param fromSnapshot true when the facts describe a saved snapshot, not this process
 */
public record DoctorReport(
        NumaRuntime runtime,
        JvmFacts jvm,
        JvmNumaAdvice useNuma,
        Optional<JvmNumaAdvice> useNumaBefore25,
        Optional<PlacementChecks.Results> checks,
        boolean fromSnapshot) {

    /** {@code mbind}, {@code first-touch} or {@code os-default}: how numacube places memory in this process. */
    public String placementMethod() {
        return switch (runtime.plan().mode()) {
            case BIND, PREFERRED, INTERLEAVE -> "mbind";
            case FIRST_TOUCH -> "first-touch";
            case OS_DEFAULT -> "os-default";
        };
    }
}
