package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.bindError;
import static io.numacube.engine.sql.BindErrors.unsupported;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;

/**
 * The tables a query's FROM clause names and the names they answer to: the fact table and the dimension tables joined
 * to it (a star, or a snowflake where a dimension hangs from another), their aliases and join keys. Resolves column
 * names against them: a dimension's join key resolves to its parent's key column (they are equal in every joined row),
 * and after {@code USING (k)} an unqualified {@code k} is that one column; after {@code ON a.k = b.k} both columns
 * exist and an unqualified {@code k} is ambiguous, as in DuckDB.
 *
 * <p>Invariants: {@code fact} is non-null; {@code tables.get(i)} is the table of {@code joins.get(i)} (its key columns
 * are -1 while unknown); a null alias means the table answers to its own name. Immutable; thread-safe.
 *
 * @param fact      the fact table
 * @param factAlias its alias, or null
 * @param tables    the joined dimension tables, in FROM order
 * @param aliases   their aliases (null entries: none)
 * @param joins     how each is joined
 * @param using     per joined table, whether it was joined by {@code USING} (its key merged with its parent's)
 */
record Scope(
        TableSchema fact,
        String factAlias,
        List<TableSchema> tables,
        List<String> aliases,
        List<LogicalQuery.Join> joins,
        List<Boolean> using) {

    Scope {
        tables = List.copyOf(tables);
        aliases = java.util.Collections.unmodifiableList(new ArrayList<>(aliases));
        joins = List.copyOf(joins);
        using = List.copyOf(using);
    }

    static Scope of(TableSchema fact, String alias) {
        return new Scope(fact, alias, List.of(), List.of(), List.of(), List.of());
    }

    /** This scope with one more joined table, joined by {@code USING} or by {@code ON}. */
    Scope with(TableSchema table, String alias, LogicalQuery.Join join, boolean byUsing) {
        List<TableSchema> t = new ArrayList<>(tables);
        List<String> a = new ArrayList<>(aliases);
        List<LogicalQuery.Join> j = new ArrayList<>(joins);
        List<Boolean> u = new ArrayList<>(using);
        t.add(table);
        a.add(alias);
        j.add(join);
        u.add(byUsing);
        return new Scope(fact, factAlias, t, a, j, u);
    }

    /**
     * The name a table is shown by in an error: its alias, else its name; a table numacube staged for a subquery of
     * FROM has a name of its own ({@link DerivedTables#PREFIX}), never shown.
     */
    static String shown(TableSchema table, String alias) {
        if (alias != null) {
            return alias;
        }
        return table.name().startsWith(DerivedTables.PREFIX) ? "(a subquery of FROM)" : table.name();
    }

    /** The LOOKUP index of the next joined table's column 0. */
    int nextFirstColumn() {
        return tables.isEmpty()
                ? 0
                : joins.getLast().firstColumn() + tables.getLast().size();
    }

    /** Whether an unqualified {@code name} is a column of any table in scope. */
    boolean hasColumn(String name) {
        return fact.indexOf(name) >= 0 || tables.stream().anyMatch(t -> t.indexOf(name) >= 0);
    }

    /** Resolves a column name; a join key resolves to its parent's column. */
    Expr.Column column(SqlNode node) {
        if (!(node instanceof SqlIdentifier id)) {
            throw unsupported(node, "expected a column name");
        }
        if (id.isStar()) {
            throw unsupported(id, "*");
        }
        if (id.names.size() > 2) {
            throw unsupported(id, "a name with " + id.names.size() + " parts");
        }
        String name = id.names.get(id.names.size() - 1);
        return id.names.size() == 2 ? qualifiedColumn(id, id.names.get(0), name) : unqualifiedColumn(id, name);
    }

    private Expr.Column qualifiedColumn(SqlIdentifier id, String qualifier, String name) {
        if (answersTo(qualifier, fact.name(), factAlias)) {
            return factColumn(id, fact.indexOf(name), name, qualifier);
        }
        for (int j = 0; j < tables.size(); j++) {
            if (answersTo(qualifier, tables.get(j).name(), aliases.get(j))) {
                return dimensionColumn(id, j, tables.get(j).indexOf(name), name);
            }
        }
        throw bindError(id, "42P01", "no such table in FROM: table=" + qualifier);
    }

    /** The one column an unqualified name denotes (a USING key counts once, as its parent's column). */
    private Expr.Column unqualifiedColumn(SqlIdentifier id, String name) {
        List<Expr.Column> found = new ArrayList<>();
        int f = fact.indexOf(name);
        if (f >= 0) {
            found.add(factColumn(id, f, name, shown(fact, factAlias)));
        }
        for (int j = 0; j < tables.size(); j++) {
            int i = tables.get(j).indexOf(name);
            if (i >= 0) {
                Expr.Column c = dimensionColumn(id, j, i, name);
                if (!found.contains(c) || !using.get(j)) {
                    found.add(c);
                }
            }
        }
        if (found.size() > 1) {
            throw bindError(id, "42702", "ambiguous column: column=" + name + " is in several tables — qualify it");
        }
        if (found.isEmpty()) {
            if (fact.name().startsWith(DerivedTables.ONE_ROW_PREFIX) && tables.isEmpty()) {
                throw bindError(id, "42703", "no such column: column=" + name + " (the SELECT has no FROM clause)");
            }
            List<String> names = new ArrayList<>(List.of(shown(fact, factAlias)));
            for (int j = 0; j < tables.size(); j++) {
                names.add(shown(tables.get(j), aliases.get(j)));
            }
            throw bindError(id, "42703", "no such column: column=" + name + " tables=" + String.join(",", names));
        }
        return found.get(0);
    }

    /** Column {@code i} of joined table {@code j}, or its parent's key column when it is one of the join's keys. */
    Expr.Column dimensionColumn(SqlIdentifier id, int j, int i, String name) {
        TableSchema t = tables.get(j);
        if (i < 0) {
            throw bindError(id, "42703", "no such column: column=" + name + " table=" + shown(t, aliases.get(j)));
        }
        LogicalQuery.Join join = joins.get(j);
        // a LEFT join's qualified key is NULL where no row matched; unqualified, it is the USING column, the parent's
        int k = join.keyPosition(i);
        if (k >= 0 && (!join.left() || id.names.size() == 1)) {
            int parentColumn = join.parentColumns().get(k);
            return join.parent() < 0
                    ? factColumn(id, parentColumn, name, shown(fact, factAlias))
                    : dimensionColumn(id, join.parent(), parentColumn, name);
        }
        ColumnSpec spec = t.column(i);
        return new Expr.Column(
                Expr.Side.LOOKUP,
                join.firstColumn() + i,
                spec.type(),
                spec.name(),
                spec.scale(),
                spec.precision(),
                spec.declared());
    }

    private Expr.Column factColumn(SqlIdentifier id, int index, String name, String table) {
        if (index < 0) {
            throw bindError(id, "42703", "no such column: column=" + name + " table=" + table);
        }
        ColumnSpec spec = fact.column(index);
        return new Expr.Column(
                Expr.Side.FACT, index, spec.type(), spec.name(), spec.scale(), spec.precision(), spec.declared());
    }

    /**
     * Whether {@code qualifier} names a table of FROM: its alias where it has one, else its name, or the name's last
     * part for a table of another schema ({@code columns} for {@code information_schema.columns}).
     */
    static boolean answersTo(String qualifier, String table, String alias) {
        if (alias != null) {
            return alias.equalsIgnoreCase(qualifier);
        }
        return table.equalsIgnoreCase(qualifier)
                || table.substring(table.lastIndexOf('.') + 1).equalsIgnoreCase(qualifier);
    }
}
