package io.numacube.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code numacube} command: dispatches to one class per subcommand. */
@Command(name = "numacube", mixinStandardHelpOptions = true, version = "numacube 0.1.0",
        description = "A NUMA-aware in-memory aggregation engine for the JVM.",
        subcommands = {CommandLine.HelpCommand.class, BenchCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return new CommandLine(new Main());
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
