package io.numacube.bench.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The 22 query texts as resources, their rewrites and the tables they name. */
class TpchQueryTest {

    @Test
    void everyQueryHasItsOfficialTextWithACommentAndTheRewritesSayWhatChanged() {
        assertEquals(22, TpchQuery.all().size());
        for (TpchQuery q : TpchQuery.all()) {
            assertTrue(q.sql().startsWith("-- TPC-H " + q.id() + ","), q.id());
            if (q.rewrite() != null) {
                assertTrue(q.rewrite().startsWith("-- Rewrite of " + q.id() + ":"), q.id());
            }
        }
        assertNull(TpchQuery.of(21).rewrite());
        assertNotNull(TpchQuery.of(1).rewrite());
        assertThrows(IllegalArgumentException.class, () -> TpchQuery.of(22).text(true));
        assertThrows(IllegalArgumentException.class, () -> TpchQuery.of(23));
    }

    @Test
    void namesTheTablesAQueryReadsIgnoringComments() {
        assertEquals(Set.of("lineitem"), TpchQuery.of(1).tables(false));
        assertEquals(Set.of("lineitem", "part"), TpchQuery.of(19).tables(true));
        assertEquals(
                Set.of("customer", "lineitem", "nation", "orders", "region", "supplier"),
                TpchQuery.of(5).tables(false));
    }

    @Test
    void theForeignKeysJoinColumnsOfTheSchemaTables() {
        assertEquals(10, TpchSchema.FOREIGN_KEYS.size());
        for (String fk : TpchSchema.FOREIGN_KEYS) {
            io.numacube.engine.JoinSpec j = io.numacube.engine.JoinSpec.parse(fk);
            Set<String> factColumns = columnsOf(j.fact());
            Set<String> dimColumns = columnsOf(j.dim());
            for (int i = 0; i < j.factColumns().size(); i++) {
                assertTrue(factColumns.contains(j.factColumns().get(i)), fk);
                assertTrue(dimColumns.contains(j.dimColumns().get(i)), fk);
            }
        }
    }

    private static Set<String> columnsOf(String table) {
        return TpchSchema.of(table).columns().stream()
                .map(TpchSchema.Column::name)
                .collect(java.util.stream.Collectors.toSet());
    }

    @Test
    void refusalIsTheFirstLineOfTheMessage() {
        assertEquals("no such column", TpchQuery.refusal(new IllegalStateException("no such column\n  at line 2")));
        assertEquals("java.lang.IllegalStateException", TpchQuery.refusal(new IllegalStateException()));
    }
}
