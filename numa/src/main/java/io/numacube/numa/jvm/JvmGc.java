package io.numacube.numa.jvm;

import java.util.Locale;

/** The HotSpot garbage collectors, as far as UseNUMA is concerned. */
public enum JvmGc {
    SERIAL,
    PARALLEL,
    G1,
    Z,
    SHENANDOAH,
    EPSILON,
    UNKNOWN;

    /**
     * Recognises a GC from a flag or MXBean name: {@code G1}, {@code UseG1GC}, {@code G1 Young Generation},
     * {@code Parallel}, {@code PS Scavenge}, {@code ZGC}, {@code ZGC Cycles}, {@code Shenandoah}, {@code Serial},
     * {@code Copy}, {@code MarkSweepCompact}, {@code Epsilon}; anything else is UNKNOWN. Case-insensitive.
     */
    public static JvmGc fromName(String name) {
        if (name == null) {
            return UNKNOWN;
        }
        String n = name.strip().toLowerCase(Locale.ROOT).replaceFirst("^(-xx:\\+)?use", "");
        if (n.startsWith("g1")) {
            return G1;
        }
        if (n.startsWith("parallel") || n.startsWith("ps ")) {
            return PARALLEL;
        }
        if (n.equals("z") || n.startsWith("zgc") || n.startsWith("z gc")) {
            return Z;
        }
        if (n.startsWith("shenandoah")) {
            return SHENANDOAH;
        }
        if (n.startsWith("serial") || n.equals("copy") || n.equals("marksweepcompact")) {
            return SERIAL;
        }
        if (n.startsWith("epsilon")) {
            return EPSILON;
        }
        return UNKNOWN;
    }
}
