package io.numacube.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the {@code numacube} command in-process and captures what it printed, for tests. */
record CliRun(int exitCode, String out, String err) {

    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }

    /** Runs the command with {@code stdin} as its standard input (UTF-8), restoring {@link System#in} after. */
    static CliRun withStdin(String stdin, String... args) {
        java.io.InputStream saved = System.in;
        System.setIn(new java.io.ByteArrayInputStream(stdin.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        try {
            return of(args);
        } finally {
            System.setIn(saved);
        }
    }

    /** Runs the command with a stdout on which every write fails, as on a full disk or {@code > /dev/full}. */
    static CliRun toAFullDisk(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(
                new java.io.OutputStream() {
                    @Override
                    public void write(int b) throws java.io.IOException {
                        throw new java.io.IOException("No space left on device");
                    }
                },
                true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new CliRun(code, "", err.toString());
    }
}
