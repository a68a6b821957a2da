package io.numacube.cli;

import io.numacube.numa.base.NumacubeException;
import io.numacube.server.auth.AuthFile;
import io.numacube.server.auth.User;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code numacube auth list}: the users of an auth file, one a line: name, role, PBKDF2 iterations. */
@Command(
        name = "list",
        mixinStandardHelpOptions = true,
        description = {
            "Lists the users of an auth file: name, role and the iterations of the password's verifier.",
            "Example: numacube auth list --file users.auth"
        })
final class ListUsersCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--file", required = true, paramLabel = "FILE", description = "The auth file.")
    Path file;

    @Override
    public Integer call() {
        if (!Files.exists(file)) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "no auth file: file=" + file + " — numacube auth add-user --file " + file + " creates it");
        }
        PrintWriter out = spec.commandLine().getOut();
        List<User> users = AuthFile.load(file).users();
        int width = users.stream().mapToInt(u -> u.name().length()).max().orElse(0);
        for (User u : users) {
            out.printf(
                    "%-" + width + "s  %-6s  iterations=%d%n",
                    u.name(),
                    u.role().text(),
                    u.verifier().iterations());
        }
        out.flush();
        return 0;
    }
}
