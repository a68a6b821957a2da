package io.numacube.engine.sqltest;

import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnType;
import java.util.ArrayList;
import java.util.List;

/**
 * A numacube {@link QueryResult} as the text of a {@code .test} file: one line per row, values tab-separated, NULL as
 * {@code NULL}, integers in decimal, doubles as {@link Double#toString}, dates ISO. Also the rows' bits, for the
 * {@code loop} determinism check. Stateless.
 */
final class ResultText {

    private ResultText() {}

    /** Null when every column's type fits its letter (I: INT/LONG, R: DOUBLE, N: DECIMAL, T: STRING, D: DATE, B: BOOLEAN, S: TIMESTAMP), else why not. */
    static String typeMismatch(QueryResult result, String letters) {
        if (result.columnCount() != letters.length()) {
            return "the query has " + result.columnCount() + " columns " + result.columnNames() + " but the record"
                    + " declares " + letters.length() + " (" + letters + ")";
        }
        for (int c = 0; c < letters.length(); c++) {
            ColumnType t = result.columnTypes().get(c);
            char want = switch (t) {
                case INT, LONG -> 'I';
                case DOUBLE -> 'R';
                case STRING -> 'T';
                case DATE -> 'D';
                case BOOLEAN -> 'B';
                case TIMESTAMP -> 'S';
                case DECIMAL -> 'N';
            };
            if (letters.charAt(c) != want) {
                return "column " + (c + 1) + " (" + result.columnNames().get(c) + ") is " + t + ", written '" + want
                        + "', but the record declares '" + letters.charAt(c) + "'";
            }
        }
        return null;
    }

    /** The rows as cells of text, in result order. */
    static List<List<String>> cells(QueryResult result) {
        List<List<String>> rows = new ArrayList<>(result.rowCount());
        for (int r = 0; r < result.rowCount(); r++) {
            List<String> row = new ArrayList<>(result.columnCount());
            for (int c = 0; c < result.columnCount(); c++) {
                row.add(
                        result.isNull(r, c)
                                ? "NULL"
                                : result.columnTypes().get(c) == ColumnType.DOUBLE
                                        ? Double.toString(result.getDouble(r, c))
                                        : result.getString(r, c));
            }
            rows.add(row);
        }
        return rows;
    }

    /** The rows with every double as its raw bits: equal lists mean bit-identical answers. */
    static List<String> bits(QueryResult result) {
        List<String> rows = new ArrayList<>(result.rowCount());
        for (int r = 0; r < result.rowCount(); r++) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < result.columnCount(); c++) {
                line.append(c == 0 ? "" : "\t");
                if (result.isNull(r, c)) {
                    line.append("NULL");
                } else if (result.columnTypes().get(c) == ColumnType.DOUBLE) {
                    double d = result.getDouble(r, c);
                    line.append(d)
                            .append(" (0x")
                            .append(Long.toHexString(Double.doubleToRawLongBits(d)))
                            .append(')');
                } else {
                    line.append(result.getString(r, c));
                }
            }
            rows.add(line.toString());
        }
        return rows;
    }

    /** Cells joined into lines, sorted when {@code rowSort}. */
    static List<String> lines(List<List<String>> cells, boolean rowSort) {
        List<String> lines = new ArrayList<>(
                cells.stream().map(row -> String.join("\t", row)).toList());
        if (rowSort) {
            lines.sort(null);
        }
        return lines;
    }

    /** Rows for a failure message: numbered, at most 40. */
    static String show(List<String> lines) {
        StringBuilder sb = new StringBuilder();
        int n = Math.min(lines.size(), 40);
        for (int i = 0; i < n; i++) {
            sb.append("  ").append(lines.get(i)).append('\n');
        }
        if (lines.size() > n) {
            sb.append("  ... ").append(lines.size() - n).append(" more rows\n");
        }
        return sb.toString();
    }
}
