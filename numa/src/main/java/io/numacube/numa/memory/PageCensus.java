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

    /** The fraction of present pages on {@code node}, 0 when no page is present. */
    public double fractionOn(int node) {
        long present = presentPages();
        return present == 0 ? 0.0 : (double) pagesByNode.getOrDefault(node, 0L) / present;
    }
}
