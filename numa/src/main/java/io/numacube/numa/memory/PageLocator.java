package io.numacube.numa.memory;

import io.numacube.numa.kernel.KernelCallException;
import io.numacube.numa.kernel.NumaKernel;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Counts where a segment's pages are: move_pages(2) when it works, else {@code /proc/self/numa_maps}, else nothing
 * ({@link PageCensus.Method#NONE}). Neither way faults a page in. When move_pages finds pages absent and numa_maps
 * has a line for exactly the segment that sees more of them present, the numa_maps count is the answer (automatic
 * NUMA balancing hides present pages from move_pages). Thread-safe (stateless apart from immutable
 * configuration).
 */
public final class PageLocator {

    private static final long FALLBACK_PAGE_SIZE = 4096;

    private final Optional<NumaKernel> kernel;
    private final boolean movePages;
    private final Path numaMaps;
    private final Path maps;

    /**
     * @param kernel   the kernel, when there is one
     * @param support  what works here: move_pages is only tried when {@link PolicySupport#movePages()}
     * @param numaMaps the numa_maps file to fall back to (e.g. /proc/self/numa_maps)
     * @param maps     the matching maps file for mapping ends, or null
     */
    public PageLocator(Optional<NumaKernel> kernel, PolicySupport support, Path numaMaps, Path maps) {
        this.kernel = kernel;
        this.movePages = kernel.isPresent() && support.movePages();
        this.numaMaps = numaMaps;
        this.maps = maps;
    }

    /** A locator for this process's own memory. */
    public static PageLocator forThisProcess(Optional<NumaKernel> kernel, PolicySupport support) {
        return new PageLocator(kernel, support, Path.of("/proc/self/numa_maps"), Path.of("/proc/self/maps"));
    }

    /** Where the pages of {@code segment} are now. */
    public PageCensus census(MemorySegment segment) {
        long pageSize = kernel.map(NumaKernel::pageSizeBytes).orElse(FALLBACK_PAGE_SIZE);
        long first = Math.floorDiv(segment.address(), pageSize) * pageSize;
        long total = segment.byteSize() == 0
                ? 0
                : (segment.address() + segment.byteSize() - first + pageSize - 1) / pageSize;
        Optional<PageCensus> exact = Optional.empty();
        if (movePages) {
            try {
                exact = Optional.of(byMovePages(kernel.get().pageNodes(segment)));
            } catch (KernelCallException e) {
                // refused or failed here: numa_maps still answers
            }
        }
        if (exact.isPresent() && exact.get().notPresent() == 0) {
            return exact.get();
        }
        Optional<NumaMaps> snapshot = readNumaMaps();
        if (exact.isPresent()) {
            PageCensus moved = exact.get();
            return snapshot.filter(n -> coversExactly(n, segment, pageSize))
                    .map(n -> byNumaMaps(n, segment, pageSize, total))
                    .filter(m -> m.presentPages() > moved.presentPages())
                    .orElse(moved);
        }
        return snapshot.map(n -> byNumaMaps(n, segment, pageSize, total))
                .orElse(new PageCensus(total, new TreeMap<>(), total, PageCensus.Method.NONE));
    }

    /*
     * Why a move_pages count that found pages absent is checked against numa_maps: move_pages reports a present page
     * as absent when automatic NUMA balancing has made it PROT_NONE for a hinting fault (default-policy memory, e.g.
     * placed by first touch); numa_maps walks the page tables and still counts it. It is only trusted when its
     * mappings are the segment's own (the count is then exact, not a neighbour's too).
     */
    private static boolean coversExactly(NumaMaps snapshot, MemorySegment segment, long pageSize) {
        List<NumaMaps.Mapping> covering = snapshot.overlapping(segment.address(), segment.byteSize());
        long first = Math.floorDiv(segment.address(), pageSize) * pageSize;
        long last = segment.address() + segment.byteSize();
        return !covering.isEmpty()
                && covering.stream()
                        .allMatch(m -> m.end() >= 0
                                && Long.compareUnsigned(m.start(), first) >= 0
                                && Long.compareUnsigned(m.end(), (last + pageSize - 1) / pageSize * pageSize) <= 0);
    }

    private Optional<NumaMaps> readNumaMaps() {
        if (numaMaps == null || !Files.isReadable(numaMaps)) {
            return Optional.empty();
        }
        try {
            return Optional.of(NumaMaps.read(numaMaps, maps != null && Files.isReadable(maps) ? maps : null));
        } catch (UncheckedIOException | io.numacube.numa.base.NumacubeException e) {
            return Optional.empty();
        }
    }

    private static PageCensus byMovePages(int[] status) {
        SortedMap<Integer, Long> byNode = new TreeMap<>();
        long notPresent = 0;
        for (int s : status) {
            if (s >= 0) {
                byNode.merge(s, 1L, Long::sum);
            } else {
                notPresent++;
            }
        }
        return new PageCensus(status.length, byNode, notPresent, PageCensus.Method.MOVE_PAGES);
    }

    static PageCensus byNumaMaps(NumaMaps snapshot, MemorySegment segment, long pageSize, long totalPages) {
        List<NumaMaps.Mapping> covering = snapshot.overlapping(segment.address(), segment.byteSize());
        SortedMap<Integer, Long> byNode = new TreeMap<>();
        for (NumaMaps.Mapping m : covering) {
            long scale = Math.max(1, m.kernelPageSizeKb() * 1024 / pageSize);
            m.pagesByNode().forEach((node, pages) -> byNode.merge(node, pages * scale, Long::sum));
        }
        long present = byNode.values().stream().mapToLong(Long::longValue).sum();
        return new PageCensus(totalPages, byNode, Math.max(0, totalPages - present), PageCensus.Method.NUMA_MAPS);
    }
}
