package io.numacube.engine.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.testing.DuckDb;
import org.junit.jupiter.api.Test;

/**
 * Seeded random queries on seeded random data, answered by numacube and by DuckDB and compared, plus the TLP oracle
 * on numacube alone. The default run is fixed by {@link FuzzSettings#DEFAULT_SEED}; {@code -Dfuzz.seed},
 * {@code -Dfuzz.queries}, {@code -Dfuzz.nulls=false} (no NULLs) change it, and {@code -Dfuzz.query=N} or {@code -Dfuzz.tlp=N}
 * replay one case (each mismatch prints its command line). The summary (counts, time, unsupported constructs,
 * mismatches in full) goes to standard output.
 */
class RandomQueryTest {

    @Test
    void randomQueriesGiveDuckDbsAnswersAndTlpPartitionsAddUp() throws Exception {
        FuzzSettings settings = FuzzSettings.fromSystemProperties();
        FuzzReport report = new FuzzReport();
        long start = System.nanoTime();
        boolean replay = settings.onlyQuery() >= 0 || settings.onlyTlp() >= 0;
        try (DuckDb duck = new DuckDb()) {
            Run run = new Run(settings, report, duck);
            if (settings.onlyQuery() >= 0) {
                long q = settings.onlyQuery();
                run.dataset((int) (q / FuzzSettings.QUERIES_PER_DATASET), q, q + 1, 0, 0);
            } else if (settings.onlyTlp() >= 0) {
                long t = settings.onlyTlp();
                run.dataset((int) (t / FuzzSettings.TLP_PER_DATASET), 0, 0, t, t + 1);
            } else {
                run.all();
            }
        }
        String summary = report.summary(settings, (System.nanoTime() - start) / 1_000_000);
        System.out.println(summary);
        assertTrue(report.mismatches.isEmpty(), summary);
        assertTrue(
                replay || report.compared >= settings.queries() * 0.8,
                "most generated queries must be compared, not refused as unsupported: " + summary);
    }

    /** One run's data sets, each loaded once for its differential queries and its TLP checks. */
    private record Run(FuzzSettings settings, FuzzReport report, DuckDb duck) {

        void all() throws Exception {
            int perSet = FuzzSettings.QUERIES_PER_DATASET;
            int tlpPerSet = FuzzSettings.TLP_PER_DATASET;
            int datasets = Math.max(
                    (settings.queries() + perSet - 1) / perSet, (settings.tlpChecks() + tlpPerSet - 1) / tlpPerSet);
            for (int d = 0; d < datasets; d++) {
                dataset(
                        d,
                        (long) d * perSet,
                        Math.min(settings.queries(), (long) (d + 1) * perSet),
                        (long) d * tlpPerSet,
                        Math.min(settings.tlpChecks(), (long) (d + 1) * tlpPerSet));
            }
        }

        /** Loads data set {@code d}, runs differential queries [q0, q1) and TLP checks [t0, t1) on it. */
        void dataset(int d, long q0, long q1, long t0, long t1) throws Exception {
            long loadStart = System.nanoTime();
            FuzzDataset data = DataGenerator.generate(DataShape.random(d, settings.datasetSeed(d), settings.nulls()));
            DifferentialRunner differential = new DifferentialRunner(settings, report);
            TlpOracle tlp = new TlpOracle(settings, report);
            try (LoadedDataset loaded = LoadedDataset.load(data, duck)) {
                report.loadNanos += System.nanoTime() - loadStart;
                for (long q = q0; q < q1; q++) {
                    differential.check(q, loaded);
                }
                for (long t = t0; t < t1; t++) {
                    tlp.check(t, loaded);
                }
            }
        }
    }
}
