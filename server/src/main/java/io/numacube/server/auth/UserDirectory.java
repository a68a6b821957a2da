package io.numacube.server.auth;

import io.numacube.numa.base.NumacubeException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The users a server knows, by name, from its auth file. For a name it does not know it makes up a <em>mock</em>
 * verifier, as PostgreSQL does: a salt derived from the name and a secret of this directory, the iteration count most
 * users have, and keys no password matches; so a client cannot tell an unknown user from a wrong password by what the
 * server sends or how long it takes. Immutable and thread-safe.
 */
public final class UserDirectory {

    private final Map<String, User> users;
    private final byte[] mockSecret = new byte[32];
    private final int usualIterations;

    private UserDirectory(Map<String, User> users) {
        this.users = users;
        new SecureRandom().nextBytes(mockSecret);
        this.usualIterations = users.values().stream()
                .collect(Collectors.groupingBy(u -> u.verifier().iterations(), Collectors.counting()))
                .entrySet()
                .stream()
                .max(Map.Entry.comparingByValue())
                .map(Map.Entry::getKey)
                .orElse(ScramVerifier.DEFAULT_ITERATIONS);
    }

    /** @throws NumacubeException INVALID_INPUT when two users have one name */
    public static UserDirectory of(Collection<User> users) {
        Map<String, User> byName = new LinkedHashMap<>();
        for (User u : users) {
            if (byName.putIfAbsent(u.name(), u) != null) {
                throw new NumacubeException(NumacubeException.Kind.INVALID_INPUT, "duplicate user: user=" + u.name());
            }
        }
        return new UserDirectory(byName);
    }

    public Optional<User> find(String name) {
        return Optional.ofNullable(users.get(name));
    }

    /** The users in the order of the file. */
    public List<User> users() {
        return List.copyOf(users.values());
    }

    public int size() {
        return users.size();
    }

    /** The user's verifier, or for an unknown name a mock one that is always the same for that name. */
    ScramVerifier verifierOrMock(String name) {
        User u = users.get(name);
        if (u != null) {
            return u.verifier();
        }
        byte[] seed = ScramMath.hmac(mockSecret, name.getBytes(StandardCharsets.UTF_8));
        Function<String, byte[]> derive = label -> ScramMath.hmac(seed, label);
        return new ScramVerifier(
                usualIterations,
                Arrays.copyOf(derive.apply("salt"), ScramVerifier.SALT_BYTES),
                derive.apply("stored key"),
                derive.apply("server key"));
    }
}
