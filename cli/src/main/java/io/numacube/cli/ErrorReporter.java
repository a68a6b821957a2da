package io.numacube.cli;

import io.numacube.numa.base.NumacubeException;
import java.io.UncheckedIOException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns a failed command into one line on stderr and an exit code: {@value #USAGE_ERROR} for what the user can fix
 * (bad input, bad SQL, a binding that cannot be honoured, an unreadable file), {@value #INTERNAL_ERROR} for the rest.
 * Internal errors also print their stack trace when {@code NUMACUBE_DEBUG} is set. Stateless.
 */
public final class ErrorReporter implements IExecutionExceptionHandler {

    /** Exit code for errors the user can fix. */
    public static final int USAGE_ERROR = 2;
    /** Exit code for bugs and platform failures. */
    public static final int INTERNAL_ERROR = 1;

    @Override
    public int handleExecutionException(Exception e, CommandLine cmd, ParseResult parsed) {
        var err = cmd.getErr();
        if (e instanceof NumacubeException ne) {
            err.println("numacube: " + ne.getMessage());
            if (ne.kind() == NumacubeException.Kind.INTERNAL && System.getenv("NUMACUBE_DEBUG") != null) {
                ne.printStackTrace(err);
            }
            err.flush();
            return switch (ne.kind()) {
                case SYNTAX, INVALID_INPUT, BIND -> USAGE_ERROR;
                default -> INTERNAL_ERROR;
            };
        }
        if (e instanceof UncheckedIOException io) {
            err.println("numacube: " + io.getCause().getMessage());
            err.flush();
            return USAGE_ERROR;
        }
        return reportUnexpected(e, err);
    }

    /** One line (two with the hint) for anything unexpected, Errors included; the stack trace only with
     * {@code NUMACUBE_DEBUG}. Returns {@value #INTERNAL_ERROR}. */
    static int reportUnexpected(Throwable e, java.io.PrintWriter err) {
        String msg = e instanceof StackOverflowError
                ? "the query is nested too deeply for the evaluator"
                : String.valueOf(e);
        err.println("numacube: internal error: " + msg.lines().findFirst().orElse(""));
        if (System.getenv("NUMACUBE_DEBUG") != null) {
            e.printStackTrace(err);
        } else {
            err.println("numacube: (set NUMACUBE_DEBUG=1 for the stack trace)");
        }
        err.flush();
        return INTERNAL_ERROR;
    }
}
