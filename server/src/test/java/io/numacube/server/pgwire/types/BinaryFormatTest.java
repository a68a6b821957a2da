package io.numacube.server.pgwire.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.numa.base.NumacubeException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class BinaryFormatTest {

    @Test
    void numericIsBase10000DigitsWithWeightSignAndDisplayScale() {
        // 12.50: digits [12, 5000], weight 0, positive, dscale 2 -- as PostgreSQL's numeric_send writes it
        assertArrayEquals(shorts(2, 0, 0, 2, 12, 5000), BinaryFormat.numeric(new BigDecimal("12.50")));
        // -123456.789: digits [12, 3456, 7890], weight 1, negative
        assertArrayEquals(shorts(3, 1, 0x4000, 3, 12, 3456, 7890), BinaryFormat.numeric(new BigDecimal("-123456.789")));
        assertArrayEquals(shorts(0, 0, 0, 2), BinaryFormat.numeric(new BigDecimal("0.00")));
        // 0.0001: digit [1], weight -1
        assertArrayEquals(shorts(1, -1, 0, 4, 1), BinaryFormat.numeric(new BigDecimal("0.0001")));
        // 10000: digit [1], weight 1, trailing zero digit groups dropped
        assertArrayEquals(shorts(1, 1, 0, 0, 1), BinaryFormat.numeric(new BigDecimal("10000")));
    }

    @Test
    void numericsReadBackExactly() {
        java.util.Random r = new java.util.Random(11);
        for (int i = 0; i < 5_000; i++) {
            BigDecimal v = BigDecimal.valueOf(r.nextLong() >> r.nextInt(60), r.nextInt(12));
            BigDecimal back = (BigDecimal) BinaryFormat.decode(PgType.NUMERIC, BinaryFormat.numeric(v));
            assertEquals(v, back);
        }
    }

    /** A base-10000 digit outside 0..9999 is refused, as PostgreSQL does: 1.[10000] read as 2, 1.[-1] as 0.9999. */
    @Test
    void aNumericDigitOutsideItsBaseIsRefused() {
        for (int digit : new int[] {10_000, -1, Short.MAX_VALUE}) {
            NumacubeException e = assertThrows(
                    NumacubeException.class,
                    () -> BinaryFormat.decode(PgType.NUMERIC, shorts(2, 0, 0, 4, 1, digit)),
                    "digit " + digit);
            assertEquals("22P03", e.code());
        }
        assertEquals(new BigDecimal("1.9999"), BinaryFormat.decode(PgType.NUMERIC, shorts(2, 0, 0, 4, 1, 9_999)));
    }

    @Test
    void datesAndTimestampsCountFrom2000() {
        assertArrayEquals(
                ByteBuffer.allocate(4).putInt(1).array(), BinaryFormat.encode(PgType.DATE, LocalDate.of(2000, 1, 2)));
        assertArrayEquals(
                ByteBuffer.allocate(8).putLong(-1).array(),
                BinaryFormat.encode(PgType.TIMESTAMP, LocalDateTime.of(1999, 12, 31, 23, 59, 59, 999_999_000)));
        assertEquals(
                LocalDateTime.of(2025, 1, 2, 5, 0, 0, 250_000_000),
                BinaryFormat.decode(
                        PgType.TIMESTAMP,
                        BinaryFormat.encode(PgType.TIMESTAMP, LocalDateTime.of(2025, 1, 2, 5, 0, 0, 250_000_000))));
    }

    /**
     * PostgreSQL's infinite dates and timestamps (asyncpg sends date.max, datetime.max and their minimums as such) are
     * refused as unsupported: read as counts of days or microseconds they were dates of year 5881610 and, past the
     * addition's overflow, a timestamp of year -290278, which the error then showed as the value sent.
     */
    @Test
    void infiniteDatesAndTimestampsAreRefusedAsUnsupported() {
        for (byte[] v : new byte[][] {
            ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE).array(),
            ByteBuffer.allocate(4).putInt(Integer.MIN_VALUE).array()
        }) {
            assertEquals(
                    "0A000",
                    assertThrows(NumacubeException.class, () -> BinaryFormat.decode(PgType.DATE, v))
                            .code());
        }
        for (byte[] v : new byte[][] {
            ByteBuffer.allocate(8).putLong(Long.MAX_VALUE).array(),
            ByteBuffer.allocate(8).putLong(Long.MIN_VALUE).array()
        }) {
            assertEquals(
                    "0A000",
                    assertThrows(NumacubeException.class, () -> BinaryFormat.decode(PgType.TIMESTAMP, v))
                            .code());
        }
        assertEquals(
                "22008",
                assertThrows(
                                NumacubeException.class,
                                () -> BinaryFormat.decode(
                                        PgType.TIMESTAMP,
                                        ByteBuffer.allocate(8)
                                                .putLong(Long.MAX_VALUE - 1)
                                                .array()))
                        .code());
    }

    @Test
    void aBinaryParameterOfTheWrongLengthIsAProtocolViolation() {
        NumacubeException e =
                assertThrows(NumacubeException.class, () -> BinaryFormat.decode(PgType.INT8, new byte[4]));
        assertEquals("08P01", e.code());
        assertEquals(
                7L,
                BinaryFormat.decode(
                        PgType.INT4, ByteBuffer.allocate(4).putInt(7).array()));
        assertEquals(
                "22021",
                assertThrows(NumacubeException.class, () -> BinaryFormat.utf8(new byte[] {(byte) 0xC3}))
                        .code());
    }

    private static byte[] shorts(int... values) {
        ByteBuffer b = ByteBuffer.allocate(2 * values.length);
        for (int v : values) {
            b.putShort((short) v);
        }
        return b.array();
    }

    /** As PostgreSQL's array_send writes {@code ARRAY['ab', NULL]::text[]}: 1 dimension, nulls, element type text. */
    @Test
    void writesATextArrayAsArraySendDoes() {
        ByteBuffer want = ByteBuffer.allocate(36)
                .putInt(1)
                .putInt(1)
                .putInt(25)
                .putInt(2)
                .putInt(1)
                .putInt(2)
                .put((byte) 'a')
                .put((byte) 'b')
                .putInt(-1);
        assertArrayEquals(
                java.util.Arrays.copyOf(want.array(), want.position()),
                BinaryFormat.encode(PgType.TEXT_ARRAY, java.util.Arrays.asList("ab", null)));
    }
}
