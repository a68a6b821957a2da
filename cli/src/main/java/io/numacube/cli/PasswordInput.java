package io.numacube.cli;

import io.numacube.numa.base.NumacubeException;
import java.io.ByteArrayOutputStream;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads a new password for {@code auth add-user}: from the terminal without echo, typed twice, or from the first line
 * of stdin (UTF-8; the line end is not part of it). An empty password is refused. Stateless.
 */
final class PasswordInput {

    /** Longer input on stdin is refused rather than read without end. */
    static final int MAX_BYTES = 4096;

    private PasswordInput() {}

    static String fromTerminal(String user) {
        Console c = System.console();
        if (c == null || !c.isTerminal()) {
            throw invalid("no terminal to read the password from — pipe it in with --password-stdin");
        }
        char[] first = c.readPassword("Password for %s: ", user);
        char[] again = first == null ? null : c.readPassword("Password again: ");
        if (first == null || again == null) {
            throw invalid("no password: the terminal closed");
        }
        boolean same = Arrays.equals(first, again);
        String password = new String(first);
        Arrays.fill(first, '\0');
        Arrays.fill(again, '\0');
        if (!same) {
            throw invalid("the passwords differ — nothing was changed; run the command again");
        }
        return nonEmpty(password);
    }

    static String fromStdin(InputStream in) {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        try {
            int b;
            while ((b = in.read()) >= 0 && b != '\n') {
                if (line.size() >= MAX_BYTES) {
                    throw invalid("the password on stdin is longer than " + MAX_BYTES + " bytes");
                }
                line.write(b);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] bytes = line.toByteArray();
        int n = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
        try {
            return nonEmpty(StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, 0, n))
                    .toString());
        } catch (CharacterCodingException e) {
            throw invalid("the password on stdin is not UTF-8");
        }
    }

    private static String nonEmpty(String password) {
        if (password.isEmpty()) {
            throw invalid("the password is empty — PostgreSQL clients cannot log in with an empty password");
        }
        return password;
    }

    private static NumacubeException invalid(String message) {
        return new NumacubeException(NumacubeException.Kind.INVALID_INPUT, message);
    }
}
