package io.numacube.cli.output;

import io.numacube.numa.base.IoReason;
import io.numacube.numa.base.NumacubeException;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;

/**
 * Where a command's results go (standard output), checked: {@link PrintWriter} and {@link java.io.PrintStream}
 * swallow write errors, so a full disk or {@code > /dev/full} would otherwise end in exit status 0 and a truncated
 * file. {@link #stdout()} remembers the first write error of the process's standard output, so that
 * {@link #check} can name it (e.g. "No space left on device"); for any other writer {@link #check} still sees that a
 * write failed. Thread-safe: the remembered error is published through a volatile field.
 */
public final class ResultStream extends FilterOutputStream {

    private static volatile IOException stdoutFailure;

    private ResultStream(OutputStream out) {
        super(out);
    }

    /** The process's standard output, unbuffered, remembering its first write error (for {@link #check}). */
    public static OutputStream stdout() {
        return new ResultStream(new FileOutputStream(FileDescriptor.out));
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            remember(e);
            throw e;
        }
    }

    @Override
    public void write(int b) throws IOException {
        try {
            out.write(b);
        } catch (IOException e) {
            remember(e);
            throw e;
        }
    }

    @Override
    public void flush() throws IOException {
        try {
            out.flush();
        } catch (IOException e) {
            remember(e);
            throw e;
        }
    }

    private static void remember(IOException e) {
        if (stdoutFailure == null) {
            stdoutFailure = e;
        }
    }

    /**
     * Flushes {@code out} and fails when any write to it failed.
     *
     * @throws NumacubeException PLATFORM (exit status 1): "cannot write the results to stdout: error=... — ..."
     */
    public static void check(PrintWriter out) {
        if (out.checkError()) {
            IOException e = stdoutFailure;
            throw new NumacubeException(
                    NumacubeException.Kind.PLATFORM,
                    "cannot write the results to stdout: error="
                            + (e != null ? IoReason.of(e) : "write failed")
                            + " — the output is incomplete; check the disk "
                            + "space or the pipe it goes to");
        }
    }
}
