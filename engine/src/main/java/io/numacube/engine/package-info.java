/**
 * The cube's public API: {@link io.numacube.engine.Cube} (open, load, generate, query, placement, close), its options
 * and results. Internals live in {@code storage} (placed columnar partitions), {@code sql} (parse and bind),
 * {@code plan} (logical and physical plans) and {@code exec} (morsel-driven execution). Depends on the {@code numa}
 * runtime; the CLI and bench depend on this package.
 */
package io.numacube.engine;
