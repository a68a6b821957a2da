package io.numacube.bench.report;

import io.numacube.bench.report.TpchReport.QueryFigures;
import io.numacube.bench.report.TpchReport.TableLoad;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** Prints a {@link TpchReport} as plain-text tables: the loads, the 22 queries, the refusals, the goals. Stateless. */
final class TpchPrinter {

    /** The most characters of a plan printed; the JSON report has it whole. */
    private static final int PLAN_CHARS = 400;

    private TpchPrinter() {}

    static void print(TpchReport t, PrintStream out) {
        out.println();
        out.printf(
                Locale.ROOT,
                "TPC-H SF %s (%d threads; files in %s; %s): every answer numacube gave checked against DuckDB's first%n",
                t.scaleFactor(),
                t.threads(),
                t.dataDir(),
                t.duckdbVersion());
        printLoads(t.loads(), out);
        printQueries(t.queries(), out);
        for (String target : t.targets()) {
            out.println("  goal: " + target);
        }
    }

    private static void printLoads(List<TableLoad> loads, PrintStream out) {
        out.printf(
                Locale.ROOT,
                "  %-9s %-8s %12s %12s %12s %12s %12s%n",
                "load",
                "format",
                "lineitem s",
                "reading s",
                "M rows/s",
                "all tables s",
                "M rows/s");
        for (String engine : List.of("numacube", "DuckDB")) {
            for (String format : List.of("CSV", "Parquet")) {
                List<TableLoad> ls = loads.stream()
                        .filter(l -> l.engine().equals(engine) && l.format().equals(format))
                        .toList();
                TableLoad li = ls.stream()
                        .filter(l -> l.table().equals("lineitem"))
                        .findFirst()
                        .orElse(null);
                if (li == null) {
                    continue;
                }
                double seconds = ls.stream().mapToDouble(TableLoad::seconds).sum();
                long rows = ls.stream().mapToLong(TableLoad::rows).sum();
                out.printf(
                        Locale.ROOT,
                        "  %-9s %-8s %12.2f %12s %12.2f %12.2f %12.2f%n",
                        engine,
                        format,
                        li.seconds(),
                        seconds(li.stageSeconds()),
                        li.rowsPerSecond() / 1e6,
                        seconds,
                        rows / seconds / 1e6);
            }
        }
    }

    private static void printQueries(List<QueryFigures> queries, PrintStream out) {
        out.printf(
                Locale.ROOT,
                "  %-4s %-9s %-8s %11s %11s %8s %11s %11s %11s %8s%n",
                "",
                "text",
                "check",
                "numacube s",
                "DuckDB s",
                "speedup",
                "nc 1st cold",
                "nc 1st warm",
                "duck 1st s",
                "1st/stdy");
        for (QueryFigures q : queries) {
            if (!q.supported()) {
                continue;
            }
            out.printf(
                    Locale.ROOT,
                    "  %-4s %-9s %-8s %11s %11s %8s %11s %11s %11s %8s%n",
                    q.id(),
                    q.text(),
                    q.failed() ? "FAILED" : "OK",
                    seconds(q.numacube() == null ? Double.NaN : q.numacube().min()),
                    seconds(q.duckdb() == null ? Double.NaN : q.duckdb().min()),
                    ratio(q.speedupVsDuckdb()),
                    seconds(q.numacubeFirstRun()),
                    seconds(q.numacubeFirstRunWarmed()),
                    seconds(q.duckdbFirstRun()),
                    ratio(q.firstRunOverSteady()));
        }
        out.println("  (seconds: steady = best of the timed runs in one process; numacube's first run in a fresh JVM,"
                + " cold and after the engine's warm-up as serve runs it; 1st/stdy = warm first run / steady)");
        for (QueryFigures q : queries) {
            if (q.failed()) {
                out.println("  " + q.id() + " " + q.check());
            } else if (!q.supported()) {
                out.printf(
                        Locale.ROOT,
                        "  %-4s unsupported (DuckDB %s s): official %s%s%n",
                        q.id(),
                        seconds(q.duckdbFirstRun()),
                        q.official(),
                        q.rewrite() == null ? "" : "; rewrite " + q.rewrite());
            } else if (q.rewrite() != null) {
                out.println("  " + q.id() + " official text " + q.official() + "; the rewrite ran");
            }
        }
        printWhy(queries, out);
    }

    /** For each answered query short of its steady goal, where its time went and its plan. */
    private static void printWhy(List<QueryFigures> queries, PrintStream out) {
        for (QueryFigures q : queries) {
            if (q.profile() == null || q.speedupVsDuckdb() >= TpchReport.steadyGoal(q.id())) {
                continue;
            }
            String plan = q.profile().plan();
            out.printf(
                    Locale.ROOT,
                    "  %-4s short of %.0fx, why: %s%n       plan: %s%n",
                    q.id(),
                    TpchReport.steadyGoal(q.id()),
                    q.profile().why(),
                    plan.length() > PLAN_CHARS ? plan.substring(0, PLAN_CHARS) + " ..." : plan);
        }
    }

    private static String seconds(double s) {
        return Double.isNaN(s) ? "-" : String.format(Locale.ROOT, "%.4f", s);
    }

    private static String ratio(double r) {
        return Double.isNaN(r) ? "-" : String.format(Locale.ROOT, "%.2fx", r);
    }
}
