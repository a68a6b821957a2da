package io.numacube.engine.result;

import java.util.Map;

/**
 * What one query did. Immutable.
 *
 * @param wallSeconds     from the call to the result, parse and plan included
 * @param rowsScanned     rows of morsels that were read (skipped morsels not included)
 * @param bytesRead       bytes of columns read by the scan
 * @param morsels         morsels run
 * @param morselsHome     morsels run by a worker of their partition's home node
 * @param morselsStolen   morsels run by a worker of another node (work stealing)
 * @param morselsSkipped  morsels skipped without reading rows (zone maps showed no row can pass the filter)
 * @param morselsByNode   per worker node, the morsels its workers ran
 * @param morselsHomeByNode per worker node, those of its morsels that its workers took from their own node's queue
 *                        (a node absent ran none at home); the sum over nodes is {@code morselsHome}
 * @param plan            the physical plan in words (for EXPLAIN-like output and logs)
 * @param phases          where the time went after parsing and binding
 * @param versions        the version of each table the query read (its FROM table first), as the snapshot it read
 *                        held them; empty when not known
 */
public record QueryStats(
        double wallSeconds,
        long rowsScanned,
        long bytesRead,
        long morsels,
        long morselsHome,
        long morselsStolen,
        long morselsSkipped,
        Map<Integer, Long> morselsByNode,
        Map<Integer, Long> morselsHomeByNode,
        String plan,
        Phases phases,
        Map<String, Long> versions) {
    public QueryStats {
        morselsByNode = Map.copyOf(morselsByNode);
        morselsHomeByNode = Map.copyOf(morselsHomeByNode);
        versions = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(versions));
    }

    /** These stats with the versions of the tables read (FROM table first). */
    public QueryStats withVersions(Map<String, Long> tableVersions) {
        return new QueryStats(
                wallSeconds,
                rowsScanned,
                bytesRead,
                morsels,
                morselsHome,
                morselsStolen,
                morselsSkipped,
                morselsByNode,
                morselsHomeByNode,
                plan,
                phases,
                tableVersions);
    }

    /** The version of the FROM table read, or -1 when not known. */
    public long version() {
        return versions.isEmpty() ? -1 : versions.values().iterator().next();
    }

    /** Stats without a split of the time into phases. */
    public QueryStats(
            double wallSeconds,
            long rowsScanned,
            long bytesRead,
            long morsels,
            long morselsHome,
            long morselsStolen,
            long morselsSkipped,
            Map<Integer, Long> morselsByNode,
            String plan) {
        this(
                wallSeconds,
                rowsScanned,
                bytesRead,
                morsels,
                morselsHome,
                morselsStolen,
                morselsSkipped,
                morselsByNode,
                Map.of(),
                plan,
                Phases.NONE,
                Map.of());
    }

    /**
     * The seconds a query spent planning (joins' tables, masks and keys computed or found kept), scanning (the
     * workers' morsels and the merge of their states) and finishing (groups to rows, ordering, limit); the rest of
     * {@link #wallSeconds} went to parsing, binding and subqueries.
     */
    public record Phases(double planSeconds, double scanSeconds, double finishSeconds) {
        /** No split known (a projection, or a result built elsewhere). */
        public static final Phases NONE = new Phases(0, 0, 0);
    }

    /** Fraction of run morsels that ran on their home node (1.0 when none ran). */
    public double homeFraction() {
        return morsels == 0 ? 1.0 : (double) morselsHome / morsels;
    }
}
