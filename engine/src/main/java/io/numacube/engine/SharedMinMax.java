package io.numacube.engine;

import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.sql.DerivedTables;
import io.numacube.engine.sql.SqlTerms;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.Litmus;

/**
 * The grouped MIN/MAX tables {@link Decorrelation} made of one query's EXISTS and NOT EXISTS with an inequality, so that
 * a later one reads its MIN and MAX from an earlier one's table instead of grouping its table once more (TPC-H Q21: the
 * NOT EXISTS over {@code lineitem l3} adds {@code l3.l_receiptdate > l3.l_commitdate} to the EXISTS over {@code
 * lineitem l2}, by the same order key and {@code l_suppkey}). A later subquery shares an earlier table where both read
 * one and the same table (each under its own alias), by the same inner and outer key columns and the same inner side
 * of their inequality, and its other WHERE terms hold every term of the earlier one's (the later one's alias read as
 * the earlier's), none of the terms it adds holding a subquery: it then gets {@code MIN(s) FILTER (WHERE added terms) AS __minN} and the same MAX added to that table
 * (or its {@code __min} and {@code __max} where it adds none).
 *
 * <p>Why the answer is the same: the shared table has a row for each key some inner row passing the earlier WHERE has,
 * and the FILTERed MIN and MAX are those of the key's rows passing the later WHERE, NULL where none does, as the later
 * subquery's own table would give them (or its LEFT join, for a key it lacks). A key the shared table lacks has no row
 * passing the later WHERE either: a NOT EXISTS holds there and an EXISTS does not, which the later condition gives on
 * NULLs ({@code IS NOT TRUE} of a comparison with NULL; the comparison itself). If the earlier one is an EXISTS, its
 * inner join drops that outer row anyway (its EXISTS fails); if a NOT EXISTS, its LEFT join keeps it with NULLs. Set
 * {@value #PROPERTY}{@code =false} to group each subquery's table on its own. One per query; not thread-safe.
 */
final class SharedMinMax {

    /** The system property that turns the sharing off ({@code false}); on by default. */
    static final String PROPERTY = "numacube.sharedMinMax";

    /** The MIN and MAX columns a subquery reads in the table of alias {@code alias}. */
    record Columns(String alias, String least, String greatest) {}

    /** A table made: its alias, query, the correlation it was made of, and the one table of that query's FROM. */
    private record Made(String alias, SqlSelect select, Correlation c, Correlation.Table table) {}

    private final Function<String, Optional<TableSchema>> schemas;
    private final List<Made> made = new ArrayList<>();
    private int added;

    SharedMinMax(Function<String, Optional<TableSchema>> schemas) {
        this.schemas = schemas;
    }

    /** Records the table of alias {@code alias}, grouped by {@code select} (MIN and MAX of {@code c}'s inner side). */
    void add(String alias, SqlSelect select, Correlation c) {
        Correlation.Table table = onlyTable(c);
        if (table != null) {
            made.add(new Made(alias, select, c, table));
        }
    }

    /**
     * The columns {@code c}'s MIN and MAX are read from in a table recorded before, added to it where they are new; null
     * where none may be shared (the class comment), or the sharing is off.
     */
    Columns share(Correlation c, SqlParserPos pos) {
        Correlation.Table table = onlyTable(c);
        if (table == null || "false".equals(System.getProperty(PROPERTY))) {
            return null;
        }
        for (Made m : made) {
            List<SqlNode> extra = extraTerms(m, c, table);
            if (extra != null) {
                return extra.isEmpty()
                        ? new Columns(m.alias(), DerivedTables.LEAST, DerivedTables.GREATEST)
                        : filtered(m, renamed(c.inequality().innerSide(), table, m.table()), extra, pos);
            }
        }
        return null;
    }

    /**
     * {@code c}'s WHERE terms (read under {@code m}'s alias) that {@code m}'s lack, where {@code c} may share {@code
     * m}'s table; else null.
     */
    private static List<SqlNode> extraTerms(Made m, Correlation c, Correlation.Table table) {
        Correlation.Table to = m.table();
        if (!to.schema().name().equalsIgnoreCase(table.schema().name())
                || !same(m.c().outer(), c.outer())
                || !same(
                        m.c().inner(),
                        c.inner().stream().map(i -> renamed(i, table, to)).toList())
                || !m.c().inequality()
                        .innerSide()
                        .equalsDeep(renamed(c.inequality().innerSide(), table, to), Litmus.IGNORE)) {
            return null;
        }
        List<SqlNode> extra = new ArrayList<>(
                c.rest().stream().map(t -> renamed(t, table, to)).toList());
        for (SqlNode t : m.c().rest()) {
            if (!extra.removeIf(e -> e.equalsDeep(t, Litmus.IGNORE))) {
                return null;
            }
        }
        return extra.stream().anyMatch(SharedMinMax::holdsSubquery) ? null : extra;
    }

    /** Whether {@code e} holds a subquery (which might name the later subquery's alias, unknown in the earlier one). */
    private static boolean holdsSubquery(SqlNode e) {
        boolean[] seen = {false};
        e.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                seen[0] |= call instanceof SqlSelect;
                return call instanceof SqlSelect ? call : super.visit(call);
            }
        });
        return seen[0];
    }

    /** {@code MIN(side) FILTER (WHERE extra) AS __minN} and the same MAX, added to {@code m}'s select list. */
    private Columns filtered(Made m, SqlNode side, List<SqlNode> extra, SqlParserPos pos) {
        int n = ++added;
        String least = DerivedTables.LEAST + n;
        String greatest = DerivedTables.GREATEST + n;
        SqlNode where = SqlTerms.and(extra, pos);
        m.select()
                .getSelectList()
                .add(Decorrelation.as(
                        SqlStdOperatorTable.FILTER.createCall(
                                pos, SqlStdOperatorTable.MIN.createCall(pos, side), where),
                        least,
                        pos));
        m.select()
                .getSelectList()
                .add(Decorrelation.as(
                        SqlStdOperatorTable.FILTER.createCall(
                                pos, SqlStdOperatorTable.MAX.createCall(pos, side.clone(pos)), where.clone(pos)),
                        greatest,
                        pos));
        return new Columns(m.alias(), least, greatest);
    }

    private static boolean same(List<? extends SqlNode> a, List<? extends SqlNode> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).equalsDeep(b.get(i), Litmus.IGNORE)) {
                return false;
            }
        }
        return true;
    }

    /** The one table of {@code c}'s FROM, or null where it has more, or is no table of a known schema. */
    private Correlation.Table onlyTable(Correlation c) {
        List<Correlation.Table> tables = new ArrayList<>();
        return c.inequality() != null && Correlation.tables(c.query().getFrom(), schemas, tables) && tables.size() == 1
                ? tables.get(0)
                : null;
    }

    /**
     * {@code e} with each column qualified by {@code from}'s name qualified by {@code to}'s instead; a subquery inside
     * is left as it is (it names no column of {@code from}: a correlated one's columns are only the outer query's).
     */
    private static <T extends SqlNode> T renamed(T e, Correlation.Table from, Correlation.Table to) {
        SqlNode out = e.clone(e.getParserPosition()).accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier id) {
                return id.names.size() == 2 && id.names.get(0).equalsIgnoreCase(from.qualifier())
                        ? new SqlIdentifier(List.of(to.qualifier(), id.names.get(1)), id.getParserPosition())
                        : id;
            }

            @Override
            public SqlNode visit(SqlCall call) {
                return call instanceof SqlSelect ? call : super.visit(call);
            }
        });
        @SuppressWarnings("unchecked")
        T typed = (T) out;
        return typed;
    }
}
