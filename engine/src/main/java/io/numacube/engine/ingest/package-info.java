/**
 * Loading data into a cube: {@link io.numacube.engine.ingest.TableStaging} (typed on-heap rows that
 * {@code Cube.loadTable} places off-heap), and the CSV reader in {@code ingest.csv}. Depends on {@code schema},
 * {@code storage}, {@code workers} and {@code gen}; nothing in storage or exec depends on it.
 */
package io.numacube.engine.ingest;
