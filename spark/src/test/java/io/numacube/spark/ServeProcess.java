package io.numacube.spark;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real {@code numacube serve} child process on free ports, started from the cli module's build
 * ({@code cli/target/numacube-cli.jar} and {@code cli/target/lib}) as the {@code numacube} launcher starts it; its
 * stderr goes to a file under {@code target/} named by the test. Killed by {@link #close}.
 */
final class ServeProcess implements AutoCloseable {

    private static final Pattern READY = Pattern.compile("^numacube ready http://([^:]+):(\\d+) .*");

    private final Process process;
    private final ShardAddress address;

    private ServeProcess(Process process, ShardAddress address) {
        this.process = process;
        this.address = address;
    }

    /** Starts {@code serve} with {@code args} (ports, warm-up and machine-following are set here) and waits for it. */
    static CompletableFuture<ServeProcess> start(String name, List<String> args) {
        return start(name, args, "384m");
    }

    /** Starts {@code serve} with {@code args} and a heap of {@code heap} ({@code -Xmx}), and waits for it. */
    static CompletableFuture<ServeProcess> start(String name, List<String> args, String heap) {
        Path cli = Path.of("..", "cli", "target").toAbsolutePath().normalize();
        if (!Files.isRegularFile(cli.resolve("numacube-cli.jar"))) {
            throw new IllegalStateException("the cli is not built: " + cli.resolve("numacube-cli.jar")
                    + " is missing — build it first: mvn package -DskipTests -pl numa,engine,server,cli");
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-Xmx" + heap,
                "-cp",
                cli.resolve("numacube-cli.jar") + java.io.File.pathSeparator + cli.resolve("lib") + "/*",
                "io.numacube.cli.Main",
                "serve",
                "--http-port",
                "0",
                "--pg-port",
                "0",
                "--warm-up",
                "0",
                "--no-follow-machine",
                "--max-concurrent-queries",
                "2"));
        command.addAll(args);
        return CompletableFuture.supplyAsync(() -> launch(name, command));
    }

    private static ServeProcess launch(String name, List<String> command) {
        try {
            Path log = Path.of("target", "serve-" + name + ".log");
            Process p = new ProcessBuilder(command).redirectError(log.toFile()).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                Matcher m = READY.matcher(line);
                if (m.matches()) {
                    return new ServeProcess(p, new ShardAddress(m.group(1), Integer.parseInt(m.group(2))));
                }
            }
            p.destroyForcibly();
            throw new IllegalStateException("numacube serve " + name + " ended before its ready line: exit="
                    + p.waitFor() + " stderr=" + Files.readString(log));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    ShardAddress address() {
        return address;
    }

    /** Kills the process at once (SIGKILL) and waits for it to be gone. */
    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }
}
