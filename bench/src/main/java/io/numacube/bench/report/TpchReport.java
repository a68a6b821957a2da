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
            double firstRunOverSteady) {

        public boolean supported() {
            return text != null;
        }

        /** Whether numacube answered and its answer differed from DuckDB's. */
        public boolean failed() {
            return check.startsWith("FAILED");
        }
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
            double need = q.id().equals("Q1") || q.id().equals("Q6") ? 10 : 5;
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
