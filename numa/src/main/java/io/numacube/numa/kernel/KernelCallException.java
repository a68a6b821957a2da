package io.numacube.numa.kernel;

import io.numacube.numa.base.NumacubeException;

/**
 * A kernel call failed. Carries the call's name and errno so that callers can decide on a fallback (EPERM from a
 * seccomp filter, ENOSYS, EINVAL for an unsupported mode) and users see what the kernel said.
 */
public final class KernelCallException extends NumacubeException {

    private final String call;
    private final int errno;

    public KernelCallException(String call, int errno, String details) {
        super(
                Kind.PLATFORM,
                call + " failed: errno=" + Errno.name(errno) + "(" + errno + ")"
                        + (details == null || details.isEmpty() ? "" : " " + details));
        this.call = call;
        this.errno = errno;
    }

    public String call() {
        return call;
    }

    public int errno() {
        return errno;
    }

    public String errnoName() {
        return Errno.name(errno);
    }

    /** True for the errors that mean "not allowed or not there here" (EPERM, EACCES, ENOSYS), where a fallback is right. */
    public boolean isRefusal() {
        return errno == Errno.EPERM || errno == Errno.EACCES || errno == Errno.ENOSYS;
    }
}
