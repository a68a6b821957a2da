package io.numacube.numa.memory;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Where a segment's pages are, counted once. Immutable.
 *
 * <p>Invariant: {@code sum(pagesByNode) + notPresent == totalPages} for {@link Method#MOVE_PAGES}; for
 * {@link Method#NUMA_MAPS} the counts are those of the mappings covering the segment (a mapping the kernel merged
 * with a neighbour may count more), with {@code notPresent = max(0, total - present)}; for {@link Method#NONE}
 * every page is counted not present.
 *
 * @param totalPages  base pages spanned by the segment
 * @param pagesByNode present pages per node id
 * @param notPresent  pages not faulted in yet (or not known)
 * @param method      how the pages were located
 */
public record PageCensus(long totalPages, SortedMap<Integer, Long> pagesByNode, long notPresent, Method method) {

    /** How a census was taken. */
    public enum Method {
        /** move_pages(2) with a null node list: exact, page by page. */
        MOVE_PAGES,
        /** /proc/self/numa_maps: per mapping (works where move_pages is refused, e.g. in containers). */
        NUMA_MAPS,
        /** Neither was possible. */
        NONE
    }

    public PageCensus {
        pagesByNode = Collections.unmodifiableSortedMap(new TreeMap<>(pagesByNode));
    }

    /** Pages present on any node. */
    public long presentPages() {
        return pagesByNode.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Present pages on {@code node}. */
    public long pagesOn(int node) {
        return pagesByNode.getOrDefault(node, 0L);
    }

    /** Present pages on any node of {@code nodes}. */
    public long pagesOnAny(io.numacube.numa.topology.NodeSet nodes) {
        long n = 0;
        for (var e : pagesByNode.entrySet()) {
            if (nodes.contains(e.getKey())) {
                n += e.getValue();
            }
        }
        return n;
    }

    /**
     * The share of the segment's pages found on {@code node}: pages not present count against it (a page that was
     * never touched is not placed), and a NUMA_MAPS count larger than the segment is capped at the count.
     */
    public double shareOn(int node) {
        return share(pagesOn(node));
    }

    /** {@link #shareOn} for a set of nodes (an interleaved segment). */
    public double shareOnAny(io.numacube.numa.topology.NodeSet nodes) {
        return share(pagesOnAny(nodes));
    }

    private double share(long pages) {
        long denominator = Math.max(totalPages, presentPages());
        return denominator == 0 ? 0.0 : (double) pages / denominator;
    }

    /** The fraction of present pages on {@code node}, 0 when no page is present. */
    public double fractionOn(int node) {
        long present = presentPages();
        return present == 0 ? 0.0 : (double) pagesByNode.getOrDefault(node, 0L) / present;
    }
}
