package io.numacube.server.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class QueryAdmissionTest {

    @Test
    void refusesAQueryBeyondRunningAndQueuedWithTooBusy() throws Exception {
        QueryAdmission a = new QueryAdmission(1, 0);
        try (QueryAdmission.Permit p = a.admit(Long.MAX_VALUE)) {
            NumacubeException e = assertThrows(NumacubeException.class, () -> a.admit(Long.MAX_VALUE));
            assertEquals("53300", e.code());
            assertTrue(e.getMessage().startsWith("too busy: running=1 queued=0"), e.getMessage());
        }
        a.admit(Long.MAX_VALUE).close();
    }

    @Test
    void aQueuedQueryRunsWhenAPermitIsFree() throws Exception {
        QueryAdmission a = new QueryAdmission(1, 1);
        QueryAdmission.Permit first = a.admit(Long.MAX_VALUE);
        CompletableFuture<QueryAdmission.Permit> second = CompletableFuture.supplyAsync(() -> {
            try {
                return a.admit(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (a.queued() == 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(1, a.queued());
        first.close();
        second.get(10, TimeUnit.SECONDS).close();
        assertEquals(0, a.running());
        assertEquals(0, a.queued());
    }

    @Test
    void aQueuedQueryTimesOutWithQueryCanceled() throws Exception {
        QueryAdmission a = new QueryAdmission(1, 1);
        try (QueryAdmission.Permit p = a.admit(Long.MAX_VALUE)) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
            NumacubeException e = assertThrows(NumacubeException.class, () -> a.admit(deadline));
            assertEquals("57014", e.code());
            assertEquals(0, a.queued());
        }
    }

    @Test
    void closingAPermitTwiceReturnsItOnce() throws Exception {
        QueryAdmission a = new QueryAdmission(2, 0);
        QueryAdmission.Permit p = a.admit(Long.MAX_VALUE);
        p.close();
        p.close();
        assertEquals(0, a.running());
        try (QueryAdmission.Permit x = a.admit(Long.MAX_VALUE);
                QueryAdmission.Permit y = a.admit(Long.MAX_VALUE)) {
            assertEquals(2, a.running());
            assertThrows(NumacubeException.class, () -> a.admit(Long.MAX_VALUE));
        }
    }
}
