package io.numacube.engine.exec;

/**
 * The columns a query reads from every morsel and their stored widths: {@link MorselView} slices exactly these.
 * Column indexes past the schema ({@link io.numacube.engine.storage.FactTable#codedIndex}) read a plain column's
 * query-time codes.
 *
 * @param columns       the fact columns read, ascending
 * @param bytesPerValue the stored width of every fact column (a dictionary code's width, or 8 for measures),
 *                      indexed by column; equal to every partition's code width
 * @param coded         per column index, the query-time codes it reads, or null (a stored column)
 * @param bytesPerRow   the bytes one row costs over {@code columns}, for the bytes-scanned statistic
 */
record ScanColumns(
        int[] columns, int[] bytesPerValue, io.numacube.engine.storage.CodedColumns.Coded[] coded, long bytesPerRow) {}
