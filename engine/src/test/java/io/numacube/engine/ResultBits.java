package io.numacube.engine;

import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnType;
import java.util.ArrayList;
import java.util.List;

/** A result's cells as text for bit-for-bit comparisons: doubles as their raw bits, so -0.0 and the last bit count. */
final class ResultBits {

    private ResultBits() {}

    /** Every cell, row by row: {@code NULL}, a double's raw bits in hex, or the value's text. */
    static List<String> of(QueryResult r) {
        List<String> out = new ArrayList<>();
        for (int row = 0; row < r.rowCount(); row++) {
            for (int c = 0; c < r.columnCount(); c++) {
                if (r.isNull(row, c)) {
                    out.add("NULL");
                } else if (r.columnTypes().get(c) == ColumnType.DOUBLE) {
                    out.add(Long.toHexString(Double.doubleToRawLongBits(r.getDouble(row, c))));
                } else {
                    out.add(String.valueOf(r.getObject(row, c)));
                }
            }
        }
        return out;
    }
}
