package io.numacube.server.pgwire.types;

import io.numacube.engine.schema.Timestamps;
import io.numacube.server.query.ClientError;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's binary format (format code 1) of the types numacube sends and receives, big-endian as on the wire:
 * bool one byte; int2, int4, int8 and oid two's complement; float4 and float8 IEEE 754; date int4 days and timestamp
 * int8 microseconds since 2000-01-01; numeric as {@code ndigits, weight, sign, dscale} (int16 each) and base-10000
 * digits (int16 each); text types their UTF-8 bytes. Stateless.
 */
public final class BinaryFormat {

    /** Days from 1970-01-01 to PostgreSQL's epoch, 2000-01-01. */
    public static final long PG_EPOCH_DAY = 10_957;

    private static final int NUMERIC_NEGATIVE = 0x4000;
    private static final int NUMERIC_NAN = 0xC000;
    private static final BigInteger NBASE = BigInteger.valueOf(10_000);

    private BinaryFormat() {}

    /** The value of a column of type {@code type}, in binary. */
    public static byte[] encode(PgType type, Object value) {
        return switch (type) {
            case BOOL -> new byte[] {(byte) (((Boolean) value) ? 1 : 0)};
            case INT2 ->
                ByteBuffer.allocate(2)
                        .putShort((short) number(value).longValue())
                        .array();
            case INT4, OID, REGPROC ->
                ByteBuffer.allocate(4).putInt((int) number(value).longValue()).array();
            case INT8 ->
                ByteBuffer.allocate(8).putLong(number(value).longValue()).array();
            case FLOAT4 ->
                ByteBuffer.allocate(4).putFloat(number(value).floatValue()).array();
            case FLOAT8 ->
                ByteBuffer.allocate(8).putDouble(number(value).doubleValue()).array();
            case DATE ->
                ByteBuffer.allocate(4)
                        .putInt((int) (((LocalDate) value).toEpochDay() - PG_EPOCH_DAY))
                        .array();
            case TIMESTAMP, TIMESTAMPTZ ->
                ByteBuffer.allocate(8)
                        .putLong(Timestamps.ofLocalDateTime(
                                        value instanceof java.time.OffsetDateTime t
                                                ? LocalDateTime.ofInstant(t.toInstant(), java.time.ZoneOffset.UTC)
                                                : (LocalDateTime) value)
                                - PG_EPOCH_DAY * Timestamps.MICROS_PER_DAY)
                        .array();
            case NUMERIC -> numeric(value instanceof BigDecimal d ? d : new BigDecimal(value.toString()));
            case TEXT_ARRAY -> textArray((java.util.List<?>) value);
            default -> TextFormat.encode(value);
        };
    }

    /**
     * A one-dimensional {@code text[]} as PostgreSQL's {@code array_send} writes it: dimensions (0 when empty), a
     * has-nulls flag, the element type, each dimension's length and lower bound 1, then each element's length (-1 for
     * NULL) and bytes.
     */
    private static byte[] textArray(java.util.List<?> elements) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        boolean nulls = elements.contains(null);
        ByteBuffer head = ByteBuffer.allocate(20)
                .putInt(elements.isEmpty() ? 0 : 1)
                .putInt(nulls ? 1 : 0)
                .putInt(PgType.TEXT.oid());
        if (!elements.isEmpty()) {
            head.putInt(elements.size()).putInt(1);
        }
        bytes.write(head.array(), 0, head.position());
        for (Object e : elements) {
            byte[] text = e == null ? null : TextFormat.encode(e);
            bytes.writeBytes(ByteBuffer.allocate(4)
                    .putInt(text == null ? -1 : text.length)
                    .array());
            if (text != null) {
                bytes.writeBytes(text);
            }
        }
        return bytes.toByteArray();
    }

    private static Number number(Object value) {
        return value instanceof Number n ? n : Long.parseLong(value.toString());
    }

    /** A numeric in binary. */
    public static byte[] numeric(BigDecimal value) {
        int dscale = Math.max(0, value.scale());
        String plain = value.abs().toPlainString();
        int dot = plain.indexOf('.');
        String whole = dot < 0 ? plain : plain.substring(0, dot);
        String fraction = dot < 0 ? "" : plain.substring(dot + 1);
        whole = "0".repeat((4 - whole.length() % 4) % 4) + whole;
        fraction = fraction + "0".repeat((4 - fraction.length() % 4) % 4);
        String all = whole + fraction;
        List<Short> digits = new ArrayList<>();
        for (int i = 0; i < all.length(); i += 4) {
            digits.add(Short.parseShort(all.substring(i, i + 4)));
        }
        int weight = whole.length() / 4 - 1;
        while (!digits.isEmpty() && digits.getFirst() == 0) {
            digits.removeFirst();
            weight--;
        }
        while (!digits.isEmpty() && digits.getLast() == 0) {
            digits.removeLast();
        }
        if (digits.isEmpty()) {
            weight = 0;
        }
        ByteBuffer b = ByteBuffer.allocate(8 + 2 * digits.size());
        b.putShort((short) digits.size()).putShort((short) weight);
        b.putShort((short) (value.signum() < 0 ? NUMERIC_NEGATIVE : 0)).putShort((short) dscale);
        digits.forEach(b::putShort);
        return b.array();
    }

    /**
     * A binary parameter of type {@code type} as a Java value: Long, Double, BigDecimal, Boolean, LocalDate,
     * LocalDateTime or String.
     *
     * @throws io.numacube.numa.base.NumacubeException 08P01 for a value of the wrong length, 0A000 for a type
     *     numacube cannot read in binary, 22021 for text that is not UTF-8
     */
    public static Object decode(PgType type, byte[] v) {
        ByteBuffer b = ByteBuffer.wrap(v);
        int expected = type.length() > 0 && type != PgType.NAME ? type.length() : v.length;
        if (v.length != expected) {
            throw ClientError.of(
                            ClientError.PROTOCOL_VIOLATION,
                            "incorrect binary data format in bind parameter: type=" + type.typeName() + " bytes="
                                    + v.length)
                    .toException();
        }
        return switch (type) {
            case BOOL -> v[0] != 0;
            case INT2 -> (long) b.getShort();
            case INT4, OID -> (long) b.getInt();
            case INT8 -> b.getLong();
            case FLOAT4 -> (double) b.getFloat();
            case FLOAT8 -> b.getDouble();
            case DATE -> date(b.getInt());
            case TIMESTAMP, TIMESTAMPTZ -> timestamp(b.getLong());
            case NUMERIC -> decodeNumeric(b);
            case TEXT, VARCHAR, BPCHAR, NAME, UNKNOWN, CHAR -> utf8(v);
            default ->
                throw ClientError.of(
                                ClientError.NOT_SUPPORTED,
                                "binary parameters of type " + type.typeName() + " are not supported — send it as text")
                        .toException();
        };
    }

    /** PostgreSQL's infinite dates ({@code Integer.MAX_VALUE} and {@code MIN_VALUE} days) are refused. */
    private static LocalDate date(int days) {
        if (days == Integer.MAX_VALUE || days == Integer.MIN_VALUE) {
            throw infinity("date");
        }
        return LocalDate.ofEpochDay(days + PG_EPOCH_DAY);
    }

    /** PostgreSQL's infinite timestamps ({@code Long.MAX_VALUE} and {@code MIN_VALUE}) are refused. */
    private static LocalDateTime timestamp(long micros) {
        if (micros == Long.MAX_VALUE || micros == Long.MIN_VALUE) {
            throw infinity("timestamp");
        }
        long fromUnixEpoch;
        try {
            fromUnixEpoch = Math.addExact(micros, PG_EPOCH_DAY * Timestamps.MICROS_PER_DAY);
        } catch (ArithmeticException e) {
            throw ClientError.of("22008", "timestamp out of range: " + micros + " microseconds after 2000-01-01")
                    .toException();
        }
        return Timestamps.toLocalDateTime(fromUnixEpoch);
    }

    private static RuntimeException infinity(String type) {
        return ClientError.of(ClientError.NOT_SUPPORTED, "an infinite " + type + " is not supported")
                .toException();
    }

    private static BigDecimal decodeNumeric(ByteBuffer b) {
        if (b.remaining() < 8) {
            throw ClientError.of(ClientError.PROTOCOL_VIOLATION, "incorrect binary data format: numeric")
                    .toException();
        }
        int ndigits = b.getShort();
        int weight = b.getShort();
        int sign = b.getShort() & 0xFFFF;
        int dscale = b.getShort();
        if (sign == NUMERIC_NAN
                || (sign != 0 && sign != NUMERIC_NEGATIVE)
                || ndigits < 0
                || dscale < 0
                || b.remaining() != 2 * ndigits) {
            throw ClientError.of(
                            sign == NUMERIC_NAN ? ClientError.NOT_SUPPORTED : ClientError.PROTOCOL_VIOLATION,
                            sign == NUMERIC_NAN
                                    ? "numeric NaN is not supported"
                                    : "incorrect binary data format: numeric")
                    .toException();
        }
        BigInteger unscaled = BigInteger.ZERO;
        for (int i = 0; i < ndigits; i++) {
            short digit = b.getShort();
            if (digit < 0 || digit > 9_999) {
                // PostgreSQL's numeric_recv refuses it; read on, 10000 and -1 made another number
                throw ClientError.of("22P03", "invalid digit in external \"numeric\" value: digit=" + digit)
                        .toException();
            }
            unscaled = unscaled.multiply(NBASE).add(BigInteger.valueOf(digit));
        }
        BigDecimal v = new BigDecimal(unscaled).scaleByPowerOfTen(4 * (weight - ndigits + 1));
        v = v.setScale(dscale, java.math.RoundingMode.DOWN);
        return sign == NUMERIC_NEGATIVE ? v.negate() : v;
    }

    /** Strict UTF-8: PostgreSQL refuses malformed text with 22021, and so does numacube. */
    public static String utf8(byte[] bytes) {
        try {
            return java.nio.charset.StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw ClientError.of("22021", "invalid byte sequence for encoding \"UTF8\"")
                    .toException();
        }
    }
}
