package io.numacube.engine;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.sql.DerivedTables;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;

/**
 * A query's answer staged as the rows of a temporary table ({@link Subqueries}: a WITH item's, a derived table's, a set
 * operation's): its columns, named as the answer's or by a column list, and every row, NULLs included.
 *
 * <p>Invariants: the table's columns are the answer's, in order, of the same types, except an INT column held as plain
 * BIGINT ({@link #plainInt}) and a DECIMAL keeping its precision and scale (the widest precision where the answer has
 * none, not declared: {@link ColumnSpec#undeclaredDecimal}); its column names are distinct ignoring case; its rows are the answer's in order; its BIGINT columns are loaded
 * plain, not coded ({@link TableStaging#keepLongsPlain}). Errors name the subquery's position. Stateless and
 * thread-safe.
 */
final class ResultStaging {

    /**
     * A temporary table of more rows than this holds an integer column as plain BIGINT, not coded with a dictionary
     * (EXISTS over TPC-H's lineitem gives 1.4M distinct order keys: a join reads them as they are).
     */
    static final int CODED_INT_ROWS = 1 << 16;

    private ResultStaging() {}

    /**
     * The columns of the temporary table of {@code r}, the answer of {@code query} (named {@code name} in errors),
     * named by {@code columns} (null: the answer's own names).
     */
    static List<ColumnSpec> columns(QueryResult r, SqlNode query, String name, SqlNodeList columns) {
        List<ColumnSpec> specs = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        if (columns != null && columns.size() != r.columnCount()) {
            throw Subqueries.error(
                    columns, "42601", name + " names " + columns.size() + " columns for " + r.columnCount());
        }
        for (int c = 0; c < r.columnCount(); c++) {
            String col = columns != null
                    ? ((SqlIdentifier) columns.get(c)).getSimple()
                    : r.columnNames().get(c);
            if (!seen.add(col.toLowerCase(Locale.ROOT))) {
                throw Subqueries.error(query, "42701", name + " has two columns named " + col + " — give them aliases");
            }
            ColumnType type = r.columnTypes().get(c);
            specs.add(
                    type == ColumnType.DECIMAL
                            ? r.precision(c) > 0
                                    ? ColumnSpec.decimal(col, r.precision(c), r.scale(c))
                                    : ColumnSpec.undeclaredDecimal(col, r.scale(c))
                            : ColumnSpec.of(
                                    col,
                                    type == ColumnType.INT && plainInt(name, col, r.rowCount())
                                            ? ColumnType.LONG
                                            : type));
        }
        return specs;
    }

    /** Every row of {@code r}, staged under {@code schema} (its {@link #columns}). */
    static TableStaging staged(QueryResult r, TableSchema schema) {
        TableStaging staging = new TableStaging(schema);
        staging.keepLongsPlain();
        io.numacube.engine.ingest.StagingBlock block =
                ResultBlock.enabled() ? ResultBlock.of(r, staging.schema()) : null;
        if (block != null) {
            staging.append(block);
            return staging;
        }
        staging.reserve(r.rowCount());
        ColumnType[] types = r.columnTypes().toArray(ColumnType[]::new);
        for (int row = 0; row < r.rowCount(); row++) {
            for (int c = 0; c < types.length; c++) {
                set(staging, r, row, c, types[c]);
            }
            staging.endRow();
        }
        return staging;
    }

    /**
     * Whether an INT column of a temporary table of {@code rows} rows is held as plain BIGINT: a large table's, and at
     * any size a key column that a decorrelated subquery's table is joined INNER by (only joined on, never an answer's
     * column), which a dictionary would code value by value at every run (TPC-H Q4's 57,000 keys). A NOT EXISTS
     * table's keys, joined LEFT, stay coded: plain, TPC-H Q22 ran slower.
     */
    private static boolean plainInt(String table, String column, int rows) {
        return rows > CODED_INT_ROWS || DerivedTables.isInnerJoinKey(table, column);
    }

    private static void set(TableStaging staging, QueryResult r, int row, int c, ColumnType t) {
        if (r.isNull(row, c)) {
            staging.setNull(c);
            return;
        }
        setValue(staging, c, t, r, row);
    }

    /**
     * Stores the value of row {@code row}, column {@code c} of {@code r}, not NULL, into column {@code c} of the row
     * being staged, read as type {@code t}: a DATE as its day number, a BOOLEAN as true where not 0, a DECIMAL as its
     * unscaled value at the scale it has.
     */
    static void setValue(TableStaging staging, int c, ColumnType t, QueryResult r, int row) {
        switch (t) {
            case STRING -> staging.setString(c, r.getString(row, c));
            case DATE -> staging.setDate(c, (int) r.getLong(row, c));
            case INT, LONG, TIMESTAMP -> staging.setLong(c, r.getLong(row, c));
            case DOUBLE -> staging.setDouble(c, r.getDouble(row, c));
            case BOOLEAN -> staging.setBoolean(c, r.getLong(row, c) != 0);
            case DECIMAL ->
                staging.setLong(c, r.getDecimal(row, c).unscaledValue().longValueExact());
        }
    }
}
