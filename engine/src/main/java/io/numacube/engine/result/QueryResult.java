package io.numacube.engine.result;

import io.numacube.engine.schema.ColumnType;
import io.numacube.numa.base.NumacubeException;
import java.time.LocalDate;
import java.util.List;

/**
 * The answer of one query: named, typed columns of {@link #rowCount()} rows, plus {@link QueryStats}. Column types are
 * {@link ColumnType}s: dimensions come back as STRING, INT or DATE; COUNT and SUM/MIN/MAX of a LONG column as LONG;
 * MIN/MAX of a TIMESTAMP and timestamp keys as TIMESTAMP; a DECIMAL key, SUM, MIN, MAX or exact arithmetic of DECIMALs as
 * DECIMAL with its {@link #scale}; everything else numeric as DOUBLE. A value is null only for SUM, MIN, MAX or AVG over no rows (a query without
 * GROUP BY whose filter keeps nothing).
 *
 * <p>Column data: a {@code String[]} for STRING, {@code long[]} for INT, DATE (epoch day), LONG, TIMESTAMP
 * (microseconds since 1970-01-01 00:00:00) and DECIMAL (the value times 10^scale), {@code double[]}
 * for DOUBLE. Immutable after construction (the arrays are owned by the result); thread-safe.
 */
public final class QueryResult {

    private final List<String> names;
    private final List<ColumnType> types;
    private final Object[] columns;
    private final boolean[][] nulls;
    private final int[] scales;
    private final int[] precisions;
    private final int rows;
    private final QueryStats stats;

    /**
     * For the engine: wraps column arrays as described in the class comment.
     *
     * @param nulls per column, a null mask of {@code rows} entries, or null when the column has no nulls
     */
    public QueryResult(
            List<String> names,
            List<ColumnType> types,
            Object[] columns,
            boolean[][] nulls,
            int rows,
            QueryStats stats) {
        this(names, types, new int[names.size()], columns, nulls, rows, stats);
    }

    /**
     * As the other constructor, with each column's DECIMAL scale (0 for the other types).
     *
     * @param scales per column, the digits after the point of a DECIMAL column, else 0
     */
    public QueryResult(
            List<String> names,
            List<ColumnType> types,
            int[] scales,
            Object[] columns,
            boolean[][] nulls,
            int rows,
            QueryStats stats) {
        this(names, types, scales, new int[names.size()], columns, nulls, rows, stats);
    }

    /**
     * As the other constructors, with each DECIMAL column's declared precision.
     *
     * @param precisions per column, the declared precision of a DECIMAL column read as it is from a table (a column
     *     reference or a group key that is one), else 0
     */
    public QueryResult(
            List<String> names,
            List<ColumnType> types,
            int[] scales,
            int[] precisions,
            Object[] columns,
            boolean[][] nulls,
            int rows,
            QueryStats stats) {
        this.scales = scales.clone();
        this.precisions = precisions.clone();
        this.names = List.copyOf(names);
        this.types = List.copyOf(types);
        this.columns = columns.clone();
        this.nulls = nulls.clone();
        this.rows = rows;
        this.stats = stats;
    }

    /** The same rows with other statistics. */
    public QueryResult withStats(QueryStats newStats) {
        java.util.Objects.requireNonNull(newStats, "newStats must not be null");
        return new QueryResult(names, types, scales, precisions, columns, nulls, rows, newStats);
    }

    public List<String> columnNames() {
        return names;
    }

    public List<ColumnType> columnTypes() {
        return types;
    }

    /** The index of the first column with this name (case-insensitive), or -1. */
    public int columnIndex(String name) {
        java.util.Objects.requireNonNull(name, "column name must not be null");
        for (int c = 0; c < names.size(); c++) {
            if (names.get(c).equalsIgnoreCase(name)) {
                return c;
            }
        }
        return -1;
    }

    /** A DECIMAL column's digits after the point; 0 for other columns. */
    public int scale(int column) {
        return scales[column];
    }

    /**
     * A DECIMAL column's declared precision where the column is a table's column as it is (PostgreSQL keeps its
     * {@code atttypmod}); 0 for a computed DECIMAL (a SUM, arithmetic: no declared precision) and for other columns.
     */
    public int precision(int column) {
        return precisions[column];
    }

    /** A DECIMAL value exactly, or any integer value as a decimal of scale 0; null for null. */
    public java.math.BigDecimal getDecimal(int row, int column) {
        if (isNull(row, column)) {
            return null;
        }
        if (columns[column] instanceof long[] l
                && (types.get(column) == ColumnType.DECIMAL
                        || types.get(column) == ColumnType.LONG
                        || types.get(column) == ColumnType.INT)) {
            return java.math.BigDecimal.valueOf(l[row], scales[column]);
        }
        throw typeError(column, "getDecimal");
    }

    public int columnCount() {
        return names.size();
    }

    public int rowCount() {
        return rows;
    }

    public QueryStats stats() {
        return stats;
    }

    /** Whether column {@code column} may hold a NULL (false: none of its values is NULL). */
    public boolean mayHoldNulls(int column) {
        if (column < 0 || column >= names.size()) {
            throw new IndexOutOfBoundsException("column out of range: column=" + column + " columns=" + names.size());
        }
        return nulls[column] != null;
    }

    /**
     * Copies the values of rows {@code [from, from + count)} of a column held as longs (INT, DATE, LONG, TIMESTAMP,
     * BOOLEAN as 0/1, DECIMAL as its unscaled value) into {@code to} from index {@code at}, as they are held: a NULL's
     * cell is copied too, its value unspecified (ask {@link #isNull}).
     *
     * @throws NumacubeException INVALID_INPUT for a STRING or DOUBLE column
     */
    public void copyLongs(int column, int from, long[] to, int at, int count) {
        if (count > 0) {
            checkCell(from, column);
            checkRow(from + count - 1);
        }
        if (!(columns[column] instanceof long[] l)) {
            throw typeError(column, "copyLongs");
        }
        System.arraycopy(l, from, to, at, count);
    }

    public boolean isNull(int row, int column) {
        checkCell(row, column);
        return nulls[column] != null && nulls[column][row];
    }

    /**
     * Any value as text: strings as they are, dates ISO, timestamps as DuckDB writes them ({@code 2013-01-01 05:00:00}), booleans {@code true}/{@code false}, numbers by
     * {@code String.valueOf}; null as {@code null}.
     */
    public String getString(int row, int column) {
        if (isNull(row, column)) {
            return null;
        }
        return switch (columns[column]) {
            case String[] s -> s[row];
            case long[] l ->
                switch (types.get(column)) {
                    case DATE -> LocalDate.ofEpochDay(l[row]).toString();
                    case BOOLEAN -> String.valueOf(l[row] != 0);
                    case TIMESTAMP -> io.numacube.engine.schema.Timestamps.format(l[row]);
                    case DECIMAL ->
                        java.math.BigDecimal.valueOf(l[row], scales[column]).toPlainString();
                    default -> String.valueOf(l[row]);
                };
            case double[] d -> String.valueOf(d[row]);
            default -> throw new IllegalStateException("unknown column array: " + columns[column]);
        };
    }

    /**
     * An INT, DATE (epoch day), BOOLEAN (1 for true, 0 for false), TIMESTAMP or LONG value; 0 for null. A DECIMAL is
     * refused: read it with {@link #getDecimal}, {@link #getDouble} or {@link #getString}.
     */
    public long getLong(int row, int column) {
        checkCell(row, column);
        if (columns[column] instanceof long[] l && types.get(column) != ColumnType.DECIMAL) {
            return l[row];
        }
        throw typeError(column, "getLong");
    }

    /** Any numeric value as a double (INT, DATE and LONG converted); 0 for null. */
    public double getDouble(int row, int column) {
        checkCell(row, column);
        return switch (columns[column]) {
            case double[] d -> d[row];
            case long[] l ->
                types.get(column) == ColumnType.DECIMAL
                        ? java.math.BigDecimal.valueOf(l[row], scales[column]).doubleValue()
                        : l[row];
            default -> throw typeError(column, "getDouble");
        };
    }

    /**
     * The value as a Java object: String, Long, LocalDate, Boolean, LocalDateTime (TIMESTAMP), BigDecimal (DECIMAL) or
     * Double; null for null.
     */
    public Object getObject(int row, int column) {
        if (isNull(row, column)) {
            return null;
        }
        return switch (types.get(column)) {
            case STRING -> ((String[]) columns[column])[row];
            case DATE -> LocalDate.ofEpochDay(((long[]) columns[column])[row]);
            case INT, LONG -> ((long[]) columns[column])[row];
            case BOOLEAN -> ((long[]) columns[column])[row] != 0;
            case TIMESTAMP -> io.numacube.engine.schema.Timestamps.toLocalDateTime(((long[]) columns[column])[row]);
            case DOUBLE -> ((double[]) columns[column])[row];
            case DECIMAL -> java.math.BigDecimal.valueOf(((long[]) columns[column])[row], scales[column]);
        };
    }

    private void checkRow(int row) {
        if (row < 0 || row >= rows) {
            throw new IndexOutOfBoundsException("row out of range: row=" + row + " rows=" + rows);
        }
    }

    private void checkCell(int row, int column) {
        checkRow(row);
        if (column < 0 || column >= names.size()) {
            throw new IndexOutOfBoundsException("column out of range: column=" + column + " columns=" + names.size());
        }
    }

    private NumacubeException typeError(int column, String getter) {
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                getter + " does not fit the column type: column=" + names.get(column) + " type=" + types.get(column)
                        + " — use getString or the getter of its type");
    }

    /** The result as an aligned text table (header, rows), for tests and logs. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(String.join(" | ", names)).append('\n');
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < names.size(); c++) {
                sb.append(c == 0 ? "" : " | ").append(getString(r, c));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
