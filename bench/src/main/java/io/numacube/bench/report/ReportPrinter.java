package io.numacube.bench.report;

import io.numacube.bench.report.BenchReport.PolicyPoint;
import io.numacube.bench.report.BenchReport.PolicySeries;
import io.numacube.bench.report.BenchReport.QueryFigures;
import io.numacube.bench.report.BenchReport.ScalePoint;
import io.numacube.bench.report.BenchReport.StabilityRow;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/** Prints a {@link BenchReport} as aligned plain-text tables. Stateless and thread-safe. */
public final class ReportPrinter {

    private ReportPrinter() {}

    public static void print(BenchReport r, PrintStream out) {
        Machine m = r.machine();
        out.println();
        out.println("numacube bench — " + m.cpuModel() + ", " + m.logicalCpus() + " CPUs, " + m.numaNodes()
                + " NUMA node(s), " + gib(m.memoryBytes()) + " GiB; JDK " + m.jdk());
        out.println("  rows=" + String.format(Locale.ROOT, "%,d", r.settings().rows()) + " seed="
                + r.settings().seed() + " threads=" + r.settings().threads()
                + (r.settings().quick() ? " (--quick)" : "") + " warmups="
                + r.settings().warmups()
                + String.format(
                        Locale.ROOT, " (and at least %.1f s)", r.settings().warmupSeconds())
                + " timed runs=" + r.settings().repetitions()
                + String.format(
                        Locale.ROOT,
                        " (fewer, at least 3, when they would take over %.0f s)",
                        r.settings().timeBudgetSeconds())
                + " section rows="
                + String.format(Locale.ROOT, "%,d", r.settings().sectionRows()));
        out.println("  measured: " + r.settings().engine());
        for (String note : r.notes()) {
            out.println("  note: " + note);
        }
        if (!r.contention().isEmpty()) {
            StringBuilder line = new StringBuilder("  machine contention (CPU share used by other processes): ");
            for (int i = 0; i < r.contention().size(); i++) {
                BenchReport.SectionContention c = r.contention().get(i);
                line.append(i == 0 ? "" : ", ")
                        .append(c.section())
                        .append(' ')
                        .append(
                                Double.isNaN(c.othersCpuFraction())
                                        ? "n/a"
                                        : String.format(Locale.ROOT, "%.0f%%", 100 * c.othersCpuFraction()));
            }
            out.println(line);
        }
        for (String error : r.errors()) {
            out.println("  FAILED section: " + error);
        }
        printSections(r, out);
    }

    private static void printSections(BenchReport r, PrintStream out) {
        if (r.probe() != null) {
            printProbe(r.probe(), out);
        }
        if (r.peers() != null) {
            printPeers(r.peers(), out);
        }
        if (r.policies() != null) {
            printPolicies(r.policies(), out);
        }
        if (r.scaling() != null) {
            printScaling(r.scaling(), out);
        }
        if (r.stability() != null) {
            printStability(r.stability(), out);
        }
        if (r.fileLoads() != null) {
            printFileLoads(r.fileLoads(), out);
        }
        if (r.tpch() != null) {
            TpchPrinter.print(r.tpch(), out);
        }
        if (r.serve() != null) {
            ServePrinter.print(r.serve(), out);
        }
        if (r.migration() != null) {
            printMigration(r.migration(), out);
        }
    }

    private static void printMigration(BenchReport.Migration m, PrintStream out) {
        out.println();
        out.printf(
                Locale.ROOT,
                "Migration: %,d rows on data nodes %s, %.1f MiB of partitions per pass%n",
                m.rows(),
                m.dataNodes(),
                m.bytesPerPass() / 1048576.0);
        out.printf(
                Locale.ROOT,
                "  copy path, no limit, idle: median %.2f GB/s (min %.2f, max %.2f, cv %.1f%%, %d passes)%n",
                m.gbPerSecond().median(),
                m.gbPerSecond().min(),
                m.gbPerSecond().max(),
                100 * m.gbPerSecond().cv(),
                m.gbPerSecond().count());
        for (BenchReport.QueryLatency q : List.of(m.idle(), m.duringLimited(), m.duringUnlimited())) {
            out.printf(
                    Locale.ROOT,
                    "  query %-22s p50 %7.1f ms  p99 %7.1f ms  max %7.1f ms  (%d queries, %.1f MiB moved in %d passes)%n",
                    q.phase(),
                    q.p50Ms(),
                    q.p99Ms(),
                    q.maxMs(),
                    q.queries(),
                    q.bytesMoved() / 1048576.0,
                    q.passes());
        }
        out.printf(
                Locale.ROOT,
                "  p99 during a move / idle: %.2fx at %d MiB/s, %.2fx without a limit%n",
                m.duringLimited().p99Ms() / m.idle().p99Ms(),
                m.rateBytesPerSecond() >> 20,
                m.duringUnlimited().p99Ms() / m.idle().p99Ms());
        out.println("  note: " + m.note());
    }

    private static void printProbe(BenchReport.Probe p, PrintStream out) {
        out.println();
        out.println("Memory read bandwidth (the limit): " + p.kernel() + "; " + p.threading());
        for (BenchReport.ProbeFigure f : List.of(p.oneThread(), p.allThreads())) {
            out.printf(
                    Locale.ROOT,
                    "  %d thread(s): best %.1f GB/s, median %.1f GB/s, cv %.1f%% (%d passes over %d MiB)%n",
                    f.threads(),
                    f.bestGbPerSecond(),
                    f.gbPerSecond().median(),
                    100 * f.gbPerSecond().cv(),
                    f.gbPerSecond().count(),
                    f.bytes() >> 20);
        }
    }

    private static void printPeers(BenchReport.Peers p, PrintStream out) {
        out.println();
        out.printf(
                Locale.ROOT,
                "Peer comparison: %,d rows; load numacube %.2f s (%.1f M rows/s), DuckDB %.2f s "
                        + "(%.1f M rows/s, %s); %s%n",
                p.rows(),
                p.numacubeLoad().seconds(),
                p.numacubeLoad().rowsPerSecond() / 1e6,
                p.duckdbLoad().seconds(),
                p.duckdbLoad().rowsPerSecond() / 1e6,
                p.duckdbLoadPath(),
                p.duckdbVersion());
        if (!p.measuredOn().isEmpty()) {
            out.println("  measured on: " + p.measuredOn());
        }
        boolean loop = p.queries().stream().anyMatch(q -> q.bareLoop() != null);
        printPeerHeads(loop, out);
        for (QueryFigures q : p.queries()) {
            printPeerRow(q, loop, out);
        }
        if (p.nullPnl() != null) {
            printNullVariant(p.nullPnl(), out);
        }
        printPeerNotes(p, loop, out);
        OtherPeersPrinter.print(p, out);
    }

    /** The two heading lines of the peer table; {@code loop} adds the bare-loop columns. */
    private static void printPeerHeads(boolean loop, PrintStream out) {
        out.printf(
                "%-4s %-26s | %-9s %-9s %-8s %-7s %-6s | %-9s %-9s | %-7s | %-9s %-7s |%s %s%n",
                "",
                "",
                "numacube",
                "",
                "",
                "",
                "",
                "DuckDB",
                "",
                "",
                "DuckDB",
                "",
                loop ? String.format(" %-9s %-7s %-8s |", "bare loop", "", "") : "",
                "");
        out.printf(
                "%-4s %-26s | %9s %9s %8s %7s %6s | %9s %9s | %7s | %9s %7s |%s %s%n",
                "q",
                "query",
                "median s",
                "M rows/s",
                "GB/s",
                "%probe",
                "cv%",
                "median s",
                "M rows/s",
                "speedup",
                "tuned s",
                "speedup",
                loop ? String.format(" %9s %7s %8s |", "median s", "%probe", "nc/loop") : "",
                "answers");
    }

    private static void printPeerRow(QueryFigures q, boolean loop, PrintStream out) {
        String tuned = q.duckdbTuned() == null
                ? ""
                : String.format(Locale.ROOT, "%.4f", q.duckdbTuned().medianSeconds());
        String tunedSpeedup =
                q.speedupVsDuckdbTuned() == null ? "" : String.format(Locale.ROOT, "%.1fx", q.speedupVsDuckdbTuned());
        String loopCells = !loop
                ? ""
                : q.bareLoop() == null
                        ? String.format(" %9s %7s %8s |", "", "", "")
                        : String.format(
                                Locale.ROOT,
                                " %9.4f %6.0f%% %7.2fx |",
                                q.bareLoop().medianSeconds(),
                                100 * q.bareLoop().fractionOfProbe(),
                                q.overheadVsBareLoop());
        String check = q.check()
                + (q.bareLoopCheck() == null || q.bareLoopCheck().equals("OK")
                        ? ""
                        : "; bare loop " + q.bareLoopCheck());
        out.printf(
                Locale.ROOT,
                "%-4s %-26s | %9.4f %9.0f %8.1f %6.0f%% %6.1f | %9.4f %9.0f | %6.1fx | %9s %7s |%s %s%n",
                q.id(),
                q.title(),
                q.numacube().medianSeconds(),
                q.numacube().rowsPerSecond() / 1e6,
                q.numacube().gbPerSecond(),
                100 * q.numacubeFractionOfProbe(),
                100 * q.numacube().seconds().cv(),
                q.duckdb().medianSeconds(),
                q.duckdb().rowsPerSecond() / 1e6,
                q.speedupVsDuckdb(),
                tuned,
                tunedSpeedup,
                loopCells,
                check);
    }

    /** The NULL variant of Q1, under the peer table's rows. */
    private static void printNullVariant(BenchReport.NullVariant v, PrintStream out) {
        out.printf(
                Locale.ROOT,
                "%-7s Q1 with %.0f%% of pnl NULL: numacube %.4f s, %.2fx its null-free Q1 timed beside it (%.4f s);"
                        + " DuckDB %.4f s (%.2fx its Q1) -> %.1fx; answers %s%n",
                v.id(),
                100 * v.pnlNullFraction(),
                v.numacube().medianSeconds(),
                v.slowdownVsNullFree(),
                v.numacubeNullFree().medianSeconds(),
                v.duckdb().medianSeconds(),
                v.duckdbSlowdownVsNullFree(),
                v.speedupVsDuckdb(),
                v.check());
    }

    /** The lines under the peer table: what its columns mean, zone-map skips, the targets and the answers. */
    private static void printPeerNotes(BenchReport.Peers p, boolean loop, PrintStream out) {
        if (loop) {
            out.println("  bare loop = the bench's plain Java loop over the same rows in off-heap columns (no planner, "
                    + "no morsels, no placement); nc/loop = numacube median / bare-loop median (1.00x = no overhead)");
        }
        p.queries().stream()
                .filter(q -> q.duckdbTuning() != null)
                .findFirst()
                .ifPresent(q -> out.println("  DuckDB tuned = default settings plus " + q.duckdbTuning()
                        + " (PERF-FACTS: lets its perfect-hash aggregate cover 250k groups of integer keys; the generated book is"
                        + " VARCHAR, so expect little from it here); speedups are DuckDB median / numacube median"));
        p.queries().stream()
                .filter(q -> q.numacubeStats() != null && q.numacubeStats().morselsSkipped() > 0)
                .forEach(q -> out.printf(
                        Locale.ROOT,
                        "  %s: numacube skipped %d of %d morsels (zone maps) and read "
                                + "%.0f%% of the bytes counted; GB/s and %%probe count the whole columns%n",
                        q.id(),
                        q.numacubeStats().morselsSkipped(),
                        q.numacubeStats().morsels() + q.numacubeStats().morselsSkipped(),
                        100.0 * q.numacubeStats().bytesRead() / q.bytesRead()));
        out.println("  targets (issues 4 and 10): " + String.join("; ", p.targets()));
        out.println("  answers: "
                + (p.allEqual()
                        ? "all queries gave the same answers in every engine"
                        : "FAILED — some answers differ (see the answers column)"));
    }

    private static void printPolicies(BenchReport.Policies p, PrintStream out) {
        out.println();
        out.println("Placement policies: queries/s against concurrent streams (mix " + String.join(",", p.mix()) + ")");
        out.println("  " + p.note());
        TreeSet<Integer> streams = new TreeSet<>();
        p.series().forEach(s -> s.points().forEach(pt -> streams.add(pt.streams())));
        StringBuilder head = new StringBuilder(String.format("  %-14s %8s", "policy", "load s"));
        streams.forEach(n -> head.append(String.format("  %6s", n + " st")));
        out.println(head);
        for (PolicySeries s : p.series()) {
            StringBuilder line =
                    new StringBuilder(String.format(Locale.ROOT, "  %-14s %8.2f", s.policy(), s.loadSeconds()));
            for (int n : streams) {
                double qps = s.points().stream()
                        .filter(pt -> pt.streams() == n)
                        .mapToDouble(PolicyPoint::queriesPerSecond)
                        .findFirst()
                        .orElse(Double.NaN);
                line.append(String.format(Locale.ROOT, "  %6.1f", qps));
            }
            out.println(line);
        }
    }

    private static void printScaling(BenchReport.Scaling s, PrintStream out) {
        out.println();
        out.println("Scaling by " + s.dimension() + " (mix " + String.join(",", s.mix()) + ")");
        out.println("  " + s.note());
        printScalePoints("Amdahl (fixed data)", s.amdahl(), out);
        printScalePoints("Gustafson (data grows with threads; time should stay flat)", s.gustafson(), out);
    }

    private static void printScalePoints(String title, List<ScalePoint> points, PrintStream out) {
        out.println("  " + title);
        out.printf(
                "    %7s %5s %14s %10s %6s %8s %10s %9s%n",
                "threads", "nodes", "rows", "median s", "cv%", "speedup", "efficiency", "serial s");
        for (ScalePoint pt : points) {
            out.printf(
                    Locale.ROOT,
                    "    %7d %5d %,14d %10.4f %6.1f %7.2fx %9.0f%% %9s%n",
                    pt.threads(),
                    pt.nodes(),
                    pt.rows(),
                    pt.seconds().median(),
                    100 * pt.seconds().cv(),
                    pt.speedup(),
                    100 * pt.efficiency(),
                    Double.isNaN(pt.serialFraction()) ? "" : String.format(Locale.ROOT, "%.2f", pt.serialFraction()));
        }
        out.println("    serial s = Karp-Flatt metric: the serial share of the work the speedup implies");
    }

    private static void printStability(BenchReport.Stability s, PrintStream out) {
        out.println();
        out.println("Stability: fresh cube per repeat (mix " + String.join(",", s.mix()) + ")");
        out.println("  " + s.note());
        out.printf(
                "  %-28s %7s %10s %10s %10s %14s %14s%n",
                "configuration", "repeats", "median s", "min s", "max s", "cv across", "cv within");
        for (StabilityRow row : s.rows()) {
            out.printf(
                    Locale.ROOT,
                    "  %-28s %7d %10.4f %10.4f %10.4f %13.1f%% %13.1f%%%n",
                    row.configuration(),
                    row.repeats(),
                    row.acrossRepeats().median(),
                    row.acrossRepeats().min(),
                    row.acrossRepeats().max(),
                    100 * row.acrossRepeats().cv(),
                    100 * row.withinRepeats());
        }
    }

    private static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.1f", bytes / (double) (1L << 30));
    }

    private static void printFileLoads(BenchReport.FileLoads f, PrintStream out) {
        out.println();
        out.printf(
                Locale.ROOT,
                "Loading %,d trades from files (%d threads; Parquet %.1f MiB, CSV %.1f MiB), median of %d run(s):%n",
                f.rows(),
                f.threads(),
                f.parquetBytes() / 1048576.0,
                f.csvBytes() / 1048576.0,
                f.loads().getFirst().seconds().count());
        out.printf(
                Locale.ROOT,
                "  %-9s %-8s %9s %9s %12s  %s%n",
                "engine",
                "format",
                "seconds",
                "read s",
                "M rows/s",
                "how");
        for (BenchReport.FileLoad l : f.loads()) {
            out.printf(
                    Locale.ROOT,
                    "  %-9s %-8s %9.3f %9s %12.2f  %s%n",
                    l.engine(),
                    l.format(),
                    l.seconds().median(),
                    l.readSeconds() == null
                            ? "-"
                            : String.format(Locale.ROOT, "%.3f", l.readSeconds().median()),
                    l.rowsPerSecond() / 1e6,
                    l.how());
        }
        out.printf(
                Locale.ROOT,
                "  numacube Parquet / CSV: %.2fx; numacube / DuckDB: Parquet %.2fx, CSV %.2fx (rows/s; above 1: numacube"
                        + " faster)%n",
                f.parquetVsCsv(),
                f.parquetVsDuckdb(),
                f.csvVsDuckdb());
    }
}
