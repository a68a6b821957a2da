package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.bindError;
import static io.numacube.engine.sql.BindErrors.unsupported;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.TableSchema;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;

/**
 * The tables a query's FROM clause names and the names they answer to: the fact table, the optional lookup table
 * joined to it, their aliases, and the join key column on each side (-1 while unknown or without a join). Resolves
 * column names against them.
 *
 * <p>Invariants: {@code fact} is non-null; {@code lookupAlias} is null when {@code lookup} is; a null alias means the
 * table answers to its own name. Immutable; thread-safe.
 */
record Scope(TableSchema fact, String factAlias, TableSchema lookup, String lookupAlias, int factKey, int lookupKey) {

    /** This scope with the join key columns known. */
    Scope withJoinKeys(int factKey, int lookupKey) {
        return new Scope(fact, factAlias, lookup, lookupAlias, factKey, lookupKey);
    }

    /** Whether an unqualified {@code name} is a column of the fact or the lookup table. */
    boolean hasColumn(String name) {
        return fact.indexOf(name) >= 0 || (lookup != null && lookup.indexOf(name) >= 0);
    }

    /** Resolves a column name; the USING key resolves to the fact side. */
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
            return columnOf(id, fact, Expr.Side.FACT, name);
        }
        if (lookup != null && answersTo(qualifier, lookup.name(), lookupAlias)) {
            Expr.Column c = columnOf(id, lookup, Expr.Side.LOOKUP, name);
            return c.index() == lookupKey ? factColumn(factKey) : c;
        }
        throw bindError(id, "42P01", "no such table in FROM: table=" + qualifier);
    }

    private Expr.Column unqualifiedColumn(SqlIdentifier id, String name) {
        int f = fact.indexOf(name);
        int l = lookup == null ? -1 : lookup.indexOf(name);
        if (f >= 0 && l >= 0 && !(f == factKey && l == lookupKey)) {
            throw bindError(
                    id,
                    "42702",
                    "ambiguous column: column=" + name + " is in " + fact.name() + " and " + lookup.name()
                            + " — qualify it");
        }
        if (f >= 0) {
            return factColumn(f);
        }
        if (l >= 0) {
            return new Expr.Column(
                    Expr.Side.LOOKUP,
                    l,
                    lookup.column(l).type(),
                    lookup.column(l).name());
        }
        throw bindError(
                id,
                "42703",
                "no such column: column=" + name + " tables=" + fact.name()
                        + (lookup == null ? "" : "," + lookup.name()));
    }

    private Expr.Column factColumn(int index) {
        ColumnSpec spec = fact.column(index);
        return new Expr.Column(Expr.Side.FACT, index, spec.type(), spec.name());
    }

    private static Expr.Column columnOf(SqlIdentifier id, TableSchema t, Expr.Side side, String name) {
        int i = t.indexOf(name);
        if (i < 0) {
            throw bindError(id, "42703", "no such column: column=" + name + " table=" + t.name());
        }
        return new Expr.Column(side, i, t.column(i).type(), t.column(i).name());
    }

    private static boolean answersTo(String qualifier, String table, String alias) {
        return alias != null ? alias.equalsIgnoreCase(qualifier) : table.equalsIgnoreCase(qualifier);
    }
}
