package io.numacube.cli;

import io.numacube.server.auth.AuthFile;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code numacube auth remove-user}: removes a user's line from an auth file, keeping the others. */
@Command(
        name = "remove-user",
        mixinStandardHelpOptions = true,
        description = {
            "Removes a user from an auth file. A running server keeps the users it read at start: restart it.",
            "Example: numacube auth remove-user --file users.auth --user alice"
        })
final class RemoveUserCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--file", required = true, paramLabel = "FILE", description = "The auth file.")
    Path file;

    @Option(names = "--user", required = true, paramLabel = "NAME", description = "The user's name.")
    String user;

    @Override
    public Integer call() {
        AuthFile.load(file).withoutUser(user).save();
        spec.commandLine().getOut().println("removed user " + user + " from " + file);
        return 0;
    }
}
