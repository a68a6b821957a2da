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

    /** PostgreSQL's float8 text computed through BigDecimal, as TextFormat did before it moved digits itself. */
    private static String throughBigDecimal(double d) {
        BigDecimal exact = new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
        int exponent = exact.precision() - exact.scale() - 1;
        String sign = d < 0 ? "-" : "";
        if (exponent >= -4 && exponent < 15) {
            return sign + exact.toPlainString();
        }
        String digits = exact.unscaledValue().toString();
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        String e = String.valueOf(Math.abs(exponent));
        return sign + mantissa + (exponent < 0 ? "e-" : "e+") + (e.length() < 2 ? "0" + e : e);
    }

    @Test
    void float8OfEveryMagnitudeIsTheShortestDecimalPlacedAsPostgresPlacesIt() {
        java.util.Random r = new java.util.Random(5);
        for (int i = 0; i < 50_000; i++) {
            double d = switch (i % 4) {
                case 0 -> Double.longBitsToDouble(r.nextLong());
                case 1 -> (r.nextBoolean() ? 1 : -1) * Math.pow(10, -8 + 30 * r.nextDouble());
                case 2 -> Math.rint((r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(20))) * Math.pow(10, -r.nextInt(6));
                default -> (r.nextBoolean() ? 1 : -1) * Math.pow(10, r.nextInt(40) - 20);
            };
            if (Double.isFinite(d) && Math.abs(d) >= Double.MIN_NORMAL) {
                assertEquals(throughBigDecimal(d), TextFormat.float8(d), Double.toString(d));
            }
        }
        for (double d : new double[] {1e7, 1.5e7, 123456789.0, 1e14, 99999999999999.9, 1e-4, 1.25e-4, 9.999e-4}) {
            assertEquals(throughBigDecimal(d), TextFormat.float8(d), Double.toString(d));
            assertEquals(throughBigDecimal(-d), TextFormat.float8(-d), Double.toString(-d));
        }
        assertEquals("12345678.5", TextFormat.float8(12345678.5));
        assertEquals("0.00012", TextFormat.float8(1.2e-4));
        assertEquals("1.2e-05", TextFormat.float8(1.2e-5));
        assertEquals("5e-324", TextFormat.float8(Double.MIN_VALUE));
        assertEquals("-1e-323", TextFormat.float8(-2 * Double.MIN_VALUE));
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

    /** As PostgreSQL prints {@code ARRAY['id', '', 'a b', 'x"y', 'null', NULL, 'c,d', 'e\\f']::text[]}. */
    @Test
    void writesATextArrayAsPostgresqlDoes() {
        java.util.List<String> elements = java.util.Arrays.asList("id", "", "a b", "x\"y", "null", null, "c,d", "e\\f");
        assertEquals("{id,\"\",\"a b\",\"x\\\"y\",\"null\",NULL,\"c,d\",\"e\\\\f\"}", TextFormat.text(elements));
        assertEquals("{}", TextFormat.text(java.util.List.of()));
    }
}
