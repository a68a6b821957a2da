package io.numacube.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * Declared joins followed one after another: {@code lineitem -> orders -> customer} is {@code
 * lineitem.l_orderkey=orders.o_orderkey} then {@code orders.o_custkey=customer.c_custkey}, each link's fact table
 * the previous link's joined table. A query that joins customer through orders hangs customer from lineitem's order
 * key codes through orders' rows; preparing the chain ({@link Cube#prepareJoinChains}) builds that index ahead, as
 * {@link Cube#prepareJoin} builds one link's. Immutable.
 *
 * @param links at least two joins, {@code links[i].dim() == links[i + 1].fact()}, no table twice
 */
public record JoinChain(List<JoinSpec> links) {

    /** Longest chain followed: TPC-H's longest, lineitem -> orders -> customer -> nation -> region. */
    public static final int MAX_LINKS = 4;

    public JoinChain {
        links = List.copyOf(links);
        if (links.size() < 2) {
            throw new IllegalArgumentException("a chain has at least two links: " + links);
        }
        for (int i = 1; i < links.size(); i++) {
            if (!links.get(i - 1).dim().equals(links.get(i).fact())) {
                throw new IllegalArgumentException("links that do not follow each other: " + links);
            }
        }
    }

    /**
     * Every chain of two to {@link #MAX_LINKS} of the {@code declared} joins, each starting at a declared join's fact
     * table, in a stable order (by the declaration order of their links); a chain that would reach a table twice is
     * left out.
     */
    public static List<JoinChain> of(List<JoinSpec> declared) {
        List<JoinChain> out = new ArrayList<>();
        for (JoinSpec first : declared) {
            extend(declared, new ArrayList<>(List.of(first)), out);
        }
        return out;
    }

    private static void extend(List<JoinSpec> declared, List<JoinSpec> path, List<JoinChain> out) {
        if (path.size() == MAX_LINKS) {
            return;
        }
        for (JoinSpec next : declared) {
            if (next.fact().equals(path.getLast().dim()) && !reaches(path, next.dim())) {
                path.add(next);
                out.add(new JoinChain(path));
                extend(declared, path, out);
                path.removeLast();
            }
        }
    }

    private static boolean reaches(List<JoinSpec> path, String table) {
        return path.getFirst().fact().equals(table)
                || path.stream().anyMatch(l -> l.dim().equals(table));
    }

    /** The query that takes the chain once over all rows: {@code SELECT COUNT(*) FROM a JOIN b ON ... JOIN c ON ...}. */
    String sql() {
        StringBuilder b = new StringBuilder("SELECT COUNT(*) FROM ")
                .append(links.getFirst().fact());
        for (JoinSpec link : links) {
            b.append(" JOIN ").append(link.dim()).append(" ON ").append(link.on());
        }
        return b.toString();
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(links.getFirst().fact());
        for (JoinSpec link : links) {
            b.append(" -> ").append(link.dim());
        }
        return b.toString();
    }
}
