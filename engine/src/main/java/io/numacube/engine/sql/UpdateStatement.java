package io.numacube.engine.sql;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code UPDATE table [[AS] alias] SET column = expression [, ...] [WHERE condition]} as the query that applies it:
 * {@link #values} selects the rows to change and computes their new rows from the old ({@code SELECT CAST(expression
 * AS type) AS column, other_column ... FROM table WHERE condition}: every column of the table in order, an assigned one
 * cast to its column's type, a literal first as PostgreSQL's assignment cast takes it: {@link AssignedLiterals}). A
 * column set to {@code NULL} or {@code DEFAULT} (columns have no other default) is
 * listed by {@link #nullColumns}, since a query has no NULL value to select. The query is a syntax tree built from the
 * statement's own nodes, so an error points into the statement as written. Immutable once parsed (the select list is
 * fresh per call; the FROM and WHERE are the statement's nodes).
 */
public final class UpdateStatement {

    private static final SqlParserPos POS = SqlParserPos.ZERO;

    private final SqlUpdate update;
    private final String table;

    private UpdateStatement(SqlUpdate update, String table) {
        this.update = update;
        this.table = table;
    }

    /**
     * @throws NumacubeException 42601 for text that does not parse as an UPDATE, 42P01 for a schema other than public
     *     (at the name)
     */
    public static UpdateStatement parse(String sql) {
        return parse(sql, StatementClock.wallClockNow());
    }

    /** As {@link #parse(String)}, its clock functions reading {@code wallClock} ({@link StatementClock#at}). */
    public static UpdateStatement parse(String sql, java.time.LocalDateTime wallClock) {
        SqlNode node = SqlTextParser.parseStatement(sql, wallClock);
        if (!(node instanceof SqlUpdate update)) {
            throw new NumacubeException(
                    NumacubeException.Kind.SYNTAX,
                    "42601",
                    "not an UPDATE statement: expected UPDATE table SET" + " column = expression [, ...] [WHERE ...]",
                    null,
                    null);
        }
        if (!(update.getTargetTable() instanceof SqlIdentifier id)) {
            throw BindErrors.unsupported(update.getTargetTable(), "UPDATE of something other than a table");
        }
        String table = QualifiedNames.table(id);
        QualifiedNames.unqualify(update);
        return new UpdateStatement(update, table);
    }

    /** The table updated. */
    public String table() {
        return table;
    }

    /**
     * The rows' new values: every column of {@code schema} in order, an assigned one as its expression cast to the
     * column's type (a column set to NULL as itself: {@link #nullColumns} says which).
     *
     * @throws NumacubeException 42703 for an assigned column the table lacks, 42601 for a column assigned twice
     */
    public SqlNode values(TableSchema schema) {
        return values(schema, (column, text) -> null);
    }

    /** As {@link #values(TableSchema)}, a quoted literal assigned to a column checked by {@code check} first. */
    public SqlNode values(TableSchema schema, AssignedLiterals.TextCheck check) {
        return values(schema, check, true);
    }

    /**
     * As {@link #values(TableSchema, AssignedLiterals.TextCheck)}; with {@code assignment} false an expression is cast
     * to its column as an explicit CAST would ({@link AssignmentCastOperator} not checked: a write replayed from a log).
     */
    public SqlNode values(TableSchema schema, AssignedLiterals.TextCheck check, boolean assignment) {
        Map<Integer, SqlNode> assigned = assignments(schema);
        SqlNodeList items = new SqlNodeList(POS);
        for (int c = 0; c < schema.size(); c++) {
            ColumnSpec col = schema.column(c);
            SqlNode e = assigned.get(c);
            SqlIdentifier name = new SqlIdentifier(col.name(), POS);
            items.add(
                    e == null || isNull(e)
                            ? name
                            : SqlStdOperatorTable.AS.createCall(POS, cast(e, col, check, assignment), name));
        }
        return select(items);
    }

    /** The indexes of the columns of {@code schema} the statement sets. */
    public java.util.Set<Integer> assignedColumns(TableSchema schema) {
        return assignments(schema).keySet();
    }

    /** The indexes of the columns of {@code schema} set to NULL (or DEFAULT). */
    public List<Integer> nullColumns(TableSchema schema) {
        List<Integer> out = new ArrayList<>();
        assignments(schema).forEach((c, e) -> {
            if (isNull(e)) {
                out.add(c);
            }
        });
        return out;
    }

    private Map<Integer, SqlNode> assignments(TableSchema schema) {
        Map<Integer, SqlNode> out = new HashMap<>();
        SqlNodeList columns = update.getTargetColumnList();
        for (int i = 0; i < columns.size(); i++) {
            SqlIdentifier id = (SqlIdentifier) columns.get(i);
            if (id.names.size() > 1) {
                // PostgreSQL reads x.col as field col of a column x (a composite type), and finds no column x
                throw BindErrors.bindError(
                        id,
                        "42703",
                        "column \"" + id.names.getFirst() + "\" of relation \"" + schema.name()
                                + "\" does not exist — SET names a column of the table without a qualifier");
            }
            String name = id.names.getLast();
            int c = schema.indexOf(name);
            if (c < 0) {
                throw BindErrors.bindError(
                        id, "42703", "column \"" + name + "\" of relation \"" + schema.name() + "\" does not exist");
            }
            if (out.put(c, update.getSourceExpressionList().get(i)) != null) {
                throw BindErrors.bindError(id, "42601", "multiple assignments to same column \"" + name + "\"");
            }
        }
        return out;
    }

    private static boolean isNull(SqlNode e) {
        return (e instanceof SqlLiteral l && l.getTypeName() == SqlTypeName.NULL) || (e.getKind() == SqlKind.DEFAULT);
    }

    /**
     * {@code CAST(e AS type)} for the column's type (the type node as SQL text would give it), at {@code e}'s place;
     * {@code e} itself when it is a literal of that type already ({@code DATE '2024-01-02'}).
     */
    private static SqlNode cast(SqlNode e, ColumnSpec col, AssignedLiterals.TextCheck check, boolean assignment) {
        if (e instanceof SqlLiteral l && typed(l, col)) {
            return e;
        }
        e = AssignedLiterals.checked(e, col, check);
        String type = col.isDecimal()
                ? "DECIMAL(" + col.precision() + "," + col.scale() + ")"
                : switch (col.type()) {
                    case STRING -> "VARCHAR";
                    case INT, LONG -> "BIGINT";
                    case DOUBLE -> "DOUBLE";
                    case DATE -> "DATE";
                    case TIMESTAMP -> "TIMESTAMP";
                    case BOOLEAN -> "BOOLEAN";
                    case DECIMAL -> "DECIMAL(18,3)";
                };
        SqlSelect template = (SqlSelect) SqlTextParser.parse("SELECT CAST(NULL AS " + type + ")");
        SqlNode spec = ((SqlCall) template.getSelectList().get(0)).operand(1);
        return (assignment ? new AssignmentCastOperator(col.name()) : SqlStdOperatorTable.CAST)
                .createCall(e.getParserPosition(), e, spec);
    }

    /** Whether the literal is of the column's type: {@code DATE '...'}, {@code TIMESTAMP '...'}, TRUE or FALSE. */
    private static boolean typed(SqlLiteral literal, ColumnSpec col) {
        String tag = literal instanceof SqlUnknownLiteral u
                ? u.tag
                : literal.getTypeName().getName();
        return switch (col.type()) {
            case DATE -> tag.equalsIgnoreCase("DATE");
            case TIMESTAMP -> tag.equalsIgnoreCase("TIMESTAMP");
            case BOOLEAN -> literal.getTypeName() == SqlTypeName.BOOLEAN;
            default -> false;
        };
    }

    private SqlNode select(SqlNodeList items) {
        SqlNode from = update.getAlias() == null
                ? update.getTargetTable()
                : SqlStdOperatorTable.AS.createCall(POS, update.getTargetTable(), update.getAlias());
        return SqlTerms.select(POS, null, items, from, update.getCondition(), null);
    }
}
