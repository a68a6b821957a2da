package io.numacube.engine.fuzz;

import io.numacube.engine.result.QueryResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Ternary logic partitioning, on numacube alone: for a random condition {@code p}, the rows where {@code p} is true,
 * where {@code NOT p} is true and where {@code p IS NULL} split the table, so per group their COUNT(*) and SUM of an
 * integer measure add up to the unfiltered query's. Without NULLs (the default) the third part is empty and is not
 * queried ({@code p IS NULL} on a condition is SQL numacube may refuse); with NULLs it is. Half the checks group by a
 * dimension, so the per-group paths are partitioned too. A check whose queries fail is skipped (counted), and an
 * unsupported construct counted. Not thread-safe.
 */
final class TlpOracle {

    private final FuzzSettings settings;
    private final FuzzReport report;

    TlpOracle(FuzzSettings settings, FuzzReport report) {
        this.settings = settings;
        this.report = report;
    }

    /** Runs TLP check {@code index} on {@code loaded}. */
    void check(long index, LoadedDataset loaded) {
        Random rnd = new Random(settings.tlpSeed(index));
        JoinPlan join = rnd.nextInt(3) == 0 ? JoinPlan.USING_D : JoinPlan.NONE;
        QueryContext ctx = new QueryContext(rnd, loaded.data, join, settings.nulls());
        String p = new PredicateGenerator(ctx, new ScalarGenerator(ctx)).condition(rnd.nextInt(4));
        String key = rnd.nextBoolean() ? null : ctx.pick(FactColumns.DIMENSIONS);
        String select = "SELECT " + (key == null ? "" : key + ", ") + "COUNT(*), SUM(l0), SUM(i0) FROM " + ctx.from();
        String group = key == null ? "" : " GROUP BY " + key;
        List<String> parts = new ArrayList<>(
                List.of(select + group, select + " WHERE " + p + group, select + " WHERE NOT (" + p + ")" + group));
        if (settings.nulls()) {
            parts.add(select + " WHERE (" + p + ") IS NULL" + group);
        }
        List<Map<String, long[]>> answers = new ArrayList<>();
        for (String sql : parts) {
            try {
                answers.add(totals(loaded.cube.query(sql), key != null));
            } catch (RuntimeException | StackOverflowError e) {
                if (EngineErrors.isUnsupported(e)) {
                    report.unsupported("TLP: " + EngineErrors.construct(e));
                } else {
                    report.tlpSkipped++;
                }
                return;
            }
        }
        report.tlpChecks++;
        compare(index, loaded, parts, answers);
    }

    private void compare(long index, LoadedDataset loaded, List<String> parts, List<Map<String, long[]>> answers) {
        Map<String, long[]> sum = new TreeMap<>();
        for (Map<String, long[]> part : answers.subList(1, answers.size())) {
            part.forEach((k, v) -> {
                long[] t = sum.computeIfAbsent(k, x -> new long[3]);
                for (int i = 0; i < 3; i++) {
                    t[i] += v[i];
                }
            });
        }
        Map<String, long[]> total = answers.get(0);
        sum.values().removeIf(v -> v[0] == 0);
        total.values().removeIf(v -> v[0] == 0);
        String want = text(total);
        String got = text(sum);
        if (!want.equals(got)) {
            report.mismatch(
                    "TLP partitions do not add up",
                    "TLP MISMATCH check=" + index + " seed=" + settings.seed() + "\n" + loaded.data.shape()
                            + "\nqueries:\n  " + String.join("\n  ", parts) + "\ntotal (key=[count, sum l0, sum i0]): "
                            + abbreviate(want) + "\nparts added: " + abbreviate(got) + "\nreplay: "
                            + settings.replayTlp(index));
        }
    }

    /** Per group key text (or "" without GROUP BY): COUNT(*), SUM(l0), SUM(i0), a NULL sum as 0. */
    private static Map<String, long[]> totals(QueryResult r, boolean grouped) {
        Map<String, long[]> out = new TreeMap<>();
        int first = grouped ? 1 : 0;
        for (int row = 0; row < r.rowCount(); row++) {
            String k = grouped ? String.valueOf(r.getString(row, 0)) : "";
            long[] v = new long[3];
            for (int i = 0; i < 3; i++) {
                v[i] = r.isNull(row, first + i) ? 0 : r.getLong(row, first + i);
            }
            out.put(k, v);
        }
        return out;
    }

    private static String text(Map<String, long[]> m) {
        StringBuilder sb = new StringBuilder();
        m.forEach((k, v) ->
                sb.append(k).append('=').append(java.util.Arrays.toString(v)).append(' '));
        return sb.toString();
    }

    private static String abbreviate(String s) {
        return s.length() > 600 ? s.substring(0, 600) + "…" : s;
    }
}
