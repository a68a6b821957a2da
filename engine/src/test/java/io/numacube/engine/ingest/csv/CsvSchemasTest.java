package io.numacube.engine.ingest.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvSchemasTest {

    @Test
    void parsesSqlStyleDeclarations() {
        TableSchema s = CsvSchemas.parseDeclaration(
                "trades", "trade_id LONG, desk STRING,trade_date DATE , pnl DOUBLE," + " book INT");
        assertEquals(
                List.of(
                        new ColumnSpec("trade_id", ColumnType.LONG),
                        new ColumnSpec("desk", ColumnType.STRING),
                        new ColumnSpec("trade_date", ColumnType.DATE),
                        new ColumnSpec("pnl", ColumnType.DOUBLE),
                        new ColumnSpec("book", ColumnType.INT)),
                s.columns());
        assertEquals("trades", s.name());
    }

    @Test
    void acceptsTheColonFormAndMixesOfBoth() {
        TableSchema s = CsvSchemas.parseDeclaration("t", "a:string, b varchar,c:bigint");
        assertEquals(TableSchema.parse("t", "a:string,b:string,c:int"), s);
    }

    @Test
    void writesADeclarationThatParsesBackToTheSameSchema() {
        TableSchema s = CsvSchemas.parseDeclaration("t", "a:string,b:int,c:long,d:double,e:date");
        assertEquals("a STRING, b INT, c LONG, d DOUBLE, e DATE", CsvSchemas.sqlDeclaration(s));
        assertEquals(s, CsvSchemas.parseDeclaration("t", CsvSchemas.sqlDeclaration(s)));
    }

    @Test
    void namesTheBadEntry() {
        NumacubeException e =
                assertThrows(NumacubeException.class, () -> CsvSchemas.parseDeclaration("t", "a STRING, b"));
        assertEquals(NumacubeException.Kind.INVALID_INPUT, e.kind());
        assertTrue(e.getMessage().contains("entry=\"b\""), e.getMessage());
        assertThrows(NumacubeException.class, () -> CsvSchemas.parseDeclaration("t", "a STRING,"));
        assertThrows(NumacubeException.class, () -> CsvSchemas.parseDeclaration("t", "a BLOB"));
        assertThrows(NumacubeException.class, () -> CsvSchemas.parseDeclaration("t", " "));
        assertThrows(NumacubeException.class, () -> CsvSchemas.parseDeclaration("t", "a long, A double"));
    }
}
