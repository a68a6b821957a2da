package io.numacube.bench.peer;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * A query answer in an engine-neutral form, so that numacube's and DuckDB's answers can be compared.
 *
 * <p>Every cell is normalised by {@link #normalize(Object)} to one of: {@link String} (strings, and dates as ISO
 * {@code yyyy-mm-dd}), {@link Long} (every integral type), {@link Double} (every floating type), {@link BigDecimal}
 * (a DECIMAL, exactly, without trailing zeros: 1.50 and 1.5000 are the same value), or {@code null}. Immutable; safe to share between threads.
 *
 * @param columns column labels, as the engine gave them (informative only: comparison is by position)
 * @param rows    rows, each of {@code columns.size()} normalised cells
 */
public record ResultTable(List<String> columns, List<List<Object>> rows) {

    public ResultTable {
        columns = List.copyOf(columns);
        List<List<Object>> copy = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException("every row needs one cell per column: columns=" + columns.size()
                        + " cells=" + row.size() + " row=" + row);
            }
            List<Object> normalized = new ArrayList<>(row.size());
            for (Object cell : row) {
                normalized.add(normalize(cell));
            }
            copy.add(java.util.Collections.unmodifiableList(normalized));
        }
        rows = java.util.Collections.unmodifiableList(copy);
    }

    /** The neutral form of one value (see the type's contract); unknown types become their {@code toString()}. */
    public static Object normalize(Object v) {
        return switch (v) {
            case null -> null;
            case Long l -> l;
            case Integer i -> (long) i;
            case Short s -> (long) s;
            case Byte b -> (long) b;
            case BigInteger b -> b.bitLength() < 64 ? (Object) b.longValue() : (Object) b.doubleValue();
            case Double d -> d;
            case Float f -> (double) f;
            case BigDecimal d -> d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
            case LocalDate d -> d.toString();
            case java.sql.Date d -> d.toLocalDate().toString();
            case CharSequence s -> s.toString();
            default -> v.toString();
        };
    }

    public int rowCount() {
        return rows.size();
    }
}
