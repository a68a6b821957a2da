package io.numacube.engine.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a fuzz run found: queries compared and how each ended (same answer, both engines refused it, numacube's
 * documented refusal of a BIGINT-overflowing sum that DuckDB answers as HUGEINT, an overflow in a condition that
 * DuckDB's evaluation order skipped, unsupported SQL per construct),
 * and the mismatches with everything needed to replay them. Failure categories group mismatches by a short cause
 * (for the NULL run's summary). Not thread-safe: one runner fills it.
 */
final class FuzzReport {

    /** Mismatches printed in full ({@code -Dfuzz.printed}, 15 unless set); the rest are only counted by category. */
    private static final int MAX_PRINTED = Integer.getInteger("fuzz.printed", 15);

    int compared;
    int sameAnswer;
    int bothFailed;
    int hugeintOverflow;
    /** numacube's 22003 on a DECIMAL computation beyond 64 bits, which DuckDB does in 128 bits. */
    int decimalOverflow;

    int conditionOverflow;
    int tlpChecks;
    int tlpSkipped;
    long loadNanos;
    long numacubeNanos;
    long duckDbNanos;
    final Map<String, Integer> unsupported = new TreeMap<>();
    final Map<String, Integer> bothFailedByCode = new TreeMap<>();
    final Map<String, Integer> failureCategories = new TreeMap<>();
    final List<String> mismatches = new ArrayList<>();

    void unsupported(String construct) {
        unsupported.merge(construct, 1, Integer::sum);
    }

    void bothFailed(String code) {
        bothFailed++;
        bothFailedByCode.merge(code, 1, Integer::sum);
    }

    void mismatch(String category, String details) {
        failureCategories.merge(category, 1, Integer::sum);
        mismatches.add(details);
    }

    /** A summary: counts, unsupported constructs, failure categories and the first mismatches in full. */
    String summary(FuzzSettings settings, long elapsedMillis) {
        StringBuilder sb = new StringBuilder("random query run: seed=")
                .append(settings.seed())
                .append(" nulls=")
                .append(settings.nulls())
                .append(" compared=")
                .append(compared)
                .append(" same=")
                .append(sameAnswer)
                .append(" bothFailed=")
                .append(bothFailed)
                .append(bothFailedByCode)
                .append(" hugeintOverflow=")
                .append(hugeintOverflow)
                .append(" decimalOverflow=")
                .append(decimalOverflow)
                .append(" conditionOverflow=")
                .append(conditionOverflow)
                .append(" tlpChecks=")
                .append(tlpChecks)
                .append(" tlpSkipped=")
                .append(tlpSkipped)
                .append(" mismatches=")
                .append(mismatches.size())
                .append(" time=")
                .append(elapsedMillis)
                .append("ms (loading ")
                .append(loadNanos / 1_000_000)
                .append("ms, numacube queries ")
                .append(numacubeNanos / 1_000_000)
                .append("ms, duckdb queries ")
                .append(duckDbNanos / 1_000_000)
                .append("ms)\n");
        sb.append("unsupported (numacube 0A000) by construct: ")
                .append(unsupported)
                .append('\n');
        sb.append("mismatch categories: ").append(failureCategories).append('\n');
        for (String m : mismatches.subList(0, Math.min(MAX_PRINTED, mismatches.size()))) {
            sb.append("----\n").append(m).append('\n');
        }
        if (mismatches.size() > MAX_PRINTED) {
            sb.append("... and ").append(mismatches.size() - MAX_PRINTED).append(" more\n");
        }
        return sb.toString();
    }
}
