package io.numacube.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages of numa, engine, server and cli point one way: every reference from one numacube package to another (an
 * import or a fully qualified name in code; comments and strings do not count) must be allowed by {@link #ALLOWED},
 * a table read top to bottom like the README's package map, and the table itself has no cycle. A new package must
 * be added to the table, saying what it may use.
 *
 * <p>Why a source scan and not ArchUnit or JPMS: JPMS {@code module-info} only governs modules, not the packages
 * inside one, and would force every test and tool onto the module path; ArchUnit would add a dependency for one
 * rule. The scan reads the sources of the four modules from this module's working directory (Maven runs tests
 * in {@code cli/}), so one table covers them all.
 */
class PackageLayersTest {

    /** Each package (without {@code io.numacube.}) and the packages it may use directly. */
    static final Map<String, Set<String>> ALLOWED = new TreeMap<>(Map.ofEntries(
            // numa: the runtime. base (the exception family) at the bottom, the NumaRuntime facade on top.
            Map.entry("numa.base", Set.of()),
            Map.entry("numa.topology", Set.of("numa.base")),
            Map.entry("numa.kernel", Set.of("numa.base", "numa.topology")),
            Map.entry("numa.binding", Set.of("numa.base", "numa.kernel", "numa.topology")),
            Map.entry("numa.exec", Set.of("numa.base", "numa.kernel", "numa.topology")),
            Map.entry("numa.memory", Set.of("numa.base", "numa.exec", "numa.kernel", "numa.topology")),
            Map.entry("numa.plan", Set.of("numa.base", "numa.binding", "numa.memory", "numa.topology")),
            Map.entry("numa.jvm", Set.of("numa.base", "numa.binding", "numa.memory", "numa.topology")),
            Map.entry(
                    "numa",
                    Set.of(
                            "numa.base",
                            "numa.binding",
                            "numa.exec",
                            "numa.kernel",
                            "numa.memory",
                            "numa.plan",
                            "numa.topology")),
            // engine: the cube. api (Cube) -> sql -> plan; exec -> plan, storage; ingest -> storage; all -> schema.
            Map.entry("engine.schema", Set.of("numa.base")),
            Map.entry("engine.workers", Set.of("numa.base", "numa.exec", "numa.topology")),
            Map.entry("engine.result", Set.of("engine.schema", "numa.base")),
            Map.entry(
                    "engine.storage",
                    Set.of("engine.schema", "engine.workers", "numa.base", "numa.memory", "numa.topology")),
            Map.entry("engine.gen", Set.of("engine.schema", "numa.base")),
            Map.entry("engine.plan", Set.of("engine.schema", "numa.base")),
            Map.entry(
                    "engine.ingest",
                    Set.of("engine.gen", "engine.schema", "engine.storage", "engine.workers", "numa.base")),
            Map.entry(
                    "engine.ingest.csv",
                    Set.of("engine.ingest", "engine.schema", "engine.storage", "engine.workers", "numa.base")),
            Map.entry(
                    "engine.ingest.parquet",
                    Set.of("engine.ingest", "engine.schema", "engine.storage", "engine.workers", "numa.base")),
            Map.entry(
                    "engine.exec",
                    Set.of(
                            "engine.plan",
                            "engine.result",
                            "engine.schema",
                            "engine.storage",
                            "engine.workers",
                            "numa.base")),
            Map.entry("engine.sql", Set.of("engine.plan", "engine.schema", "numa.base")),
            Map.entry(
                    "engine",
                    Set.of(
                            "engine.exec",
                            "engine.gen",
                            "engine.ingest",
                            // an UPDATE's quoted value is read as a loaded row's text field (TextField)
                            "engine.ingest.csv",
                            "engine.plan",
                            "engine.result",
                            "engine.schema",
                            "engine.sql",
                            "engine.storage",
                            "engine.workers",
                            "numa",
                            "numa.base",
                            "numa.topology")),
            // server: numacube serve. query (shared) <- write <- pgwire.types <- pgwire.catalog <- pgwire; http; the
            // facade. wal: the durable log, self-contained (no engine).
            Map.entry("server.query", Set.of("engine", "engine.result", "engine.schema", "numa.base")),
            // server.auth: users, roles, SCRAM verifiers and the auth file; knows no protocol and no engine.
            Map.entry("server.auth", Set.of("numa.base")),
            Map.entry("server.wal", Set.of("numa.base")),
            // server.tls: the certificate and key both front ends speak TLS with; the JDK only.
            Map.entry("server.tls", Set.of("numa.base")),
            Map.entry(
                    "server.write",
                    Set.of(
                            "engine",
                            "engine.ingest",
                            "engine.ingest.csv",
                            "engine.schema",
                            "engine.workers",
                            "numa.base",
                            "server.query")),
            Map.entry(
                    "server.http",
                    Set.of(
                            "engine",
                            "engine.result",
                            "engine.schema",
                            "numa.base",
                            "server.auth",
                            "server.query",
                            "server.tls",
                            "server.write")),
            Map.entry("server.pgwire.types", Set.of("engine.result", "engine.schema", "numa.base", "server.query")),
            Map.entry(
                    "server.pgwire.catalog",
                    Set.of("engine", "engine.schema", "numa.base", "server.pgwire.types", "server.query")),
            Map.entry(
                    "server.pgwire",
                    Set.of(
                            "engine",
                            "engine.result",
                            "engine.schema",
                            "numa.base",
                            "server.auth",
                            "server.pgwire.catalog",
                            "server.pgwire.types",
                            "server.query",
                            "server.tls",
                            "server.write")),
            // durable: the WAL, checkpoints and recovery of serve --data-dir, over the write path; the facade and the
            // front ends do not know it (the serve command puts them together).
            Map.entry(
                    "server.durable",
                    Set.of(
                            "engine",
                            "engine.ingest",
                            "engine.ingest.csv",
                            "engine.schema",
                            "numa.base",
                            "server.wal",
                            "server.write")),
            Map.entry(
                    "server",
                    Set.of(
                            "engine",
                            "numa.base",
                            "server.auth",
                            "server.http",
                            "server.pgwire",
                            "server.query",
                            "server.tls",
                            "server.write")),
            // cli: the command. Subcommand helpers below the commands; nothing depends on cli.
            Map.entry("cli.output", Set.of("numa.base")),
            Map.entry(
                    "cli.doctor",
                    Set.of(
                            "cli.output",
                            "numa",
                            "numa.base",
                            "numa.binding",
                            "numa.exec",
                            "numa.jvm",
                            "numa.kernel",
                            "numa.memory",
                            "numa.plan",
                            "numa.topology")),
            Map.entry(
                    "cli.cube",
                    Set.of(
                            "cli.output",
                            "engine",
                            "engine.gen",
                            "engine.ingest",
                            "engine.ingest.csv",
                            "engine.ingest.parquet",
                            "engine.result",
                            "engine.schema",
                            "engine.storage",
                            "numa",
                            "numa.base",
                            "numa.binding",
                            "numa.topology")),
            Map.entry(
                    "cli",
                    Set.of(
                            "cli.cube",
                            "cli.doctor",
                            "cli.output",
                            "engine",
                            "engine.gen",
                            "engine.ingest",
                            "engine.ingest.csv",
                            "engine.ingest.parquet",
                            "engine.result",
                            "engine.schema",
                            "engine.storage",
                            "numa",
                            "numa.base",
                            "numa.binding",
                            "numa.jvm",
                            "numa.memory",
                            "numa.topology",
                            "server",
                            "server.auth",
                            "server.durable",
                            "server.query",
                            "server.tls",
                            "server.wal",
                            "server.write"))));

    private static final List<Path> SOURCE_ROOTS = List.of(
            Path.of("../numa/src/main/java"),
            Path.of("../engine/src/main/java"),
            Path.of("../server/src/main/java"),
            Path.of("src/main/java"));
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package io\\.numacube\\.([\\w.]+);");
    private static final Pattern REFERENCE = Pattern.compile("\\bio\\.numacube\\.([a-z]\\w*(?:\\.[a-z]\\w*)*)\\.[A-Z]");
    private static final Pattern COMMENT_OR_STRING =
            Pattern.compile("/\\*.*?\\*/|//[^\\n]*|'(?:\\\\.|[^'\\\\])'|\"(?:\\\\.|[^\"\\\\])*\"", Pattern.DOTALL);

    @Test
    void everyReferenceBetweenPackagesIsAllowed() {
        List<String> wrong = new ArrayList<>();
        Set<String> unknown = new TreeSet<>();
        for (SourceFile f : sources()) {
            if (!ALLOWED.containsKey(f.pkg())) {
                unknown.add(f.pkg() + " (" + f.path() + ")");
                continue;
            }
            for (String used : f.references()) {
                if (!used.equals(f.pkg()) && !ALLOWED.get(f.pkg()).contains(used)) {
                    wrong.add(f.path() + ": package " + f.pkg() + " uses " + used);
                }
            }
        }
        assertEquals(Set.of(), unknown, "packages missing from PackageLayersTest.ALLOWED: say what they may use");
        assertEquals(List.of(), wrong, "references against the package layers (PackageLayersTest.ALLOWED)");
    }

    @Test
    void theLayerTableHasNoCycle() {
        List<String> cycle = findCycle(ALLOWED);
        assertTrue(cycle.isEmpty(), "the allowed package dependencies form a cycle: " + String.join(" -> ", cycle));
    }

    @Test
    void aCycleInATableIsFound() {
        Map<String, Set<String>> cyclic = Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"));
        assertEquals(4, findCycle(cyclic).size());
    }

    @Test
    void theScanSeesTheSourcesOfEveryModuleButTheBench() {
        Set<String> modules = new TreeSet<>();
        for (SourceFile f : sources()) {
            modules.add(f.pkg().split("\\.")[0]);
        }
        assertEquals(Set.of("cli", "engine", "numa", "server"), modules);
    }

    /** The first cycle found by a depth-first walk, as its path with the first package repeated at the end. */
    static List<String> findCycle(Map<String, Set<String>> graph) {
        Map<String, Integer> state = new TreeMap<>();
        for (String start : graph.keySet()) {
            List<String> path = new ArrayList<>();
            if (visit(start, graph, state, path)) {
                return path;
            }
        }
        return List.of();
    }

    private static boolean visit(
            String node, Map<String, Set<String>> graph, Map<String, Integer> state, List<String> path) {
        int s = state.getOrDefault(node, 0);
        if (s == 2) {
            return false;
        }
        if (s == 1) {
            path.subList(0, path.indexOf(node)).clear();
            path.add(node);
            return true;
        }
        state.put(node, 1);
        path.add(node);
        for (String next : new TreeSet<>(graph.getOrDefault(node, Set.of()))) {
            if (visit(next, graph, state, path)) {
                return true;
            }
        }
        path.remove(path.size() - 1);
        state.put(node, 2);
        return false;
    }

    private record SourceFile(Path path, String pkg, Set<String> references) {}

    private static List<SourceFile> sources() {
        List<SourceFile> files = new ArrayList<>();
        for (Path root : SOURCE_ROOTS) {
            assertTrue(Files.isDirectory(root), "no source tree at " + root.toAbsolutePath());
            try (Stream<Path> walk = Files.walk(root)) {
                for (Path p : walk.filter(x -> x.toString().endsWith(".java")).toList()) {
                    files.add(read(p));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return files;
    }

    private static SourceFile read(Path p) throws IOException {
        String text = Files.readString(p);
        Matcher pkg = PACKAGE.matcher(text);
        assertTrue(pkg.find(), "no package line in " + p);
        String code = COMMENT_OR_STRING.matcher(text).replaceAll(" ");
        Set<String> refs = new TreeSet<>();
        Matcher m = REFERENCE.matcher(code);
        while (m.find()) {
            refs.add(m.group(1));
        }
        return new SourceFile(p, pkg.group(1), refs);
    }
}
