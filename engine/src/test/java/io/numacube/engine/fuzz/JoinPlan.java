package io.numacube.engine.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Which dimension tables a query joins and how: lookup {@code d} on its key, lookup {@code e} on another fact column
 * (a star), snowflake {@code r} on {@code d.region}; each INNER or LEFT; all with {@code USING} or all with
 * {@code ON} (whose key columns are then named qualified, as DuckDB finds a bare name ambiguous). Immutable.
 *
 * @param d     whether {@code d} is joined
 * @param e     whether {@code e} is joined
 * @param r     whether {@code r} is joined (only with {@code d})
 * @param leftD whether {@code d} is LEFT joined
 * @param leftE whether {@code e} is LEFT joined
 * @param leftR whether {@code r} is LEFT joined
 * @param on    ON conditions rather than USING
 * @param flip  ON conditions written with the dimension's column first
 */
record JoinPlan(
        boolean d, boolean e, boolean r, boolean leftD, boolean leftE, boolean leftR, boolean on, boolean flip) {

    /** No join: the fact table alone. */
    static final JoinPlan NONE = new JoinPlan(false, false, false, false, false, false, false, false);

    /** {@code d} alone, INNER, with USING (the TLP oracle's join). */
    static final JoinPlan USING_D = new JoinPlan(true, false, false, false, false, false, false, false);

    /** A random plan: about half the queries join nothing, the rest one to three tables. */
    static JoinPlan random(Random rnd) {
        int j = rnd.nextInt(20);
        if (j < 10) {
            return NONE;
        }
        boolean d = j < 17;
        boolean e = !d || rnd.nextInt(3) == 0;
        boolean r = d && rnd.nextInt(4) == 0;
        return new JoinPlan(
                d,
                e,
                r,
                rnd.nextInt(4) == 0,
                rnd.nextInt(4) == 0,
                rnd.nextInt(4) == 0,
                rnd.nextInt(3) == 0,
                rnd.nextBoolean());
    }

    boolean any() {
        return d || e;
    }

    /** The FROM clause, for fact table {@code f} and the data set's keys. */
    String from(DataShape shape) {
        StringBuilder sb = new StringBuilder("f");
        if (d) {
            sb.append(join(leftD, "d", "f", shape.lookupKey()));
        }
        if (e) {
            sb.append(join(leftE, "e", "f", shape.lookup2Key()));
        }
        if (r) {
            sb.append(join(leftR, "r", "d", "region"));
        }
        return sb.toString();
    }

    private String join(boolean left, String table, String parent, String key) {
        String head = (left ? " LEFT JOIN " : " JOIN ") + table;
        if (!on) {
            return head + " USING (" + key + ")";
        }
        String a = parent + "." + key;
        String b = table + "." + key;
        return head + " ON " + (flip ? b + " = " + a : a + " = " + b);
    }

    /** How to name {@code column} in a query over this plan: qualified where an ON join makes it ambiguous. */
    String ref(String column, DataShape shape) {
        if (!on) {
            return column;
        }
        if ((d && column.equals(shape.lookupKey())) || (e && column.equals(shape.lookup2Key()))) {
            return "f." + column;
        }
        return r && column.equals("region") ? "d.region" : column;
    }

    /** The joined tables' attribute columns. */
    List<String> attributes() {
        List<String> out = new ArrayList<>();
        if (d) {
            out.addAll(FactColumns.LOOKUP_ATTRIBUTES);
        }
        if (e) {
            out.addAll(FactColumns.LOOKUP2_ATTRIBUTES);
        }
        if (r) {
            out.addAll(FactColumns.SNOWFLAKE_ATTRIBUTES);
        }
        return out;
    }

    /** The attributes of the tables joined LEFT, NULL where a fact row has no partner. */
    List<String> leftAttributes() {
        List<String> out = new ArrayList<>();
        if (d && leftD) {
            out.addAll(FactColumns.LOOKUP_ATTRIBUTES);
        }
        if (e && leftE) {
            out.addAll(FactColumns.LOOKUP2_ATTRIBUTES);
        }
        if (r && leftR) {
            out.addAll(FactColumns.SNOWFLAKE_ATTRIBUTES);
        }
        return out;
    }

    /** Tags naming the joins, for the report. */
    List<String> tags() {
        List<String> out = new ArrayList<>();
        String how = on ? "on" : "using";
        if (d) {
            out.add("join:" + (leftD ? "left-" : "") + how);
        }
        if (e) {
            out.add("join:star" + (leftE ? "-left" : ""));
        }
        if (r) {
            out.add("join:snowflake" + (leftR ? "-left" : ""));
        }
        return out;
    }
}
