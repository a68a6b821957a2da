package io.numacube.engine.exec;

import io.numacube.engine.storage.CodeWidth;
import io.numacube.engine.storage.Partition;
import java.lang.foreign.MemorySegment;

/**
 * The columns of one morsel that a query reads, as slices starting at the morsel's first row (so kernels index them
 * with an {@code int} row within the morsel). Reused morsel after morsel by one worker task; not thread-safe.
 */
final class MorselView {

    final MemorySegment[] columns;
    final CodeWidth[] widths;
    int rows;

    MorselView(int columnCount) {
        columns = new MemorySegment[columnCount];
        widths = new CodeWidth[columnCount];
    }

    /** Points the view at rows {@code [first, first + rows)} of {@code p} for the columns in {@code read}. */
    void set(Partition p, int first, int rows, int[] read, int[] bytesPerValue) {
        this.rows = rows;
        for (int i = 0; i < read.length; i++) {
            int c = read[i];
            int w = bytesPerValue[c];
            columns[c] = p.column(c).asSlice((long) first * w, (long) rows * w);
            widths[c] = p.width(c);
        }
    }
}
