package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.ingest.csv.CsvStagingLoader;
import io.numacube.numa.base.ErrorPosition;
import io.numacube.numa.base.NumacubeException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Errors carry their code (a SQLSTATE) and position as data, so that every front end formats them without parsing
 * messages: SQL positions are 1-based line and column in the statement, file positions name file, line, column and
 * field.
 */
class ErrorPositionTest {

    private static Cube cube;

    @BeforeAll
    static void open() {
        cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(1).withThreadsPerNode(1));
        cube.generateTrades(1000, 1, io.numacube.engine.storage.ProgressListener.NONE);
    }

    @AfterAll
    static void close() {
        cube.close();
    }

    private static NumacubeException fails(String sql) {
        return assertThrows(NumacubeException.class, () -> cube.query(sql));
    }

    @Test
    void anUnknownColumnIsUndefinedColumnAtItsPosition() {
        NumacubeException e = fails("SELECT desk,\n  SUM(nope) FROM trades GROUP BY desk");
        assertEquals("42703", e.code());
        assertEquals(ErrorPosition.sql(2, 7), e.position().orElseThrow());
        assertTrue(e.detail().startsWith("no such column: column=nope"), e.detail());
        assertEquals(e.detail() + " at line 2:7", e.getMessage());
    }

    @Test
    void anUnknownTableIsUndefinedTable() {
        NumacubeException e = fails("SELECT COUNT(*) FROM nothing");
        assertEquals("42P01", e.code());
        assertEquals(ErrorPosition.sql(1, 22), e.position().orElseThrow());
    }

    @Test
    void aSyntaxErrorIsSyntaxErrorAtTheParsersPosition() {
        NumacubeException e = fails("SELECT desk FROM trades GROUP BY");
        assertEquals("42601", e.code());
        assertEquals(NumacubeException.Kind.SYNTAX, e.kind());
        assertEquals(1, e.position().orElseThrow().line());
    }

    @Test
    void anUnsupportedConstructIsFeatureNotSupported() {
        NumacubeException e = fails("SELECT DISTINCT desk, COUNT(*) FROM trades GROUP BY desk");
        assertEquals("0A000", e.code());
        assertTrue(e.position().isPresent(), e.getMessage());
    }

    @Test
    void aBadCsvValueNamesFileLineColumnAndField(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("t.csv");
        Files.writeString(csv, "k,v\na,1\nb,2\nc,x\n");
        NumacubeException e = assertThrows(
                NumacubeException.class,
                () -> new CsvStagingLoader(io.numacube.engine.ingest.csv.CsvOptions.DEFAULT)
                        .stage(csv, "t", declared(), io.numacube.engine.ingest.csv.CsvProgress.NONE));
        assertEquals("22P02", e.code());
        ErrorPosition at = e.position().orElseThrow();
        assertEquals(csv.toString(), at.file());
        assertEquals(4, at.line());
        assertEquals(3, at.column());
        assertEquals("v", at.field());
        assertTrue(e.getMessage().startsWith(csv + ":4:3: "), e.getMessage());
    }

    private static io.numacube.engine.schema.TableSchema declared() {
        return io.numacube.engine.ingest.csv.CsvSchemas.parseDeclaration("t", "k STRING, v LONG");
    }
}
