package io.numacube.server.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The gate between a write's log and its append: what a checkpoint waits for, and what a stop refuses. */
class WriteGateTest {

    @Test
    void quiescedWaitsForAWriteBetweenItsLogAndItsAppend() throws Exception {
        WriteGate gate = new WriteGate();
        CountDownLatch logged = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> write = CompletableFuture.supplyAsync(() -> gate.write(() -> {
            logged.countDown();
            await(release);
            return "applied";
        }));
        assertTrue(logged.await(10, TimeUnit.SECONDS));
        CompletableFuture<String> checkpoint = CompletableFuture.supplyAsync(() -> gate.quiesced(() -> "captured"));
        Thread.sleep(200);
        assertFalse(checkpoint.isDone(), "the capture ran while a write was between its log and its append");
        release.countDown();
        assertEquals("applied", write.get(10, TimeUnit.SECONDS));
        assertEquals("captured", checkpoint.get(10, TimeUnit.SECONDS));
    }

    @Test
    void aStoppedGateRefusesWritesButStillCheckpoints() {
        WriteGate gate = new WriteGate();
        assertTrue(gate.stop(Duration.ofSeconds(1)));
        NumacubeException e = assertThrows(NumacubeException.class, () -> gate.write(() -> "x"));
        assertEquals("57P01", e.code());
        assertEquals("terminating: the server is shutting down and takes no more writes", e.getMessage());
        assertEquals("ok", gate.quiesced(() -> "ok"));
    }

    @Test
    void aWriteLoggedButNotAppliedRefusesLaterWritesAndCheckpoints() {
        WriteGate gate = new WriteGate();
        gate.markInDoubt("t", new OutOfMemoryError("Java heap space"));
        NumacubeException w = assertThrows(NumacubeException.class, () -> gate.write(() -> "x"));
        assertEquals(
                "a logged write could not be applied, so writes are refused: table=t"
                        + " error=java.lang.OutOfMemoryError: Java heap space"
                        + " — restart the server: recovery replays the log, that write included",
                w.getMessage());
        NumacubeException c = assertThrows(NumacubeException.class, () -> gate.quiesced(() -> "x"));
        assertTrue(c.getMessage().startsWith("a logged write could not be applied, so no checkpoint is taken"));
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
