package io.numacube.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code numacube auth}: manages the auth file of {@code serve --auth-file}; one class per subcommand. */
@Command(
        name = "auth",
        mixinStandardHelpOptions = true,
        description = {
            "Manages the users of an auth file for numacube serve --auth-file: names, roles (reader: queries; writer:"
                    + " queries and writes) and SCRAM-SHA-256 password verifiers, as PostgreSQL keeps them (no"
                    + " password is stored).",
            "Example: numacube auth add-user --file users.auth --user alice --role writer"
        },
        subcommands = {AddUserCommand.class, RemoveUserCommand.class, ListUsersCommand.class})
final class AuthCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
