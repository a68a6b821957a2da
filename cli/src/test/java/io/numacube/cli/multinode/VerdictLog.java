package io.numacube.cli.multinode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Appends one line per finished test invocation to {@code <numavm.results>/host-verdicts.tsv}:
 * "KEY<TAB>TEST<TAB>PASS|FAIL|ABORTED|DISABLED<TAB>MESSAGE", where KEY is the invocation's display name
 * ("two-node/plain" for a check, "two-node" for a whole configuration) and TEST the method name. The stage's
 * summary table joins it with checks.tsv. Writes nothing when the property is unset. Thread-safe (appends are
 * synchronized on the class).
 */
public final class VerdictLog implements TestWatcher {

    static final String FILE = "host-verdicts.tsv";

    @Override
    public void testSuccessful(ExtensionContext context) {
        write(context, "PASS", "");
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        write(context, "FAIL", String.valueOf(cause.getMessage()));
    }

    @Override
    public void testAborted(ExtensionContext context, Throwable cause) {
        write(context, "ABORTED", String.valueOf(cause.getMessage()));
    }

    @Override
    public void testDisabled(ExtensionContext context, Optional<String> reason) {
        write(context, "DISABLED", reason.orElse(""));
    }

    private static void write(ExtensionContext context, String status, String message) {
        String dir = System.getProperty(VmResults.PROPERTY);
        if (dir == null || dir.isBlank() || !Files.isDirectory(Path.of(dir))) {
            return;
        }
        String line = String.join(
                        "\t",
                        oneLine(context.getDisplayName()),
                        context.getTestMethod().map(m -> m.getName()).orElse("?"),
                        status,
                        oneLine(message))
                + "\n";
        synchronized (VerdictLog.class) {
            try {
                Files.writeString(
                        Path.of(dir, FILE),
                        line,
                        StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static String oneLine(String s) {
        String flat = s.replaceAll("[\\t\\r\\n]+", " ").strip();
        return flat.length() > 400 ? flat.substring(0, 400) + "..." : flat;
    }
}
