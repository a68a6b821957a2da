package io.numacube.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code numacube} command: dispatches to one class per subcommand. */
@Command(
        name = "numacube",
        mixinStandardHelpOptions = true,
        version = "numacube " + Main.VERSION,
        description = "A NUMA-aware in-memory aggregation engine for the JVM.",
        subcommands = {
            CommandLine.HelpCommand.class,
            DoctorCommand.class,
            GenerateCommand.class,
            LoadCommand.class,
            QueryCommand.class,
            ServeCommand.class,
            AuthCommand.class,
            DemoCommand.class,
            BenchCommand.class,
            AotTrainCommand.class
        })
public final class Main implements Runnable {

    /** The version printed by {@code --version} and in JSON reports. */
    public static final String VERSION = "0.1.0";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        java.nio.charset.Charset charset = System.out.charset();
        java.io.OutputStream stdout = io.numacube.cli.output.ResultStream.stdout();
        System.setOut(new java.io.PrintStream(stdout, true, charset));
        int status;
        try {
            CommandLine cl = commandLine();
            cl.setOut(new java.io.PrintWriter(
                    new java.io.BufferedWriter(new java.io.OutputStreamWriter(stdout, charset)), true));
            status = cl.execute(args);
        } catch (Throwable t) {
            // picocli hands only Exceptions to the ErrorReporter: an Error (StackOverflowError, OutOfMemoryError)
            // would otherwise reach the user as a stack trace
            status = ErrorReporter.reportUnexpected(t, new java.io.PrintWriter(System.err, true));
        }
        System.exit(status);
    }

    /** The configured command line: subcommands, and numacube's errors mapped to one clear line and an exit code. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        cl.setExecutionExceptionHandler(new ErrorReporter());
        cl.setExecutionStrategy(parsed -> {
            int code = new CommandLine.RunLast().execute(parsed);
            // a result that did not reach stdout (a full disk, /dev/full, a closed pipe) is a failure, not exit 0
            CommandLine ran = parsed.asCommandLineList().getLast();
            try {
                io.numacube.cli.output.ResultStream.check(ran.getOut());
            } catch (io.numacube.numa.base.NumacubeException e) {
                if (code == 0) {
                    ran.getErr().println("numacube: " + e.getMessage());
                    ran.getErr().flush();
                    code = ErrorReporter.INTERNAL_ERROR;
                }
            }
            return code;
        });
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine failed = ex.getCommandLine();
            failed.getErr().println("numacube: " + ex.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(ex, failed.getErr());
            failed.getErr().println("numacube: see '" + failed.getCommandSpec().qualifiedName() + " --help'");
            failed.getErr().flush();
            return ErrorReporter.USAGE_ERROR;
        });
        return cl;
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
