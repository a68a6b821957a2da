package io.numacube.bench.peer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The Python virtual environment the Python peers run in ({@link PythonPeers}): created once in a directory (by
 * default {@code build/peers-venv}) from a base {@code python3} with {@link #REQUIREMENTS}, and reused while the
 * stamp file in it lists exactly those pins; a stamp that differs (or is missing) recreates it.
 *
 * <p>{@link #prepare} never throws for a missing Python, a Python without {@code venv}, or a registry out of reach:
 * it answers {@link Unavailable} with the reason and what the user can do, so that the bench can report which peers
 * it skipped and why. Not thread-safe: two processes preparing the same directory at once may both rebuild it.
 */
public final class PeerVenv {

    /** The packages and versions the Python peers are measured with (pinned, so that runs compare). */
    public static final List<String> REQUIREMENTS = List.of("chdb==4.4.0", "polars==2.1.0", "duckdb==2.0.0");

    /** Where the bench keeps the environment unless told otherwise (relative to the working directory). */
    public static final Path DEFAULT_DIR = Path.of("build", "peers-venv");

    /** The file in the environment that lists the pins it was built with, one a line. */
    static final String STAMP = "numacube-requirements.txt";

    private static final long VENV_TIMEOUT_SECONDS = 120;
    private static final long PIP_TIMEOUT_SECONDS = 900;

    private PeerVenv() {}

    /** What {@link #prepare} found: a usable environment, or why there is none. */
    public sealed interface Outcome permits Ready, Unavailable {}

    /**
     * A usable environment.
     *
     * @param python the environment's interpreter
     * @param built  whether this call created it (false: reused)
     */
    public record Ready(Path python, boolean built) implements Outcome {}

    /** No environment: {@code reason} says why and what to do. */
    public record Unavailable(String reason) implements Outcome {}

    /**
     * Reuses the environment in {@code dir} when its stamp matches {@link #REQUIREMENTS}, else creates it with
     * {@code basePython -m venv} and installs the pins with its pip.
     *
     * @param basePython the interpreter to create it with ({@code python3}, or a path)
     * @param progress   receives one line per step that takes time (creating, installing)
     */
    public static Outcome prepare(Path dir, String basePython, Consumer<String> progress) {
        Path python = dir.resolve("bin").resolve("python");
        if (Files.isExecutable(python) && stampMatches(dir)) {
            return new Ready(python, false);
        }
        Run version = Run.of(List.of(basePython, "--version"), 30);
        if (version.exit() != 0) {
            return new Unavailable("no Python to create the peers' environment with: " + basePython + " --version "
                    + version.describe() + " — install Python 3.10 or later, or set NUMACUBE_PYTHON to one");
        }
        try {
            deleteTree(dir);
        } catch (IOException e) {
            return new Unavailable("cannot clear the old peers' environment: dir=" + dir + " — " + e.getMessage());
        }
        progress.accept("creating the Python peers' environment " + dir + " with "
                + version.output().strip());
        Run venv = Run.of(List.of(basePython, "-m", "venv", dir.toString()), VENV_TIMEOUT_SECONDS);
        if (venv.exit() != 0) {
            return new Unavailable(basePython + " -m venv " + dir + " " + venv.describe()
                    + " — on Debian or Ubuntu: apt-get install python3-venv");
        }
        progress.accept("installing " + String.join(" ", REQUIREMENTS) + " into " + dir + " (once)");
        List<String> pip = new ArrayList<>(
                List.of(python.toString(), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"));
        pip.addAll(REQUIREMENTS);
        Run install = Run.of(pip, PIP_TIMEOUT_SECONDS);
        if (install.exit() != 0) {
            return new Unavailable("pip install " + String.join(" ", REQUIREMENTS) + " " + install.describe()
                    + " — is the package registry reachable? (pip's own proxy and index settings apply)");
        }
        try {
            Files.write(dir.resolve(STAMP), REQUIREMENTS, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return new Unavailable("cannot write the environment's stamp: file=" + dir.resolve(STAMP) + " — " + e);
        }
        return new Ready(python, true);
    }

    static boolean stampMatches(Path dir) {
        try {
            return Files.readAllLines(dir.resolve(STAMP), StandardCharsets.UTF_8)
                    .equals(REQUIREMENTS);
        } catch (IOException e) {
            return false;
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /**
     * A finished child process: its exit status (-1 when it could not start or ran past its time) and its output,
     * stdout and stderr together. Immutable.
     */
    record Run(int exit, String output) {

        static Run of(List<String> command, long timeoutSeconds) {
            try {
                Path log = Files.createTempFile("numacube-peer-", ".log");
                try {
                    Process p = new ProcessBuilder(command)
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile())
                            .start();
                    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                        p.destroyForcibly();
                        return new Run(-1, "ran over " + timeoutSeconds + " s: " + Files.readString(log));
                    }
                    return new Run(p.exitValue(), Files.readString(log));
                } finally {
                    Files.deleteIfExists(log);
                }
            } catch (IOException e) {
                return new Run(-1, "could not run: " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Run(-1, "interrupted");
            }
        }

        /** "failed: exit=1: the last lines of output" (or "could not run: ..."), for messages. */
        String describe() {
            String[] lines = output.strip().split("\n");
            String tail = String.join(" | ", List.of(lines).subList(Math.max(0, lines.length - 3), lines.length));
            return exit == -1 ? tail : "failed: exit=" + exit + ": " + tail;
        }
    }
}
