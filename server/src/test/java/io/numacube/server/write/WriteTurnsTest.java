package io.numacube.server.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Writes applied in the order they were logged, each after its own wait for durability. */
class WriteTurnsTest {

    @Test
    void runsActionsInTurnOrderWhateverOrderTheyArriveIn() throws Exception {
        WriteTurns turns = new WriteTurns();
        List<Long> ran = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (long t = 4; t >= 0; t--) {
            long turn = t;
            threads.add(Thread.ofPlatform().start(() -> turns.pass(turn, () -> ran.add(turn))));
            Thread.sleep(5);
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L), ran);
    }

    @Test
    void aFailingActionStillHandsItsTurnOn() {
        WriteTurns turns = new WriteTurns();
        assertThrows(
                IllegalStateException.class,
                () -> turns.pass(0, () -> {
                    throw new IllegalStateException("apply failed");
                }));
        assertEquals("next", turns.pass(1, () -> "next"));
    }

    /**
     * Writers whose writes become durable in a random order (as a group commit may acknowledge them) still have them
     * applied in the order the log holds them: the table versions follow the log's order.
     */
    @Test
    void appliesConcurrentWritesInTheOrderTheLogHoldsThem() throws Exception {
        try (Cube cube = Cube.open(CubeOptions.defaults().withThreadsPerNode(1))) {
            TableStaging t = new TableStaging(TableSchema.parse("t", "id:long"));
            t.setLong(0, 0);
            t.endRow();
            cube.loadTable(t);
            List<String> logged = Collections.synchronizedList(new ArrayList<>());
            WriteService.BatchLog log = new WriteService.BatchLog() {
                @Override
                public void write(List<WriteService.Batch> batches) {
                    throw new AssertionError("every write is submitted");
                }

                @Override
                public WriteService.Durable submit(List<WriteService.Batch> batches) {
                    logged.add(new String(batches.getFirst().body(), StandardCharsets.UTF_8));
                    long sleep = ThreadLocalRandom.current().nextLong(3);
                    return () -> sleepMillis(sleep);
                }
            };
            WriteService writes = new WriteService(cube, log);
            Map<String, Long> versions = new ConcurrentHashMap<>();
            AtomicInteger next = new AtomicInteger();
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                writers.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < 25; i++) {
                        String body = "id\n" + next.incrementAndGet() + "\n";
                        WriteService.Batch b = new WriteService.Batch(
                                "t", BatchFormat.CSV, body.getBytes(StandardCharsets.UTF_8), "test");
                        versions.put(body, writes.append(b).version());
                    }
                }));
            }
            for (Thread w : writers) {
                w.join();
            }
            assertEquals(100, logged.size());
            for (int i = 1; i < logged.size(); i++) {
                assertEquals(versions.get(logged.get(i - 1)) + 1, versions.get(logged.get(i)), "write " + i);
            }
            assertEquals(101, cube.rowCount("t"));
        }
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
