package io.numacube.engine.exec;

import io.numacube.engine.storage.CodeWidth;
import io.numacube.engine.storage.CodedColumns;
import io.numacube.engine.storage.Partition;
import java.lang.foreign.MemorySegment;

/**
 * The columns of one morsel that a query reads, as slices starting at the morsel's first row (so kernels index them
 * with an {@code int} row within the morsel), and the null bits of the measures that hold a NULL in it. Reused morsel after morsel by one worker task; not thread-safe.
 */
final class MorselView {

    final MemorySegment[] columns;
    final CodeWidth[] widths;
    /** Per column read, the partition's null bits when this morsel holds a NULL in that measure, else null. */
    final MemorySegment[] nulls;
    /** The morsel's first row in its partition (null bits are indexed by partition row). */
    long first;

    int rows;

    MorselView(int columnCount) {
        columns = new MemorySegment[columnCount];
        widths = new CodeWidth[columnCount];
        nulls = new MemorySegment[columnCount];
    }

    /** Points the view at rows {@code [first, first + rows)} of {@code p} for the columns {@code scan} reads. */
    void set(Partition p, int first, int rows, ScanColumns scan) {
        this.rows = rows;
        this.first = first;
        int morsel = first / p.morselRows();
        int[] read = scan.columns();
        for (int i = 0; i < read.length; i++) {
            int c = read[i];
            int w = scan.bytesPerValue()[c];
            CodedColumns.Coded coded = scan.coded()[c];
            if (coded != null) {
                columns[c] = coded.codes()[p.id()].asSlice((long) first * w, (long) rows * w);
                widths[c] = coded.width();
                nulls[c] = null;
                continue;
            }
            columns[c] = p.column(c).asSlice((long) first * w, (long) rows * w);
            widths[c] = p.width(c);
            nulls[c] = p.morselHasNulls(c, morsel) ? p.nulls(c) : null;
        }
    }
}
