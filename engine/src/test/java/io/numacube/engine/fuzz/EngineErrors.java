package io.numacube.engine.fuzz;

import io.numacube.numa.base.NumacubeException;
import java.util.Locale;

/**
 * Reads numacube's errors for the fuzz runner: whether one is a refusal of unsupported SQL (SQLSTATE 0A000, or a
 * message that says unsupported), which construct it names, and a short category for grouping failures. Stateless.
 */
final class EngineErrors {

    private EngineErrors() {}

    static boolean isUnsupported(Throwable t) {
        if (t instanceof NumacubeException e) {
            return "0A000".equals(e.code())
                    || String.valueOf(e.detail()).toLowerCase(Locale.ROOT).contains("unsupported");
        }
        return false;
    }

    /** The construct an unsupported-SQL error names, without position or values. */
    static String construct(Throwable t) {
        String d = t instanceof NumacubeException e && e.detail() != null ? e.detail() : String.valueOf(t.getMessage());
        d = d.replaceFirst("(?i)^unsupported SQL: ", "");
        return generalize(d);
    }

    /** A failure's category: the exception type and SQLSTATE and its message with names and numbers blurred. */
    static String category(Throwable t) {
        if (t instanceof NumacubeException e) {
            return "numacube error " + e.code() + ": " + generalize(String.valueOf(e.detail()));
        }
        return "numacube crash " + t.getClass().getSimpleName() + ": " + generalize(String.valueOf(t.getMessage()));
    }

    private static String generalize(String detail) {
        String d = detail.replaceAll("'[^']*'", "'…'")
                .replaceAll("-?\\d+(\\.\\d+)?([eE]-?\\d+)?", "N")
                .replaceAll("=\\S+", "=…");
        int cut = d.indexOf(" — ");
        d = cut > 0 ? d.substring(0, cut) : d;
        return d.length() > 90 ? d.substring(0, 90) + "…" : d;
    }
}
