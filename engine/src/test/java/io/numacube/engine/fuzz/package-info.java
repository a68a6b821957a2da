/**
 * The seeded random-query tester: {@link io.numacube.engine.fuzz.DataGenerator} draws data sets of every column type
 * (shapes in {@link io.numacube.engine.fuzz.DataShape}), {@link io.numacube.engine.fuzz.QueryGenerator} draws
 * aggregation queries within numacube's SQL, {@link io.numacube.engine.fuzz.DifferentialRunner} compares numacube's
 * answers with DuckDB's and {@link io.numacube.engine.fuzz.TlpOracle} checks ternary logic partitioning on numacube
 * alone; {@link io.numacube.engine.fuzz.RandomQueryTest} runs them. Depends on the engine's public API and the test
 * helpers in {@code io.numacube.engine.testing}; nothing depends on it.
 */
package io.numacube.engine.fuzz;
