package io.numacube.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import io.numacube.server.auth.TestUsers;
import io.numacube.server.auth.UserDirectory;
import org.junit.jupiter.api.Test;

/** Where the server may listen: loopback always, any other address only with users. */
class ServerOptionsTest {

    @Test
    void aNonLoopbackAddressNeedsUsers() {
        NumacubeException e = assertThrows(
                NumacubeException.class, () -> ServerOptions.defaults("t").withBind("0.0.0.0"));
        assertTrue(
                e.getMessage()
                        .startsWith("numacube serve listens on a non-loopback address only with --auth-file:"
                                + " bind=0.0.0.0 address=0.0.0.0"),
                e.getMessage());
        UserDirectory users = TestUsers.directory();
        ServerOptions o = ServerOptions.defaults("t").withUsers(users).withBind("0.0.0.0");
        assertEquals("0.0.0.0", o.bind());
        assertSame(
                users,
                o.withPorts(0, 0).withLimits(1, 1, 1).withStatementLog(s -> {}).users());
    }

    @Test
    void usersCannotBeDroppedFromANonLoopbackAddress() {
        ServerOptions o =
                ServerOptions.defaults("t").withUsers(TestUsers.directory()).withBind("0.0.0.0");
        assertThrows(NumacubeException.class, () -> o.withUsers(null));
    }

    @Test
    void theHttpRequestLimitIsPositive() {
        NumacubeException e = assertThrows(
                NumacubeException.class, () -> ServerOptions.defaults("t").withMaxHttpRequests(0));
        assertEquals("max-http-requests must be at least 1: max-http-requests=0", e.getMessage());
    }
}
