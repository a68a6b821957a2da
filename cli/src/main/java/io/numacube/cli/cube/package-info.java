/**
 * What the cube subcommands ({@code generate}, {@code load}, {@code query}, {@code demo}) share: the cube options and
 * data-source options ({@link io.numacube.cli.cube.CubeSettings}, {@link io.numacube.cli.cube.DataSources}), loading
 * CSV files and generated trades into a cube ({@link io.numacube.cli.cube.CubeLoader}), the progress bar
 * ({@link io.numacube.cli.cube.ProgressBar}), and printing results and placements
 * ({@link io.numacube.cli.cube.ResultPrinter}, {@link io.numacube.cli.cube.PlacementPrinter}), and splitting SQL
 * scripts ({@link io.numacube.cli.cube.SqlScript}). Depends on the engine,
 * {@code io.numacube.cli.output} and picocli; nothing in the engine depends on it.
 */
package io.numacube.cli.cube;
