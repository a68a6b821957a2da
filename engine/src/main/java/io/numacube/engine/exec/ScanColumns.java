package io.numacube.engine.exec;

/**
 * The columns a query reads from every morsel and their stored widths: {@link MorselView} slices exactly these.
 *
 * @param columns       the fact columns read, ascending
 * @param bytesPerValue the stored width of every fact column (a dictionary code's width, or 8 for measures),
 *                      indexed by column; equal to every partition's code width
 * @param bytesPerRow   the bytes one row costs over {@code columns}, for the bytes-scanned statistic
 */
record ScanColumns(int[] columns, int[] bytesPerValue, long bytesPerRow) {}
