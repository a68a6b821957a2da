package io.numacube.engine.fuzz;

import io.numacube.engine.result.QueryResult;
import io.numacube.numa.base.NumacubeException;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs generated queries on numacube and DuckDB and records the outcome in a {@link FuzzReport}. An answer from
 * both is compared by {@link ResultMatcher}; an error from both is a match; numacube's unsupported-SQL refusal is
 * counted per construct; numacube's overflow error where DuckDB answers with an integer beyond BIGINT is the
 * documented lack of HUGEINT (README, "Exactness"), counted apart; anything else is a mismatch, reported with the
 * data set's shape, the SQL, both answers and a one-line replay command.
 *
 * <p>Tolerance of double sums: two engines add in different orders, so a sum of {@code n} values may differ by about
 * {@code sqrt(n)·ε·Σ|x|} however small the sum itself (cancellation). Where the relative tolerance fails, the
 * runner asks DuckDB for {@code Σ|x|} (SUM) or {@code max|x|} (AVG) of the argument over all joined rows — an
 * upper bound of the group's — and allows {@value #SUM_ERROR} of it. Not thread-safe.
 */
final class DifferentialRunner {

    /** Allowed error per unit of Σ|x|: far above √(50,000)·2^-53 ≈ 2.5e-14, far below any real difference. */
    static final double SUM_ERROR = 1e-11;

    private final FuzzSettings settings;
    private final FuzzReport report;

    DifferentialRunner(FuzzSettings settings, FuzzReport report) {
        this.settings = settings;
        this.report = report;
    }

    /** Generates query {@code index} for {@code loaded} and checks it. */
    void check(long index, LoadedDataset loaded) {
        FuzzQuery q = QueryGenerator.generate(settings.querySeed(index), loaded.data, settings.nulls());
        QueryResult ours = null;
        Throwable ourError = null;
        long t0 = System.nanoTime();
        try {
            ours = loaded.cube.query(q.sql());
        } catch (RuntimeException | StackOverflowError | AssertionError e) {
            ourError = e;
        }
        long t1 = System.nanoTime();
        report.numacubeNanos += t1 - t0;
        if (ourError != null && EngineErrors.isUnsupported(ourError)) {
            report.unsupported(EngineErrors.construct(ourError));
            return;
        }
        List<Object[]> theirs = null;
        SQLException theirError = null;
        try {
            theirs = loaded.duck.query(q.sql());
        } catch (SQLException e) {
            theirError = e;
        }
        report.duckDbNanos += System.nanoTime() - t1;
        report.compared++;
        judge(index, loaded, q, ours, ourError, theirs, theirError);
    }

    private void judge(
            long index,
            LoadedDataset loaded,
            FuzzQuery q,
            QueryResult ours,
            Throwable ourError,
            List<Object[]> theirs,
            SQLException theirError) {
        if (ourError != null && theirError != null) {
            report.bothFailed(ourError instanceof NumacubeException e ? e.code() : "crash");
        } else if (ourError != null && isHugeintOverflow(ourError, theirs)) {
            report.hugeintOverflow++;
        } else if (ourError != null && isDecimalOverflow(ourError)) {
            report.decimalOverflow++;
        } else if (ourError != null && failsWithoutCuts(loaded, q, ourError)) {
            return;
        } else if (ourError != null && isConditionOverflow(q, ourError)) {
            report.conditionOverflow++;
        } else if (ourError != null) {
            mismatch(index, loaded, q, EngineErrors.category(ourError), "numacube failed: " + ourError, null, theirs);
        } else if (theirError != null && String.valueOf(theirError.getMessage()).contains("Overflow")) {
            // DuckDB evaluates every term of an AND (in a FILTER, say) where numacube stops at a false one
            report.conditionOverflow++;
        } else if (theirError != null) {
            mismatch(index, loaded, q, "duckdb error, numacube answered", "duckdb failed: " + theirError, ours, null);
        } else {
            Map<Integer, Double> tolerances = new HashMap<>();
            String d = ResultMatcher.difference(
                    ours, theirs, q, c -> tolerances.computeIfAbsent(c, k -> tolerance(loaded, q, k)));
            if (d == null) {
                report.sameAnswer++;
            } else {
                mismatch(index, loaded, q, wrongAnswerCategory(q, d), d, ours, theirs);
            }
        }
    }

    /**
     * Whether numacube's error shows in DuckDB once HAVING, ORDER BY, LIMIT and OFFSET are dropped: DuckDB skips
     * work whose rows a cut removes (LIMIT 0 runs nothing) or evaluates a projection only for the groups HAVING keeps,
     * where numacube computes every group's aggregates first. An error there, or a sum beyond BIGINT, is counted as a
     * match of its kind.
     */
    private boolean failsWithoutCuts(LoadedDataset loaded, FuzzQuery q, Throwable ourError) {
        if (!(ourError instanceof NumacubeException ne) || q.core().equals(q.sql())) {
            return false;
        }
        try {
            if (isHugeintOverflow(ourError, loaded.duck.query(q.core()))) {
                report.hugeintOverflow++;
                return true;
            }
            return false;
        } catch (SQLException e) {
            report.bothFailed(ne.code());
            return true;
        }
    }

    /**
     * Whether numacube's error is a BIGINT overflow of an expression in the WHERE clause, which DuckDB did not raise:
     * SQL leaves the evaluation order of AND and OR open, and DuckDB reorders conditions by cost, so a condition
     * that overflows on rows another condition excludes fails in one engine and not the other. Counted apart.
     */
    private static boolean isConditionOverflow(FuzzQuery q, Throwable ourError) {
        if (!(ourError instanceof NumacubeException e) || !"22003".equals(e.code())) {
            return false;
        }
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("BIGINT overflow in (.*?): ").matcher(String.valueOf(e.detail()));
        int where = q.sql().indexOf(" WHERE ");
        if (!m.find() || where < 0) {
            return false;
        }
        int end = q.sql().indexOf(" GROUP BY ", where);
        String condition = q.sql().substring(where, end < 0 ? q.sql().length() : end);
        return bare(condition).contains(bare(m.group(1)));
    }

    /** {@code sql} without parentheses and spaces, in lower case (numacube writes {@code COALESCE} as coalesce). */
    private static String bare(String sql) {
        return sql.replace("(", "").replace(")", "").replace(" ", "").toLowerCase(java.util.Locale.ROOT);
    }

    /** "wrong answer" and where: the row count, or the kind of the first differing column and whether NULL is in it. */
    private static String wrongAnswerCategory(FuzzQuery q, String difference) {
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("^row \\d+ column (\\d+) ").matcher(difference);
        if (!m.find()) {
            return "wrong answer: row count";
        }
        Output o = q.outputs().get(Integer.parseInt(m.group(1)) - 1);
        String what = o.kind() == Output.Kind.KEY ? "group key" : o.sql().replaceAll("\\(.*", "");
        String nulls = difference.contains("=null") ? " (a NULL on one side)" : "";
        return "wrong answer: " + what + nulls;
    }

    /**
     * numacube's overflow (22003) of an exact DECIMAL computation (its message says so): numacube computes DECIMALs in
     * 64 bits, DuckDB in 128, so a product of two wide DECIMALs, or a BIGINT near 2^62 raised to a DECIMAL's scale,
     * fails in numacube alone. A failure, never an answer, so it hides no wrong answer.
     */
    private static boolean isDecimalOverflow(Throwable ourError) {
        return ourError instanceof NumacubeException e
                && "22003".equals(e.code())
                && String.valueOf(e.getMessage()).contains("computes DECIMALs exactly in 64 bits");
    }

    /**
     * numacube's overflow (22003) where DuckDB's answer holds an integer beyond BIGINT, or a DECIMAL whose unscaled
     * value is: no HUGEINT in numacube.
     */
    private static boolean isHugeintOverflow(Throwable ourError, List<Object[]> theirs) {
        if (!(ourError instanceof NumacubeException e) || !"22003".equals(e.code())) {
            return false;
        }
        BigDecimal max = BigDecimal.valueOf(Long.MAX_VALUE);
        BigDecimal min = BigDecimal.valueOf(Long.MIN_VALUE);
        for (Object[] row : theirs) {
            for (Object v : row) {
                // a DECIMAL whose unscaled value needs more than 64 bits: numacube holds DECIMALs as unscaled longs
                if (v instanceof BigDecimal b
                        && (b.compareTo(max) > 0
                                || b.compareTo(min) < 0
                                || b.unscaledValue().bitLength() > 63)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static double tolerance(LoadedDataset loaded, FuzzQuery q, int column) {
        Output o = q.outputs().get(column);
        if (o.argument() == null) {
            return 0;
        }
        String x = "ABS(CAST((" + o.argument() + ") AS DOUBLE))";
        try {
            Object[] row = loaded.duck
                    .query("SELECT SUM(" + x + "), MAX(" + x + ") FROM " + q.from())
                    .get(0);
            Object scale = o.kind() == Output.Kind.SUM ? row[0] : row[1];
            double s = scale == null ? 0 : ((Number) scale).doubleValue();
            return Double.isFinite(s) ? SUM_ERROR * s : 0;
        } catch (SQLException e) {
            return 0;
        }
    }

    private void mismatch(
            long index,
            LoadedDataset loaded,
            FuzzQuery q,
            String category,
            String difference,
            QueryResult ours,
            List<Object[]> theirs) {
        String nullTags =
                q.tags().stream().filter(t -> t.startsWith("null:")).toList().toString();
        report.mismatch(
                settings.nulls() ? category + " " + nullTags : category,
                "MISMATCH query=" + index + " seed=" + settings.seed() + "\n" + loaded.data.shape() + "\nsql: "
                        + q.sql() + "\nconstructs: " + q.tags() + "\n" + difference + "\nnumacube:\n"
                        + (ours == null ? "  (error)" : ResultMatcher.dump(ours, 8)) + "\nduckdb:\n"
                        + (theirs == null ? "  (error)" : ResultMatcher.dump(theirs, 8)) + "\nreplay: "
                        + settings.replayQuery(index));
    }
}
