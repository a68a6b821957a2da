package io.numacube.server.pgwire.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.server.TestCube;
import io.numacube.server.pgwire.types.RowSet;
import io.numacube.server.pgwire.types.TextFormat;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Hand-written catalog queries with conditions and orders of every kind, each with PostgreSQL 15's answer over the
 * same four tables as {@link TestCube}'s ({@code postgresql-answers.txt}, made by
 * {@code docs/campaigns/2026-11-27-strict-catalog/run.sh}): a query numacube answers must get exactly PostgreSQL's rows
 * in PostgreSQL's order; one it cannot answer exactly (a condition it does not read, a row of PostgreSQL's own
 * relations or system columns it would have to give) is refused. Which are which is the block's last word in its label
 * ({@code answered} or {@code refused}), so neither can change unnoticed.
 */
class CatalogExactnessTest {

    private final PgCatalog catalog = new PgCatalog(TestCube.shared());

    @TestFactory
    Stream<DynamicTest> eachQueryIsRefusedOrGetsPostgresqlsRows() throws IOException {
        String text;
        try (InputStream in = CatalogExactnessTest.class.getResourceAsStream("postgresql-answers.txt")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<DynamicTest> tests = new ArrayList<>();
        for (String block : text.split("(?m)^=== ")) {
            if (block.isBlank()) {
                continue;
            }
            String label = block.substring(0, block.indexOf('\n'));
            String[] parts = block.substring(block.indexOf('\n') + 1).split("(?m)^--- postgresql 15\n", 2);
            boolean answered = label.endsWith("(answered)");
            assertTrue(answered || label.endsWith("(refused)"), label);
            tests.add(DynamicTest.dynamicTest(label, () -> {
                Optional<RowSet> rows = catalog.answer(parts[0], "numacube");
                if (!answered) {
                    assertFalse(rows.isPresent(), () -> "answered: " + parts[0] + "\n" + render(rows.get()));
                    return;
                }
                assertTrue(rows.isPresent(), "not answered: " + parts[0]);
                assertEquals(parts[1].strip(), render(rows.get()), parts[0]);
            }));
        }
        return tests.stream();
    }

    static String render(RowSet rows) {
        StringBuilder sb = new StringBuilder(
                String.join("|", rows.columns().stream().map(c -> c.name()).toList()));
        for (int r = 0; r < rows.rowCount(); r++) {
            List<String> cells = new ArrayList<>();
            for (int c = 0; c < rows.columns().size(); c++) {
                Object v = rows.value(r, c);
                cells.add(v == null ? "NULL" : TextFormat.text(v));
            }
            sb.append('\n').append(String.join("|", cells));
        }
        return sb.toString();
    }
}
