package io.numacube.numa.kernel;

import java.util.Optional;
import java.util.function.Function;

/**
 * Finds the {@link NumaKernel} for this platform once, on first use. Thread-safe (class-holder idiom).
 *
 * <p>The native path is chosen on Linux x86_64 and aarch64 when the glibc downcalls bind. It is not chosen when the
 * OS is not Linux, the architecture has no syscall table here, or native access is denied (then the reason names the
 * fix, {@code --enable-native-access=ALL-UNNAMED}). Whether the NUMA calls are also <em>allowed</em> (a container's
 * seccomp filter) is a separate question: see {@code io.numacube.numa.memory.PolicyProbe}.
 */
public final class NumaKernels {

    private static final System.Logger LOG = System.getLogger(NumaKernels.class.getName());

    /** The outcome of one attempt to bind: a kernel, or the reason there is none. */
    record Outcome(Optional<NumaKernel> kernel, Optional<String> reason) {}

    private static final class Holder {
        static final Outcome OUTCOME =
                choose(System.getProperty("os.name", "?"), System.getProperty("os.arch", "?"), LinuxKernel::create);
    }

    private NumaKernels() {}

    /** The native kernel access for this platform, or empty with {@link #unavailableReason()} saying why. */
    public static Optional<NumaKernel> load() {
        return Holder.OUTCOME.kernel();
    }

    /** Why {@link #load()} is empty; empty when it is not. */
    public static Optional<String> unavailableReason() {
        return Holder.OUTCOME.reason();
    }

    /** Decides for a given platform; {@code factory} binds the Linux implementation for an architecture. */
    static Outcome choose(String osName, String osArch, Function<LinuxKernel.Arch, NumaKernel> factory) {
        if (!osName.toLowerCase(java.util.Locale.ROOT).startsWith("linux")) {
            return none("os.name=" + osName + ": no NUMA calls; pure-Java fallback");
        }
        LinuxKernel.Arch arch = LinuxKernel.Arch.of(osArch);
        if (arch == null) {
            return none("os.arch=" + osArch + ": no syscall table for this architecture (x86_64 and aarch64 only); "
                    + "pure-Java fallback");
        }
        try {
            NumaKernel kernel = factory.apply(arch);
            return new Outcome(Optional.of(kernel), Optional.empty());
        } catch (Throwable t) {
            Throwable cause = t instanceof ExceptionInInitializerError e && e.getCause() != null ? e.getCause() : t;
            if (cause instanceof IllegalCallerException) {
                return none("native access is denied: " + cause.getMessage()
                        + " — run java with --enable-native-access=ALL-UNNAMED; pure-Java fallback");
            }
            if (cause instanceof VirtualMachineError vme && !(cause instanceof StackOverflowError)) {
                throw vme;
            }
            return none("binding glibc failed: os.arch=" + osArch + " error=" + cause + "; pure-Java fallback");
        }
    }

    private static Outcome none(String reason) {
        LOG.log(System.Logger.Level.INFO, "numa=fallback reason={0}", reason);
        return new Outcome(Optional.empty(), Optional.of(reason));
    }
}
