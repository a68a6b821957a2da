package io.numacube.server.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.numa.base.NumacubeException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class SqlLiteralTest {

    @Test
    void valuesBecomeTypedLiteralsAndNegativesAreParenthesised() {
        assertEquals("(-7)", SqlLiteral.of(-7L));
        assertEquals("2.5E0", SqlLiteral.of(2.5));
        assertEquals("(-1.25)", SqlLiteral.of(new BigDecimal("-1.25")));
        assertEquals("DATE '2025-01-02'", SqlLiteral.of(LocalDate.of(2025, 1, 2)));
        assertEquals("TIMESTAMP '2025-01-02 10:30:00'", SqlLiteral.of(LocalDateTime.of(2025, 1, 2, 10, 30)));
        assertEquals("TRUE", SqlLiteral.of(true));
        assertEquals("NULL", SqlLiteral.of(null));
    }

    @Test
    void textIsQuotedWithItsQuotesDoubledSoItCannotBecomeSql() {
        assertEquals("'it''s'", SqlLiteral.of("it's"));
        assertEquals("'x'' OR ''1''=''1'", SqlLiteral.string("x' OR '1'='1"));
        assertEquals(
                "22021",
                assertThrows(NumacubeException.class, () -> SqlLiteral.string("a\0b"))
                        .code());
    }
}
