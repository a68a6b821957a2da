package io.numacube.cli.doctor;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Optional;

/**
 * What this JVM is and how it was started, as far as NUMA is concerned: version, collector, and the UseNUMA flag
 * with whether it was set explicitly or left to its default. Immutable; read once from the running JVM.
 *
 * @param version         the runtime version, e.g. {@code 25.0.1+8-LTS}
 * @param feature         the feature release, e.g. 25
 * @param gc              the collector in use: G1, ZGC, Parallel, Serial, Shenandoah, Epsilon or unknown
 * @param useNuma         the value of -XX:UseNUMA as the JVM reports it
 * @param useNumaExplicit whether UseNUMA was given explicitly (command line, environment); false for the default
 *                        and for an ergonomic choice such as ZGC's
 * @param inputArguments  the JVM's own flags (-X..., -XX:...), for reports
 */
public record JvmFacts(
        String version, int feature, String gc, boolean useNuma, boolean useNumaExplicit, List<String> inputArguments) {

    public JvmFacts {
        inputArguments = List.copyOf(inputArguments);
    }

    /** The flag as the UseNUMA advisor wants it: given on or off, or left to the collector's default. */
    public io.numacube.numa.jvm.UseNumaFlag useNumaFlag() {
        if (!useNumaExplicit) {
            return io.numacube.numa.jvm.UseNumaFlag.DEFAULT;
        }
        return useNuma ? io.numacube.numa.jvm.UseNumaFlag.ON : io.numacube.numa.jvm.UseNumaFlag.OFF;
    }

    public static JvmFacts current() {
        Runtime.Version v = Runtime.version();
        Optional<HotSpotDiagnosticMXBean> hs = hotspot();
        boolean useNuma = hs.flatMap(b -> option(b, "UseNUMA"))
                .map(o -> Boolean.parseBoolean(o.getValue()))
                .orElse(false);
        boolean explicit = hs.flatMap(b -> option(b, "UseNUMA"))
                .map(o -> o.getOrigin() != VMOption.Origin.DEFAULT && o.getOrigin() != VMOption.Origin.ERGONOMIC)
                .orElse(false);
        return new JvmFacts(
                v.toString(),
                v.feature(),
                gcName(hs),
                useNuma,
                explicit,
                ManagementFactory.getRuntimeMXBean().getInputArguments());
    }

    private static Optional<HotSpotDiagnosticMXBean> hotspot() {
        try {
            return Optional.of(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class));
        } catch (RuntimeException | LinkageError e) {
            return Optional.empty();
        }
    }

    private static Optional<VMOption> option(HotSpotDiagnosticMXBean bean, String name) {
        try {
            return Optional.of(bean.getVMOption(name));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String gcName(Optional<HotSpotDiagnosticMXBean> hs) {
        String[][] flags = {
            {"UseZGC", "ZGC"},
            {"UseShenandoahGC", "Shenandoah"},
            {"UseParallelGC", "Parallel"},
            {"UseSerialGC", "Serial"},
            {"UseEpsilonGC", "Epsilon"},
            {"UseG1GC", "G1"}
        };
        for (String[] f : flags) {
            if (hs.flatMap(b -> option(b, f[0]))
                    .map(o -> Boolean.parseBoolean(o.getValue()))
                    .orElse(false)) {
                return f[1];
            }
        }
        return "unknown";
    }
}
