package io.numacube.engine;

import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A join a user declares ahead of the queries that take it ({@code serve --prepare-join}), written {@code
 * FACT.COL[+COL]=DIM.COL[+COL]} ({@code lineitem.l_orderkey=orders.o_orderkey}, {@code
 * lineitem.l_partkey+l_suppkey=partsupp.ps_partkey+ps_suppkey}): the fact table's columns equal, in order, the joined
 * table's key. Names are plain SQL identifiers. Immutable.
 *
 * @param fact        the table whose rows the join keeps (the larger, the many side)
 * @param factColumns its join columns, at least one
 * @param dim         the joined table (the one side)
 * @param dimColumns  its key columns, as many as {@code factColumns}
 */
public record JoinSpec(String fact, List<String> factColumns, String dim, List<String> dimColumns) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    public JoinSpec {
        factColumns = List.copyOf(factColumns);
        dimColumns = List.copyOf(dimColumns);
    }

    /** Parses {@code FACT.COL[+COL]=DIM.COL[+COL]}; INVALID_INPUT naming the text and the expected form otherwise. */
    public static JoinSpec parse(String text) {
        String[] sides = text.split("=", -1);
        if (sides.length != 2) {
            throw invalid(text, "one '=' between the two sides");
        }
        String[] left = side(text, sides[0]);
        String[] right = side(text, sides[1]);
        List<String> factColumns = columns(text, left[1]);
        List<String> dimColumns = columns(text, right[1]);
        if (factColumns.size() != dimColumns.size()) {
            throw invalid(text, "as many columns on each side");
        }
        return new JoinSpec(left[0], factColumns, right[0], dimColumns);
    }

    /** The query that takes this join once over all rows: {@code SELECT COUNT(*) FROM fact JOIN dim ON ...}. */
    String sql() {
        return "SELECT COUNT(*) FROM " + fact + " JOIN " + dim + " ON " + on();
    }

    /** The join's condition: {@code fact.c1 = dim.k1 AND ...}. */
    String on() {
        StringBuilder on = new StringBuilder();
        for (int i = 0; i < factColumns.size(); i++) {
            on.append(i == 0 ? "" : " AND ")
                    .append(fact)
                    .append('.')
                    .append(factColumns.get(i))
                    .append(" = ")
                    .append(dim)
                    .append('.')
                    .append(dimColumns.get(i));
        }
        return on.toString();
    }

    @Override
    public String toString() {
        return fact + "." + String.join("+", factColumns) + "=" + dim + "." + String.join("+", dimColumns);
    }

    private static String[] side(String text, String side) {
        int dot = side.indexOf('.');
        if (dot <= 0 || !NAME.matcher(side.substring(0, dot).strip()).matches()) {
            throw invalid(text, "TABLE.COLUMN on each side");
        }
        return new String[] {side.substring(0, dot).strip(), side.substring(dot + 1)};
    }

    private static List<String> columns(String text, String list) {
        List<String> out = new ArrayList<>();
        for (String c : list.split("\\+", -1)) {
            if (!NAME.matcher(c.strip()).matches()) {
                throw invalid(text, "column names joined by '+'");
            }
            out.add(c.strip());
        }
        return out;
    }

    private static NumacubeException invalid(String text, String what) {
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                "a join is FACT.COL[+COL]=DIM.COL[+COL], with " + what + ": join=" + text
                        + " — e.g. lineitem.l_orderkey=orders.o_orderkey");
    }
}
