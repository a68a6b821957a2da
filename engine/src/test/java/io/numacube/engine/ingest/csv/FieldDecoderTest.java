package io.numacube.engine.ingest.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FieldDecoderTest {

    private final FieldDecoder dec = new FieldDecoder();

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private String parseLong(String s) {
        return dec.parseLong(b(s), 0, b(s).length);
    }

    private String parseDouble(String s) {
        return dec.parseDouble(b(s), 0, b(s).length);
    }

    private String parseDate(String s) {
        return dec.parseDate(b(s), 0, b(s).length);
    }

    @Test
    void parsesLongsAcrossTheWholeRangeLikeLongParseLong() {
        SplittableRandom rnd = new SplittableRandom(7);
        long[] edge = {0, 1, -1, 9, 10, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE + 1};
        for (long v : edge) {
            assertNull(parseLong(Long.toString(v)), () -> "value=" + v);
            assertEquals(v, dec.longValue);
        }
        for (int i = 0; i < 100_000; i++) {
            long v = rnd.nextLong() >> rnd.nextInt(64);
            String s = Long.toString(v);
            assertNull(parseLong(s), s);
            assertEquals(Long.parseLong(s), dec.longValue, s);
        }
    }

    @Test
    void acceptsASignAndSurroundingBlanksOnLongs() {
        assertNull(parseLong("+42"));
        assertEquals(42, dec.longValue);
        assertNull(parseLong("  -7\t"));
        assertEquals(-7, dec.longValue);
        assertNull(parseLong("007"));
        assertEquals(7, dec.longValue);
    }

    @Test
    void reportsLongsOutOfRangeSeparatelyFromNonNumbers() {
        assertEquals(FieldDecoder.INTEGER_RANGE, parseLong("9223372036854775808"));
        assertEquals(FieldDecoder.INTEGER_RANGE, parseLong("-9223372036854775809"));
        assertEquals(FieldDecoder.INTEGER_RANGE, parseLong("123456789012345678901234567890"));
        assertEquals(FieldDecoder.NOT_INTEGER, parseLong("123456789012345678901234567890x"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.5", "1e3", "-", "+", "12a", "1 2", "0x10", "１２", "--1"})
    void rejectsTextThatIsNotAnInteger(String s) {
        assertEquals(FieldDecoder.NOT_INTEGER, parseLong(s));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "\t"})
    void reportsBlankAsEmpty(String s) {
        assertEquals(FieldDecoder.EMPTY, parseLong(s));
        assertEquals(FieldDecoder.EMPTY, parseDouble(s));
        assertEquals(FieldDecoder.EMPTY, parseDate(s));
    }

    @Test
    void readsBackEveryDoubleThatDoubleToStringWrites() {
        SplittableRandom rnd = new SplittableRandom(11);
        for (int i = 0; i < 200_000; i++) {
            double v = switch (i % 4) {
                case 0 -> Double.longBitsToDouble(rnd.nextLong());
                case 1 -> rnd.nextDouble(-1e6, 1e6);
                case 2 -> Math.round(rnd.nextDouble(-1e9, 1e9)) / 100.0;
                default -> rnd.nextLong(-1_000_000, 1_000_000) * Math.pow(10, rnd.nextInt(-30, 30));
            };
            if (!Double.isFinite(v)) {
                continue;
            }
            String s = Double.toString(v);
            assertNull(parseDouble(s), s);
            assertEquals(Double.doubleToRawLongBits(v), Double.doubleToRawLongBits(dec.doubleValue), s);
        }
    }

    @Test
    void roundsDecimalStringsExactlyAsDoubleParseDouble() {
        SplittableRandom rnd = new SplittableRandom(13);
        for (int i = 0; i < 200_000; i++) {
            StringBuilder sb = new StringBuilder();
            if (rnd.nextBoolean()) {
                sb.append('-');
            }
            int intDigits = rnd.nextInt(0, 22);
            for (int d = 0; d < intDigits; d++) {
                sb.append((char) ('0' + rnd.nextInt(10)));
            }
            int fracDigits = rnd.nextInt(intDigits == 0 ? 1 : 0, 22);
            if (fracDigits > 0 || rnd.nextBoolean()) {
                sb.append('.');
            }
            for (int d = 0; d < fracDigits; d++) {
                sb.append((char) ('0' + rnd.nextInt(10)));
            }
            if (rnd.nextInt(3) == 0) {
                sb.append(rnd.nextBoolean() ? 'e' : 'E').append(rnd.nextInt(-320, 300));
            }
            String s = sb.toString();
            double expected = Double.parseDouble(s);
            if (Double.isInfinite(expected)) {
                assertEquals(FieldDecoder.NOT_FINITE, parseDouble(s), s);
                continue;
            }
            assertNull(parseDouble(s), s);
            assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(dec.doubleValue), s);
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "+inf", "+NaN", "nana", "infinit", "0x1p3", "1d", "1f", ".", "e5", "1e", "1e+", "1.2.3", "1,5", "12,5x",
                "- 1", "1e5.5"
            })
    void rejectsTextThatIsNotADecimalNumber(String s) {
        assertEquals(FieldDecoder.NOT_NUMBER, parseDouble(s));
    }

    /** DuckDB's read_csv infers DOUBLE for a column holding any of these (checked with duckdb 1.x); "+inf" is text. */
    @ParameterizedTest
    @ValueSource(strings = {"NaN", "nan", "-nan", "NAN", "inf", "INF", "-inf", "Infinity", "-Infinity", "infinity"})
    void reportsNaNAndInfinitiesAsNotFiniteRatherThanNotANumber(String s) {
        assertEquals(FieldDecoder.NOT_FINITE, parseDouble(s));
    }

    @Test
    void rejectsNumbersBeyondTheDoubleRange() {
        assertEquals(FieldDecoder.NOT_FINITE, parseDouble("1e309"));
        assertEquals(FieldDecoder.NOT_FINITE, parseDouble("-2e308"));
        assertNull(parseDouble("1e-400"));
        assertEquals(0.0, dec.doubleValue);
    }

    @Test
    void parsesEveryDayFromYearOneToNineThousandNineHundredNinetyNineLikeLocalDate() {
        LocalDate last = LocalDate.of(9999, 12, 31);
        for (LocalDate d = LocalDate.of(1, 1, 1); !d.isAfter(last); d = d.plusDays(1)) {
            String s = String.format("%04d-%02d-%02d", d.getYear(), d.getMonthValue(), d.getDayOfMonth());
            assertNull(parseDate(s), s);
            assertEquals(d.toEpochDay(), dec.longValue, s);
        }
    }

    @Test
    void rejectsYearZeroWhichDuckDbWritesAsABcYear() {
        assertEquals(FieldDecoder.NOT_DATE, parseDate("0000-01-01"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2023-02-29", "2100-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "2024-01-00"})
    void rejectsDaysThatAreNotOnTheCalendar(String s) {
        assertEquals(FieldDecoder.BAD_DAY, parseDate(s));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"2024-1-01", "2024/01/01", "20240101", "2024-01-01T00:00", "24-01-01", "2024-0a-01", "01-01-2024"
            })
    void rejectsDatesNotWrittenYearMonthDay(String s) {
        assertEquals(FieldDecoder.NOT_DATE, parseDate(s));
    }

    @Test
    void acceptsLeapDaysOfLeapYears() {
        assertNull(parseDate("2000-02-29"));
        assertEquals(LocalDate.of(2000, 2, 29).toEpochDay(), dec.longValue);
        assertNull(parseDate("2024-02-29"));
        assertEquals(LocalDate.of(2024, 2, 29).toEpochDay(), dec.longValue);
    }

    private String parseDecimal(String s, int precision, int scale) {
        return dec.parseDecimal(b(s), 0, b(s).length, precision, scale);
    }

    @Test
    void parsesDecimalsAsBigDecimalRoundsThemHalfAwayFromZero() {
        SplittableRandom rnd = new SplittableRandom(11);
        for (int i = 0; i < 20_000; i++) {
            int precision = 1 + rnd.nextInt(18);
            int scale = rnd.nextInt(precision + 1);
            int fraction = rnd.nextInt(scale + 3);
            int integer = rnd.nextInt(precision - scale + 1);
            StringBuilder text = new StringBuilder(rnd.nextInt(4) == 0 ? "-" : rnd.nextInt(8) == 0 ? "+" : "");
            for (int d = 0; d < integer; d++) {
                text.append((char) ('0' + rnd.nextInt(10)));
            }
            if (fraction > 0 || integer == 0) {
                text.append('.');
                for (int d = 0; d < Math.max(fraction, integer == 0 ? 1 : 0); d++) {
                    text.append((char) ('0' + rnd.nextInt(10)));
                }
            }
            String field = text.toString();
            java.math.BigDecimal want = new java.math.BigDecimal(field).setScale(scale, java.math.RoundingMode.HALF_UP);
            boolean fits = want.signum() == 0 || want.precision() - want.scale() <= precision - scale;
            String problem = parseDecimal(" " + field + "\t", precision, scale);
            if (fits) {
                assertNull(problem, () -> field + " as DECIMAL(" + precision + "," + scale + ")");
                assertEquals(want.unscaledValue().longValueExact(), dec.longValue, field);
            } else {
                assertEquals(io.numacube.engine.schema.ColumnSpec.decimalOverflow(precision, scale), problem, field);
            }
        }
    }

    @Test
    void refusesWhatIsNoDecimalAndReadsExponents() {
        for (String bad : new String[] {"-", ".", "+.", "1.2.3", "1,5", "abc", "1e", "--1"}) {
            assertEquals(FieldDecoder.NOT_DECIMAL, parseDecimal(bad, 10, 2), bad);
        }
        assertEquals(FieldDecoder.EMPTY, parseDecimal("  ", 10, 2));
        assertNull(parseDecimal("1.5e2", 10, 2));
        assertEquals(15_000, dec.longValue);
        assertNull(parseDecimal("1.005", 10, 2));
        assertEquals(101, dec.longValue);
        assertNull(parseDecimal("-1.005", 10, 2));
        assertEquals(-101, dec.longValue);
        assertEquals(io.numacube.engine.schema.ColumnSpec.decimalOverflow(4, 2), parseDecimal("99.995", 4, 2));
        assertNull(parseDecimal("99.994", 4, 2));
        assertEquals(9999, dec.longValue);
        assertNull(parseDecimal("0000000000000000000000012.5", 4, 1));
        assertEquals(125, dec.longValue);
    }
}
