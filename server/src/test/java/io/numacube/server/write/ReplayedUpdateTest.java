package io.numacube.server.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An UPDATE whose SET has no assignment cast to its column ({@code SET id = ok}, a BOOLEAN into a BIGINT) is refused
 * when issued (42804, before it is logged), and replayed as it was applied when a log written by a build without that
 * check holds it: an acknowledged write is never dropped at recovery as "failing again".
 */
class ReplayedUpdateTest {

    @Test
    void anUpdateRefusedWhenIssuedIsReplayedFromAnOlderLog() {
        try (Cube cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(1).withThreadsPerNode(1))) {
            TableStaging f = new TableStaging(TableSchema.parse("f", "id:long,ok:boolean"));
            f.setLong(0, 5);
            f.setBoolean(1, true);
            f.endRow();
            cube.loadTable(f);
            WriteService writes = new WriteService(cube, WriteService.BatchLog.NONE);
            NumacubeException e = assertThrows(
                    NumacubeException.class, () -> writes.append(WriteService.update("UPDATE f SET id = ok")));
            assertEquals("42804", e.code());
            assertEquals(5, cube.query("SELECT id FROM f").getLong(0, 0));
            writes.replay(List.of(WriteService.update("UPDATE f SET id = ok")));
            assertEquals(1, cube.query("SELECT id FROM f").getLong(0, 0));
        }
    }
}
