package io.numacube.server.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.Cube;
import io.numacube.numa.base.NumacubeException;
import io.numacube.server.TestCube;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class QueryServiceTest {

    private static final String GROUPING = "SELECT trade_id, COUNT(*) FROM trades GROUP BY trade_id";

    private final Cube cube = TestCube.shared();

    @Test
    void aQueryAnswersAsTheEngineDoes() {
        QueryService s = new QueryService(cube, new QueryAdmission(2, 2), Duration.ofMinutes(1));
        assertEquals(cube.query(GROUPING).rowCount(), s.run(GROUPING, null).rowCount());
        assertEquals(
                "42703",
                assertThrows(NumacubeException.class, () -> s.run("SELECT nosuch FROM trades", null))
                        .code());
    }

    @Test
    void aQueryPastItsDeadlineIsAbandonedAndTheEngineFinishesIt() throws InterruptedException {
        QueryService s = new QueryService(cube, new QueryAdmission(1, 0), Duration.ofMinutes(1));
        RunningQuery q = s.start(GROUPING, Duration.ofNanos(1));
        NumacubeException e = assertThrows(NumacubeException.class, q::await);
        assertEquals("57014", e.code());
        assertEquals("canceling statement due to statement timeout", e.getMessage());
        assertTrue(s.drain(Duration.ofSeconds(30)), "the abandoned query ends in the engine and frees its slot");
        assertEquals(0, s.inFlight());
        assertEquals(0, s.admission().running());
    }

    @Test
    void aCancelledQueryFailsWithUserRequest() {
        QueryService s = new QueryService(cube, new QueryAdmission(1, 1), Duration.ZERO);
        RunningQuery q = s.start(GROUPING, null);
        q.cancel();
        NumacubeException e = assertThrows(NumacubeException.class, q::await);
        assertEquals("57014", e.code());
        assertEquals("canceling statement due to user request", e.getMessage());
    }

    @Test
    void afterADrainNewQueriesAreRefused() throws InterruptedException {
        QueryService s = new QueryService(cube, new QueryAdmission(1, 0), Duration.ZERO);
        assertTrue(s.drain(Duration.ofSeconds(1)));
        assertEquals(
                "57P01",
                assertThrows(NumacubeException.class, () -> s.start("SELECT 1", null))
                        .code());
    }
}
