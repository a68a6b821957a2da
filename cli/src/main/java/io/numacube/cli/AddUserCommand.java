package io.numacube.cli;

import io.numacube.numa.base.NumacubeException;
import io.numacube.server.auth.AuthFile;
import io.numacube.server.auth.Role;
import io.numacube.server.auth.ScramVerifier;
import io.numacube.server.auth.User;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code numacube auth add-user}: adds a user, or with {@code --replace} changes one's password and role, keeping the
 * file's other lines. The password is read from the terminal without echo, twice, or from stdin's first line.
 */
@Command(
        name = "add-user",
        mixinStandardHelpOptions = true,
        description = {
            "Adds a user to an auth file (created, readable by its owner only, when missing): its role and the"
                    + " SCRAM-SHA-256 verifier of a password read from the terminal (twice, not shown) or, with"
                    + " --password-stdin, from the first line of stdin.",
            "Example: numacube auth add-user --file users.auth --user alice --role writer"
        })
final class AddUserCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--file", required = true, paramLabel = "FILE", description = "The auth file.")
    Path file;

    @Option(names = "--user", required = true, paramLabel = "NAME", description = "The user's name.")
    String user;

    @Option(
            names = "--role",
            required = true,
            paramLabel = "ROLE",
            description = "reader (may query) or writer (may also INSERT, COPY, UPDATE, DELETE and post rows).")
    String role;

    @Option(names = "--password-stdin", description = "Read the password from the first line of stdin.")
    boolean passwordStdin;

    @Option(names = "--replace", description = "Change the password and role of a user that exists.")
    boolean replace;

    @Option(
            names = "--iterations",
            paramLabel = "N",
            defaultValue = "4096",
            description = "PBKDF2 iterations of the verifier, at least 4096 (default: ${DEFAULT-VALUE}, PostgreSQL's).")
    int iterations;

    @Override
    public Integer call() {
        Role r = Role.parse(role);
        User.checkName(user);
        if (iterations < ScramVerifier.DEFAULT_ITERATIONS) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "--iterations must be at least 4096 (RFC 7677): iterations=" + iterations);
        }
        AuthFile f = AuthFile.load(file);
        if (f.has(user) && !replace) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "the user exists: user=" + user + " file=" + file + " — add --replace to change its password and"
                            + " role, or remove-user first");
        }
        String password = passwordStdin ? PasswordInput.fromStdin(System.in) : PasswordInput.fromTerminal(user);
        User u = new User(user, r, ScramVerifier.of(password, iterations, new SecureRandom()));
        boolean existed = f.has(user);
        f.withUser(u).save();
        spec.commandLine()
                .getOut()
                .println((existed ? "changed" : "added") + " user " + user + " (" + r.text() + ") in " + file);
        return 0;
    }
}
