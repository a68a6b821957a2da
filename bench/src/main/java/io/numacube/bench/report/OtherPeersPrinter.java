package io.numacube.bench.report;

import io.numacube.bench.report.BenchReport.OtherPeer;
import io.numacube.bench.report.BenchReport.OtherPeerFigures;
import io.numacube.bench.report.BenchReport.QueryFigures;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Prints the peer section's peers beside DuckDB (ClickHouse, Polars, DuckDB from Python): one line per peer with its
 * version, layout and load, or SKIPPED and why; then one row per query with numacube's median, DuckDB's (default and
 * tuned) ratios and each peer's median and ratio. Stateless and thread-safe.
 */
final class OtherPeersPrinter {

    private OtherPeersPrinter() {}

    static void print(BenchReport.Peers p, PrintStream out) {
        if (p.otherPeers().isEmpty()) {
            return;
        }
        out.println();
        out.println("Peers beside DuckDB, from Python, on the same rows (DuckDB's tables written as Parquet), with the "
                + "same threads, each query timed right after DuckDB's:");
        for (OtherPeer o : p.otherPeers()) {
            if (o.skipped() != null) {
                out.println("  " + o.engine() + ": SKIPPED — " + o.skipped());
            } else {
                out.printf(
                        Locale.ROOT,
                        "  %s: %s; %s; loaded the Parquet files in %.2f s (%.1f M rows/s)%n",
                        o.engine(),
                        o.version(),
                        o.layout(),
                        o.load().seconds(),
                        o.load().rowsPerSecond() / 1e6);
            }
        }
        List<String> ran = p.otherPeers().stream()
                .filter(o -> o.skipped() == null)
                .map(OtherPeer::engine)
                .toList();
        if (ran.isEmpty()) {
            return;
        }
        StringBuilder head =
                new StringBuilder(String.format("  %-4s | %9s | %8s %8s |", "q", "numacube", "DuckDB", "tuned"));
        ran.forEach(e -> head.append(String.format(" %-19s |", e)));
        out.println(head.append(" answers"));
        for (QueryFigures q : p.queries()) {
            out.println(row(q, ran));
        }
        out.println("  cells: median seconds and numacube's speedup (peer median / numacube median); DuckDB = JDBC, "
                + "default settings; tuned = with " + tuning(p) + "; measured on " + p.measuredOn());
    }

    private static String row(QueryFigures q, List<String> ran) {
        StringBuilder line = new StringBuilder(String.format(
                Locale.ROOT,
                "  %-4s | %9.4f | %7.1fx %8s |",
                q.id(),
                q.numacube().medianSeconds(),
                q.speedupVsDuckdb(),
                q.speedupVsDuckdbTuned() == null ? "" : String.format(Locale.ROOT, "%.1fx", q.speedupVsDuckdbTuned())));
        StringBuilder checks = new StringBuilder();
        for (String engine : ran) {
            OtherPeerFigures o = q.otherPeer(engine);
            line.append(
                    o == null
                            ? String.format(" %-19s |", "not run")
                            : String.format(
                                    Locale.ROOT, " %9.4f s %6.1fx |", o.timing().medianSeconds(), o.speedupVsPeer()));
            if (o != null && !o.check().equals("OK")) {
                checks.append(checks.isEmpty() ? "" : "; ").append(o.check());
            }
        }
        return line.append(' ').append(checks.isEmpty() ? "equal" : checks).toString();
    }

    private static String tuning(BenchReport.Peers p) {
        return p.queries().stream()
                .map(QueryFigures::duckdbTuning)
                .filter(java.util.Objects::nonNull)
                .findFirst()
                .orElse("no tuning");
    }
}
