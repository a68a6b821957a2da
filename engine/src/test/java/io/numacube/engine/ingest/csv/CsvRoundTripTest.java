package io.numacube.engine.ingest.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import java.io.ByteArrayOutputStream;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Property-style: random tables written by {@link CsvWriter} read back by {@link CsvTableReader} unchanged. */
class CsvRoundTripTest {

    private static final String[] PIECES = {
        "a",
        "Z",
        "0",
        "1.5",
        " ",
        "\t",
        ",",
        ";",
        "|",
        "\"",
        "\"\"",
        "\n",
        "\r\n",
        "\r",
        "é",
        "€",
        "😀",
        "x y",
        "2024-01-01",
        "-",
        "NaN",
        "'"
    };
    /** The column types of tables (DECIMAL, a result type, stands for the DECIMAL(p,s) columns, stored as LONG). */
    private static final ColumnType[] TYPES = ColumnType.values();

    private static final char[] DELIMITERS = {',', ';', '|', '\t'};

    @Test
    void readsBackRandomTablesWithQuotingExactly() throws Exception {
        long seed = 20261122L;
        for (int trial = 0; trial < 300; trial++) {
            SplittableRandom rnd = new SplittableRandom(seed + trial);
            TableSchema schema = randomSchema(rnd);
            List<List<Object>> rows = randomRows(rnd, schema);
            char delimiter = DELIMITERS[rnd.nextInt(DELIMITERS.length)];
            byte[] csv = write(schema, rows, delimiter);
            int buffer = rnd.nextBoolean() ? 64 + rnd.nextInt(200) : 1 << 20;
            CsvOptions options = CsvOptions.DEFAULT.withDelimiter(delimiter).withBufferBytes(buffer);
            List<List<Object>> back = CsvTableReaderTest.read(csv, schema, options);
            String context = "seed=" + (seed + trial) + " schema=" + schema.declaration() + " delimiter="
                    + (int) delimiter + " buffer=" + buffer;
            assertEquals(rows.size(), back.size(), context);
            for (int r = 0; r < rows.size(); r++) {
                assertEquals(asRead(rows.get(r)), back.get(r), context + " row=" + r);
            }
        }
    }

    @Test
    void infersTheWrittenTypesWhenEveryValueShowsThem() throws Exception {
        for (int trial = 0; trial < 100; trial++) {
            SplittableRandom rnd = new SplittableRandom(99 + trial);
            TableSchema schema = randomSchema(rnd);
            List<List<Object>> rows = randomRows(rnd, schema);
            // a column's text reveals its type only when some value is not also of a narrower type: add one
            for (int c = 0; c < schema.size(); c++) {
                ColumnType t = schema.column(c).isDecimal()
                        ? ColumnType.DECIMAL
                        : schema.column(c).type();
                Object marker = switch (t) {
                    case STRING -> "text";
                    case DOUBLE -> 0.5;
                    case DATE -> LocalDate.of(2024, 1, 1);
                    case LONG, INT -> 1L;
                    case BOOLEAN -> true;
                    case TIMESTAMP -> java.time.LocalDateTime.of(2024, 1, 1, 5, 0);
                    case DECIMAL ->
                        java.math.BigDecimal.valueOf(5, 1)
                                .setScale(schema.column(c).scale());
                };
                if (rows.isEmpty()) {
                    rows.add(new ArrayList<>(java.util.Collections.nCopies(schema.size(), null)));
                }
                rows.getFirst().set(c, marker);
            }
            byte[] csv = write(schema, rows, ',');
            TableSchema inferred = new CsvTableReader(CsvOptions.DEFAULT)
                    .infer(java.nio.channels.Channels.newChannel(new java.io.ByteArrayInputStream(csv)), "t.csv", "t");
            for (int c = 0; c < schema.size(); c++) {
                ColumnType written = schema.column(c).type();
                // a DECIMAL's text is a number with a point: a DOUBLE to DuckDB's sniffer (and to numacube's)
                ColumnType expected = schema.column(c).isDecimal()
                        ? ColumnType.DOUBLE
                        : written == ColumnType.INT ? ColumnType.LONG : written;
                assertEquals(expected, inferred.column(c).type(), "seed=" + (99 + trial) + " column=" + c);
            }
        }
    }

    static TableSchema randomSchema(SplittableRandom rnd) {
        int n = 1 + rnd.nextInt(8);
        List<ColumnSpec> cols = new ArrayList<>();
        for (int c = 0; c < n; c++) {
            String name = switch (rnd.nextInt(4)) {
                case 0 -> "c" + c;
                case 1 -> "col \"" + c + "\", x";
                case 2 -> "n\u00e9" + c;
                default -> "C_" + c;
            };
            ColumnType t = TYPES[rnd.nextInt(TYPES.length)];
            int precision = 1 + rnd.nextInt(ColumnSpec.MAX_DECIMAL_PRECISION);
            cols.add(
                    t == ColumnType.DECIMAL
                            ? ColumnSpec.decimal(name, precision, 1 + rnd.nextInt(precision))
                            : new ColumnSpec(name, t));
        }
        return new TableSchema("t", cols);
    }

    static List<List<Object>> randomRows(SplittableRandom rnd, TableSchema schema) {
        int rows = rnd.nextInt(4) == 0 ? rnd.nextInt(2) : rnd.nextInt(300);
        List<List<Object>> out = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            List<Object> row = new ArrayList<>();
            for (ColumnSpec c : schema.columns()) {
                row.add(
                        c.isDecimal()
                                ? randomDecimal(rnd, c)
                                : switch (c.type()) {
                                    case STRING -> randomText(rnd);
                                    case LONG, INT ->
                                        rnd.nextInt(5) == 0 ? rnd.nextLong() : (long) rnd.nextInt(-1000, 1000);
                                    case DOUBLE -> randomDouble(rnd);
                                    case BOOLEAN -> rnd.nextBoolean();
                                    case DATE ->
                                        LocalDate.ofEpochDay(rnd.nextLong(
                                                LocalDate.of(0, 1, 1).toEpochDay(),
                                                LocalDate.of(9999, 12, 31).toEpochDay() + 1));
                                    case TIMESTAMP -> randomTimestamp(rnd);
                                    case DECIMAL -> throw new IllegalStateException("DECIMAL is a result type");
                                });
            }
            out.add(row);
        }
        return out;
    }

    private static String randomText(SplittableRandom rnd) {
        int pieces = rnd.nextInt(6);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < pieces; i++) {
            sb.append(PIECES[rnd.nextInt(PIECES.length)]);
        }
        return sb.toString();
    }

    /** Any microsecond of years 1-9999, often a whole second (no fraction written) or a round fraction. */
    private static java.time.LocalDateTime randomTimestamp(SplittableRandom rnd) {
        long first = LocalDate.of(1, 1, 1).toEpochDay() * 86_400_000_000L;
        long last = LocalDate.of(10000, 1, 1).toEpochDay() * 86_400_000_000L;
        long micros = rnd.nextLong(first, last);
        micros -= switch (rnd.nextInt(3)) {
            case 0 -> Math.floorMod(micros, 1_000_000L);
            case 1 -> Math.floorMod(micros, 1_000L);
            default -> 0;
        };
        return io.numacube.engine.schema.Timestamps.toLocalDateTime(micros);
    }

    private static double randomDouble(SplittableRandom rnd) {
        while (true) {
            double v = switch (rnd.nextInt(4)) {
                case 0 -> Double.longBitsToDouble(rnd.nextLong());
                case 1 -> rnd.nextDouble(-1e7, 1e7);
                case 2 -> rnd.nextInt(-100_000, 100_000) / 100.0;
                default -> rnd.nextBoolean() ? 0.0 : -0.0;
            };
            if (Double.isFinite(v)) {
                return v;
            }
        }
    }

    /** A DECIMAL(p,s) value of up to p digits, often with trailing zeros. */
    private static java.math.BigDecimal randomDecimal(SplittableRandom rnd, ColumnSpec c) {
        long bound = 1;
        for (int i = 0; i < (rnd.nextBoolean() ? c.precision() : 1 + rnd.nextInt(c.precision())); i++) {
            bound *= 10;
        }
        return java.math.BigDecimal.valueOf(rnd.nextLong(-bound + 1, bound), c.scale());
    }

    /** A written row as the reader gives it back: a DECIMAL as its value times 10^scale. */
    private static List<Object> asRead(List<Object> row) {
        return row.stream()
                .map(v -> v instanceof java.math.BigDecimal d
                        ? (Object) d.unscaledValue().longValueExact()
                        : v)
                .toList();
    }

    static byte[] write(TableSchema schema, List<List<Object>> rows, char delimiter) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (CsvWriter w = new CsvWriter(bytes, delimiter)) {
            w.writeHeader(schema);
            for (List<Object> row : rows) {
                for (int c = 0; c < schema.size(); c++) {
                    Object v = row.get(c);
                    switch (v) {
                        case String s -> w.writeString(s);
                        case Long l -> w.writeLong(l);
                        case Double d -> w.writeDouble(d);
                        case java.math.BigDecimal d -> w.writeDecimal(d);
                        case LocalDate d -> w.writeDate(d.toEpochDay());
                        case Boolean b -> w.writeBoolean(b);
                        case java.time.LocalDateTime t ->
                            w.writeTimestamp(io.numacube.engine.schema.Timestamps.ofLocalDateTime(t));
                        default -> throw new AssertionError(v);
                    }
                }
                w.endRow();
            }
        }
        return bytes.toByteArray();
    }
}
