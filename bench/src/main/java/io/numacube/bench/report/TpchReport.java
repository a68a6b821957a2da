package io.numacube.bench.report;

import io.numacube.bench.stats.Summary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The tpch section's figures (issue 16): TPC-H loaded from the same CSV and Parquet files by numacube and DuckDB, and
 * the 22 queries, each run by numacube in its official text and, where numacube refused that and a rewrite exists,
 * in the rewrite; every answer numacube gave checked against DuckDB's on the same text before any time counts.
 * Immutable.
 *
 * <p>Units: seconds; rows/s; "steady" is the best of the timed runs in one process, after warm-up; "first run" is the
 * first run of the query in a fresh JVM that loaded the tables from Parquet (numacube) or the first run of the query
 * in the bench's DuckDB connection (DuckDB).
 *
 * @param scaleFactor   the TPC-H scale factor
 * @param threads       numacube's workers and DuckDB's threads
 * @param dataDir       where the cached files are
 * @param duckdbVersion DuckDB's version()
 * @param loads         every table loaded by each engine from each format
 * @param queries       Q1..Q22
 * @param targets       the goals, one line each, "met" / "NOT met" with the figures
 */
public record TpchReport(
        double scaleFactor,
        int threads,
        String dataDir,
        String duckdbVersion,
        List<TableLoad> loads,
        List<QueryFigures> queries,
        List<String> targets) {

    public TpchReport {
        loads = List.copyOf(loads);
        queries = List.copyOf(queries);
        targets = List.copyOf(targets);
    }

    /**
     * One table loaded by one engine from one format.
     *
     * @param engine        numacube or DuckDB
     * @param format        CSV or Parquet
     * @param table         the TPC-H table
     * @param rows          its rows
     * @param seconds       wall seconds until the table was queryable
     * @param stageSeconds  numacube: the part of {@code seconds} spent reading the file into a staging table (the rest
     *                      places it); NaN (null in the JSON) for DuckDB
     * @param rowsPerSecond rows / seconds
     */
    public record TableLoad(
            String engine,
            String format,
            String table,
            long rows,
            double seconds,
            double stageSeconds,
            double rowsPerSecond) {}

    /**
     * One TPC-H query.
     *
     * @param id                     Q1..Q22
     * @param official               "ran", or "refused: " and the first line of numacube's error on the official text
     * @param rewrite                null when the official text ran or there is no rewrite; else "ran" or
     *                               "refused: ..." for the rewrite
     * @param text                   "official" or "rewrite": the text that was checked and timed; null when numacube
     *                               answered neither
     * @param check                  "OK"; "FAILED: " and the first difference from DuckDB's answer; or
     *                               "unsupported: " and numacube's reason (the last text tried)
     * @param numacube               numacube's steady runs, or null when not timed
     * @param duckdb                 DuckDB's steady runs on the same text, or null when not timed
     * @param speedupVsDuckdb        DuckDB best / numacube best (above 1: numacube faster); NaN when not timed
     * @param numacubeFirstRun       numacube's first run in a fresh JVM that ran no query before, seconds; NaN when
     *                               not measured
     * @param numacubeFirstRunWarmed numacube's first run in a fresh JVM after the engine's warm-up ({@code
     *                               Warmup}, as {@code serve} runs it before its ready line), seconds; NaN when not
     *                               measured
     * @param duckdbFirstRun         DuckDB's first run of the query in its process, seconds; NaN when not run
     * @param firstRunOverSteady     numacube's first run after the warm-up / numacube best steady (the goal's
     *                               figure); NaN when not measured
     * @param profile                where numacube's time went in one more steady run after the timed ones, or null
     *                               when not timed
     */
    public record QueryFigures(
            String id,
            String official,
            String rewrite,
            String text,
            String check,
            Summary numacube,
            Summary duckdb,
            double speedupVsDuckdb,
            double numacubeFirstRun,
            double numacubeFirstRunWarmed,
            double duckdbFirstRun,
            double firstRunOverSteady,
            Profile profile) {

        public boolean supported() {
            return text != null;
        }

        /** Whether numacube answered and its answer differed from DuckDB's. */
        public boolean failed() {
            return check.startsWith("FAILED");
        }
    }

    /**
     * Where one steady numacube run of a query spent its time, from the engine's own {@code QueryStats}: so that a
     * query slower than its goal says why (time outside the scan: subqueries placed as temporary tables, parsing and
     * binding; the plan; the scan's bytes and speed; the result's finish).
     *
     * @param wallSeconds   the whole query
     * @param planSeconds   planning the outer query (join indexes, query-time coding, masks)
     * @param scanSeconds   the morsels' scan
     * @param finishSeconds merging, sorting and building the result
     * @param rowsScanned   rows the scan read
     * @param bytesRead     bytes the scan read
     * @param plan          the outer query's plan in words
     */
    public record Profile(
            double wallSeconds,
            double planSeconds,
            double scanSeconds,
            double finishSeconds,
            long rowsScanned,
            long bytesRead,
            String plan) {

        /** The time outside plan, scan and finish: parsing, binding and running the subqueries first. */
        public double otherSeconds() {
            return Math.max(0, wallSeconds - planSeconds - scanSeconds - finishSeconds);
        }

        /** What the scan read per second, GB/s; NaN for a scan too short to time. */
        public double scanGigabytesPerSecond() {
            return scanSeconds <= 0 ? Double.NaN : bytesRead / scanSeconds / 1e9;
        }

        /** One line: the phases as shares of the run, the scan's rows, bytes and speed. */
        public String why() {
            return String.format(
                    Locale.ROOT,
                    "%.1f ms: subqueries, parse and bind %.0f%%, plan %.0f%%, scan %.0f%% (%,d rows, %.1f MB at %.1f"
                            + " GB/s), finish %.0f%%",
                    wallSeconds * 1e3,
                    share(otherSeconds()),
                    share(planSeconds),
                    share(scanSeconds),
                    rowsScanned,
                    bytesRead / 1e6,
                    scanGigabytesPerSecond(),
                    share(finishSeconds));
        }

        private double share(double seconds) {
            return wallSeconds <= 0 ? 0 : 100 * seconds / wallSeconds;
        }
    }

    /** The steady speed-up over DuckDB the issue asks of query {@code id}: 10x for the scans Q1 and Q6, else 5x. */
    public static double steadyGoal(String id) {
        return id.equals("Q1") || id.equals("Q6") ? 10 : 5;
    }

    /** The figures with the goals computed from them. */
    public static TpchReport of(
            double scaleFactor,
            int threads,
            String dataDir,
            String duckdbVersion,
            List<TableLoad> loads,
            List<QueryFigures> queries) {
        List<String> targets = new ArrayList<>();
        for (QueryFigures q : queries) {
            if (!q.supported() || q.failed()) {
                continue;
            }
            double need = steadyGoal(q.id());
            targets.add(String.format(
                    Locale.ROOT,
                    "%s >= %.0fx DuckDB steady: %s (%.1fx)",
                    q.id(),
                    need,
                    q.speedupVsDuckdb() >= need ? "met" : "NOT met",
                    q.speedupVsDuckdb()));
            if (!Double.isNaN(q.firstRunOverSteady())) {
                targets.add(String.format(
                        Locale.ROOT,
                        "%s first run (after the warm-up) <= 1.5x steady: %s (%.2fx)",
                        q.id(),
                        q.firstRunOverSteady() <= 1.5 ? "met" : "NOT met",
                        q.firstRunOverSteady()));
            }
        }
        long supported = queries.stream().filter(QueryFigures::supported).count();
        targets.add(0, "queries numacube answers: " + supported + " of " + queries.size());
        return new TpchReport(scaleFactor, threads, dataDir, duckdbVersion, loads, queries, targets);
    }

    /** Whether every answer numacube gave equalled DuckDB's (a refused query is not a failure). */
    public boolean allEqual() {
        return queries.stream().noneMatch(QueryFigures::failed);
    }
}
