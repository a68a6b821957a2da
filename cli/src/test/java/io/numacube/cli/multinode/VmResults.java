package io.numacube.cli.multinode;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what the VM stage left under {@code -Dnumavm.results=DIR}: {@code DIR/<config>/} holds {@code checks.tsv}
 * ("CHECK RC SECONDS COMMAND" per line), per check {@code CHECK.env} (Cpus_allowed_list, Mems_allowed_list and
 * Seccomp of a process started with the check's prefix, as the guest kernel reported them), {@code CHECK.json}
 * (doctor's output) or {@code CHECK/} (JUnit XML reports), and {@code numactl-H.txt} (the guest's topology as
 * numactl, not numacube, reads it).
 *
 * <p>Every reader fails the calling test with {@link AssertionError} naming the missing or malformed file: absent
 * results are a failure, never a skip. Stateless apart from immutable values; thread-safe.
 */
final class VmResults {

    static final String PROPERTY = "numavm.results";
    private static final ObjectMapper JSON = new ObjectMapper();

    private VmResults() {}

    /** The results root; fails when the property is unset or names no directory. */
    static Path root() {
        String dir = System.getProperty(PROPERTY);
        if (dir == null || dir.isBlank()) {
            fail("the multinode tests read the VM stage's results, but -D" + PROPERTY + " is not set: run "
                    + "tools/numa-vm/stage (or pass -D" + PROPERTY + "=build/numa-vm-results)");
        }
        Path root = Path.of(dir);
        if (!Files.isDirectory(root)) {
            fail("VM stage results missing: " + PROPERTY + "=" + dir + " is not a directory — run tools/numa-vm/stage");
        }
        return root;
    }

    static Config config(String name) {
        return config(root(), name);
    }

    static Config config(Path root, String name) {
        Path dir = root.resolve(name);
        if (!Files.isDirectory(dir)) {
            fail("VM stage results missing: config=" + name + " dir=" + dir + " — the VM for this configuration did "
                    + "not run or wrote nothing (see build/numa-vm-results/" + name + "/guest.log)");
        }
        return new Config(name, dir);
    }

    /** Parses the kernel's list format ("0-2,5", "" = empty). */
    static SortedSet<Integer> parseList(String list) {
        SortedSet<Integer> ids = new TreeSet<>();
        String s = list.strip();
        if (s.isEmpty()) {
            return ids;
        }
        for (String part : s.split(",")) {
            String[] range = part.strip().split("-", -1);
            if (range.length > 2) {
                throw new IllegalArgumentException("bad id list: list=" + list);
            }
            int lo = Integer.parseInt(range[0].strip());
            int hi = range.length == 2 ? Integer.parseInt(range[1].strip()) : lo;
            for (int i = lo; i <= hi; i++) {
                ids.add(i);
            }
        }
        return ids;
    }

    /** One configuration's results directory. */
    record Config(String name, Path dir) {

        Path file(String relative) {
            Path p = dir.resolve(relative);
            if (!Files.isRegularFile(p)) {
                fail("VM stage result missing: config=" + name + " file=" + p + " — the check did not run (see "
                        + dir.resolve("guest.log") + ")");
            }
            return p;
        }

        String read(String relative) {
            try {
                return Files.readString(file(relative));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** checks.tsv, by check name. */
        Map<String, CheckLine> checks() {
            Map<String, CheckLine> lines = new LinkedHashMap<>();
            for (String line : read("checks.tsv").split("\n")) {
                if (line.isBlank()) {
                    continue;
                }
                String[] f = line.split("\t", 4);
                if (f.length < 3) {
                    fail("malformed checks.tsv line: config=" + name + " line=" + line);
                }
                lines.put(
                        f[0],
                        new CheckLine(
                                f[0], Integer.parseInt(f[1]), Double.parseDouble(f[2]), f.length > 3 ? f[3] : ""));
            }
            return lines;
        }

        CheckLine check(String check) {
            CheckLine line = checks().get(check);
            if (line == null) {
                fail("VM stage check missing from checks.tsv: config=" + name + " check=" + check + " ran="
                        + checks().keySet());
            }
            return line;
        }

        ProcessEnv env(String check) {
            return ProcessEnv.parse(name + "/" + check + ".env", read(check + ".env"));
        }

        JsonNode json(String check) {
            String text = read(check + ".json");
            if (text.isBlank()) {
                fail("doctor printed nothing: config=" + name + " check=" + check + " stderr=" + tail(check + ".err"));
            }
            try {
                return JSON.readTree(text);
            } catch (IOException e) {
                throw new AssertionError(
                        "doctor's output is not JSON: config=" + name + " check=" + check + " error=" + e.getMessage()
                                + " stderr=" + tail(check + ".err"),
                        e);
            }
        }

        Optional<JsonNode> optionalJson(String relative) {
            Path p = dir.resolve(relative);
            if (!Files.isRegularFile(p)) {
                return Optional.empty();
            }
            try {
                return Optional.of(JSON.readTree(p.toFile()));
            } catch (IOException e) {
                throw new AssertionError("not JSON: file=" + p + " error=" + e.getMessage(), e);
            }
        }

        GuestTopology topology() {
            return GuestTopology.parseNumactl(name + "/numactl-H.txt", read("numactl-H.txt"));
        }

        String tail(String relative) {
            Path p = dir.resolve(relative);
            try {
                String s = Files.isRegularFile(p) ? Files.readString(p) : "<no " + relative + ">";
                return s.length() > 1500 ? "..." + s.substring(s.length() - 1500) : s;
            } catch (IOException e) {
                return "<unreadable: " + e.getMessage() + ">";
            }
        }
    }

    /** One line of checks.tsv. */
    record CheckLine(String check, int rc, double seconds, String command) {}

    /** What the guest kernel allowed a process started with the check's prefix. */
    record ProcessEnv(SortedSet<Integer> cpus, SortedSet<Integer> mems, int seccomp) {

        static ProcessEnv parse(String what, String text) {
            Map<String, String> kv = new TreeMap<>();
            for (String line : text.split("\n")) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    kv.put(
                            line.substring(0, colon).strip(),
                            line.substring(colon + 1).strip());
                }
            }
            for (String key : new String[] {"Cpus_allowed_list", "Mems_allowed_list", "Seccomp"}) {
                if (!kv.containsKey(key)) {
                    fail("no " + key + " in " + what + ": " + text.strip());
                }
            }
            return new ProcessEnv(
                    parseList(kv.get("Cpus_allowed_list")),
                    parseList(kv.get("Mems_allowed_list")),
                    Integer.parseInt(kv.get("Seccomp")));
        }
    }

    /** The guest's nodes as {@code numactl -H} printed them: CPUs and size (MB) per node. */
    record GuestTopology(SortedMap<Integer, SortedSet<Integer>> cpusByNode, SortedMap<Integer, Long> sizeMb) {

        private static final Pattern CPUS = Pattern.compile("^node (\\d+) cpus:(.*)$");
        private static final Pattern SIZE = Pattern.compile("^node (\\d+) size: (\\d+) MB$");

        static GuestTopology parseNumactl(String what, String text) {
            SortedMap<Integer, SortedSet<Integer>> cpus = new TreeMap<>();
            SortedMap<Integer, Long> size = new TreeMap<>();
            for (String line : text.split("\n")) {
                Matcher m = CPUS.matcher(line.strip());
                if (m.matches()) {
                    SortedSet<Integer> ids = new TreeSet<>();
                    for (String c : m.group(2).strip().split("\\s+")) {
                        if (!c.isEmpty()) {
                            ids.add(Integer.parseInt(c));
                        }
                    }
                    cpus.put(Integer.parseInt(m.group(1)), Collections.unmodifiableSortedSet(ids));
                }
                Matcher s = SIZE.matcher(line.strip());
                if (s.matches()) {
                    size.put(Integer.parseInt(s.group(1)), Long.parseLong(s.group(2)));
                }
            }
            if (cpus.isEmpty()) {
                fail("no 'node N cpus:' line in " + what + ": " + text.strip());
            }
            return new GuestTopology(Collections.unmodifiableSortedMap(cpus), Collections.unmodifiableSortedMap(size));
        }

        /** The nodes owning at least one of {@code cpus}. */
        SortedSet<Integer> nodesOf(Set<Integer> cpus) {
            SortedSet<Integer> nodes = new TreeSet<>();
            cpusByNode.forEach((node, own) -> {
                if (own.stream().anyMatch(cpus::contains)) {
                    nodes.add(node);
                }
            });
            return nodes;
        }

        SortedSet<Integer> memoryOnlyNodes() {
            SortedSet<Integer> nodes = new TreeSet<>();
            cpusByNode.forEach((node, own) -> {
                if (own.isEmpty() && sizeMb.getOrDefault(node, 0L) > 0) {
                    nodes.add(node);
                }
            });
            return nodes;
        }
    }
}
