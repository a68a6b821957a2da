package io.numacube.numa.memory;

import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A snapshot of {@code /proc/<pid>/numa_maps}: one {@link Mapping} per line, with the mapping's end address taken
 * from the matching {@code /proc/<pid>/maps} line when that file is given. Immutable and thread-safe; the facts are
 * those of the moment the files were read.
 *
 * <p>Line format: {@code 7efec03ee000 bind:0 anon=64 dirty=64 N0=64 kernelpagesize_kB=4}. Policies may contain
 * spaces and '=' ({@code prefer (many):0}, {@code weighted interleave:0}, {@code bind=static:0}).
 */
public final class NumaMaps {

    /**
     * One mapping. Immutable.
     *
     * @param start            first address
     * @param end              address past the last byte, or -1 when /proc/self/maps was not read
     * @param policy           the memory policy as printed, e.g. {@code bind:0}, {@code prefer (many):0}
     * @param pagesByNode      pages present per node (the {@code Nk=} fields), in units of the base page as printed
     * @param kernelPageSizeKb the {@code kernelpagesize_kB} field (4 for base pages; 2048 for hugetlbfs 2 MiB)
     */
    public record Mapping(
            long start, long end, String policy, SortedMap<Integer, Long> pagesByNode, long kernelPageSizeKb) {

        public Mapping {
            pagesByNode = Collections.unmodifiableSortedMap(new TreeMap<>(pagesByNode));
        }

        /** Pages present on all nodes together. */
        public long presentPages() {
            return pagesByNode.values().stream().mapToLong(Long::longValue).sum();
        }

        /** Whether {@code address} lies in the mapping (with an unknown end: whether it is the start). */
        public boolean contains(long address) {
            if (end < 0) {
                return address == start;
            }
            return Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0;
        }
    }

    private static final Pattern POLICY = Pattern.compile(
            "(prefer \\(many\\)|weighted interleave|default|local|prefer|bind|interleave)(=(static|relative))?(:\\S*)?");
    private static final Pattern NODE_FIELD = Pattern.compile("N(\\d+)=(\\d+)");

    private final List<Mapping> mappings;

    private NumaMaps(List<Mapping> mappings) {
        this.mappings = List.copyOf(mappings);
    }

    /** This process: /proc/self/numa_maps with ends from /proc/self/maps. */
    public static NumaMaps ofThisProcess() {
        return read(Path.of("/proc/self/numa_maps"), Path.of("/proc/self/maps"));
    }

    /** Reads a numa_maps file alone (mapping ends unknown). */
    public static NumaMaps read(Path numaMaps) {
        return read(numaMaps, null);
    }

    /** Reads a numa_maps file, and the maps file of the same process for the mapping ends ({@code maps} may be null). */
    public static NumaMaps read(Path numaMaps, Path maps) {
        try {
            Map<Long, Long> ends = maps == null ? Map.of() : readEnds(Files.readAllLines(maps));
            return parse(Files.readAllLines(numaMaps), ends, numaMaps.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read " + numaMaps + (maps == null ? "" : " or " + maps) + " — is /proc mounted?", e);
        }
    }

    /** Parses numa_maps lines; {@code source} names them in errors. */
    public static NumaMaps parse(List<String> lines, String source) {
        return parse(lines, Map.of(), source);
    }

    private static NumaMaps parse(List<String> lines, Map<Long, Long> ends, String source) {
        List<Mapping> out = new ArrayList<>(lines.size());
        int lineNo = 0;
        for (String line : lines) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            out.add(parseLine(line, ends, source, lineNo));
        }
        return new NumaMaps(out);
    }

    private static Mapping parseLine(String line, Map<Long, Long> ends, String source, int lineNo) {
        int sp = line.indexOf(' ');
        if (sp <= 0) {
            throw syntax(source, lineNo, line, "no space after the address");
        }
        long start;
        try {
            start = Long.parseUnsignedLong(line.substring(0, sp), 16);
        } catch (NumberFormatException e) {
            throw syntax(source, lineNo, line, "\"" + line.substring(0, sp) + "\" is not a hex address");
        }
        String rest = line.substring(sp + 1);
        String policy;
        Matcher m = POLICY.matcher(rest);
        if (m.lookingAt() && (m.end() == rest.length() || rest.charAt(m.end()) == ' ')) {
            policy = m.group();
        } else {
            int e = rest.indexOf(' ');
            policy = e < 0 ? rest : rest.substring(0, e);
        }
        String fields = rest.substring(Math.min(rest.length(), policy.length()));
        SortedMap<Integer, Long> nodes = new TreeMap<>();
        long pageKb = 4;
        for (String f : fields.strip().split(" +")) {
            Matcher n = NODE_FIELD.matcher(f);
            if (n.matches()) {
                nodes.put(Integer.parseInt(n.group(1)), Long.parseLong(n.group(2)));
            } else if (f.startsWith("kernelpagesize_kB=")) {
                try {
                    pageKb = Long.parseLong(f.substring("kernelpagesize_kB=".length()));
                } catch (NumberFormatException e) {
                    throw syntax(source, lineNo, line, "bad kernelpagesize_kB");
                }
            }
        }
        return new Mapping(start, ends.getOrDefault(start, -1L), policy, nodes, pageKb);
    }

    private static Map<Long, Long> readEnds(List<String> mapsLines) {
        Map<Long, Long> ends = new HashMap<>();
        for (String line : mapsLines) {
            int sp = line.indexOf(' ');
            int dash = line.indexOf('-');
            if (dash <= 0 || sp < dash) {
                continue;
            }
            try {
                ends.put(
                        Long.parseUnsignedLong(line.substring(0, dash), 16),
                        Long.parseUnsignedLong(line.substring(dash + 1, sp), 16));
            } catch (NumberFormatException e) {
                // a line that is not an address range carries no end
            }
        }
        return ends;
    }

    private static NumacubeException syntax(String source, int lineNo, String line, String why) {
        return new NumacubeException(
                NumacubeException.Kind.SYNTAX,
                source + ":" + lineNo + ": " + why + " in \""
                        + (line.length() > 100 ? line.substring(0, 97) + "..." : line)
                        + "\" (expected e.g. 7efec03ee000 bind:0 anon=64 N0=64 kernelpagesize_kB=4)");
    }

    /** Whether any mapping of this process contains {@code address} now (reads /proc/self/numa_maps and maps):
     *  after a segment is freed, false at its address unless something else was mapped there since. */
    public static boolean mappedInThisProcess(long address) {
        return ofThisProcess().hasMappingAt(address);
    }

    public List<Mapping> mappings() {
        return mappings;
    }

    /** Whether a mapping contains {@code address} (starts at it, when mapping ends are unknown). */
    public boolean hasMappingAt(long address) {
        return mappings.stream().anyMatch(m -> m.contains(address));
    }

    /** The mappings that overlap {@code [start, start+byteSize)}; with unknown ends, those starting in it. */
    public List<Mapping> overlapping(long start, long byteSize) {
        long end = start + byteSize;
        List<Mapping> out = new ArrayList<>();
        for (Mapping m : mappings) {
            boolean overlaps = m.end() < 0
                    ? Long.compareUnsigned(m.start(), start) >= 0 && Long.compareUnsigned(m.start(), end) < 0
                    : Long.compareUnsigned(m.start(), end) < 0 && Long.compareUnsigned(m.end(), start) > 0;
            if (overlaps) {
                out.add(m);
            }
        }
        return out;
    }
}
