package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Java API takes a schema-qualified table name wherever it takes a name ({@code public.t}), and a query of
 * information_schema answers from the tables' current versions, for embedded users as for the server.
 */
class QualifiedTablesTest {

    private Cube cube;

    @BeforeEach
    void load() {
        cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(1).withThreadsPerNode(1));
        cube.loadTable(rows(0, 3));
    }

    @AfterEach
    void close() {
        cube.close();
    }

    @Test
    void appendDeleteAndDescribeTakeAQualifiedName() {
        assertEquals("t", cube.schema("public.t").name());
        cube.append("numacube.public.t", rows(3, 2));
        assertEquals(5, cube.rowCount("PUBLIC.T"));
        assertEquals(2, cube.delete("DELETE FROM public.t WHERE id >= 3").rows());
        assertEquals(3, cube.rowCount("t"));
        NumacubeException e = assertThrows(NumacubeException.class, () -> cube.schema("sales.t"));
        assertEquals("42P01", e.code());
    }

    @Test
    void informationSchemaSeesTheCurrentTables() {
        TableStaging other = new TableStaging(TableSchema.parse("later", "k:string"));
        other.setString(0, "x");
        other.endRow();
        cube.loadTable(other);
        QueryResult r = cube.query("SELECT table_name, COUNT(*) FROM information_schema.columns GROUP BY table_name"
                + " ORDER BY table_name");
        assertEquals(2, r.rowCount());
        assertEquals("later", r.getString(0, 0));
        assertEquals(1, r.getLong(0, 1));
        assertEquals("t", r.getString(1, 0));
        assertEquals(2, r.getLong(1, 1));
    }

    private static TableStaging rows(int from, int count) {
        TableStaging s = new TableStaging(TableSchema.parse("t", "id:long,desk:string"));
        for (int i = from; i < from + count; i++) {
            s.setLong(0, i);
            s.setString(1, "D" + i);
            s.endRow();
        }
        return s;
    }
}
