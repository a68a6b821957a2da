package io.numacube.server.pgwire.types;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class TextFormatTest {

    @Test
    void float8IsPrintedAsPostgresPrintsItsShortestDigits() {
        assertEquals("0", TextFormat.float8(0.0));
        assertEquals("-0", TextFormat.float8(-0.0));
        assertEquals("1.5", TextFormat.float8(1.5));
        assertEquals("100", TextFormat.float8(100.0));
        assertEquals("0.1", TextFormat.float8(0.1));
        assertEquals("0.0001", TextFormat.float8(1e-4));
        assertEquals("1e-05", TextFormat.float8(1e-5));
        assertEquals("1.5e+20", TextFormat.float8(1.5e20));
        assertEquals("123456789012345", TextFormat.float8(123456789012345.0));
        assertEquals("1e+15", TextFormat.float8(1e15));
        assertEquals("-38050.160000000025", TextFormat.float8(-38050.160000000025));
        assertEquals("1.7976931348623157e+308", TextFormat.float8(Double.MAX_VALUE));
        assertEquals("NaN", TextFormat.float8(Double.NaN));
        assertEquals("-Infinity", TextFormat.float8(Double.NEGATIVE_INFINITY));
    }

    @Test
    void float8InJavasPlainRangeIsTheExactDecimalWithoutTrailingZeros() {
        java.util.Random r = new java.util.Random(11);
        for (int i = 0; i < 10_000; i++) {
            double d = (r.nextBoolean() ? 1 : -1) * Math.pow(10, -3 + 10 * r.nextDouble());
            d = i % 3 == 0 ? Math.rint(d * 100) / 100 : d;
            if (d == 0) {
                continue;
            }
            String exact = new BigDecimal(Double.toString(Math.abs(d)))
                    .stripTrailingZeros()
                    .toPlainString();
            assertEquals((d < 0 ? "-" : "") + exact, TextFormat.float8(d), Double.toString(d));
        }
    }

    @Test
    void everyDigitOfAFloat8ReadsBackExactly() {
        java.util.Random r = new java.util.Random(7);
        for (int i = 0; i < 10_000; i++) {
            double d = Double.longBitsToDouble(r.nextLong());
            if (Double.isFinite(d)) {
                assertEquals(d, Double.parseDouble(TextFormat.float8(d)), TextFormat.float8(d));
            }
        }
    }

    @Test
    void otherTypesAsPostgresWritesThemWithIsoDates() {
        assertEquals("t", TextFormat.text(true));
        assertEquals("12.50", TextFormat.text(new BigDecimal("12.50")));
        assertEquals("2025-01-02", TextFormat.text(LocalDate.of(2025, 1, 2)));
        assertEquals("2025-01-02 05:00:00", TextFormat.text(LocalDateTime.of(2025, 1, 2, 5, 0)));
        assertEquals("2025-01-02 05:00:00.25", TextFormat.text(LocalDateTime.of(2025, 1, 2, 5, 0, 0, 250_000_000)));
        assertEquals("-7", TextFormat.text(-7L));
    }
}
