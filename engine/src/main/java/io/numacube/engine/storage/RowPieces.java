package io.numacube.engine.storage;

import java.util.ArrayList;
import java.util.List;

/**
 * A table's partitions cut into pieces of consecutive rows, so that a pass over one column runs on several threads
 * even where the table has a single partition (a subquery's temporary table: TPC-H Q13's 150,000 counts per customer,
 * coded for its GROUP BY at every run). A piece lies within one partition; the pieces cover every row once, in
 * partition and row order. Immutable.
 *
 * @param part index of the partition in the list the pieces were cut from
 * @param from first row of the piece in its partition
 * @param to   row after the last
 */
record RowPieces(int part, int from, int to) {

    /** The most rows of a piece. */
    static final int PIECE_ROWS = 1 << 15;

    /** The system property that, {@code false}, keeps each partition one piece (for an A/B of one process). */
    static final String PROPERTY = "numacube.codeByPieces";

    /** The pieces of {@code parts}: each partition whole, or cut every {@link #PIECE_ROWS} rows. */
    static List<RowPieces> of(List<Partition> parts) {
        boolean cut = !"false".equals(System.getProperty(PROPERTY));
        List<RowPieces> pieces = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            int rows = parts.get(i).rows();
            int step = cut ? PIECE_ROWS : Math.max(1, rows);
            int from = 0;
            do {
                int to = (int) Math.min((long) from + step, rows);
                pieces.add(new RowPieces(i, from, to));
                from = to;
            } while (from < rows);
        }
        return pieces;
    }
}
