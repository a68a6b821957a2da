package io.numacube.spark;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructType;

/**
 * One task's rows, routed: a row of a sharded table goes to the shard its key hashes to ({@link ShardHash}, as the
 * servers check), a row of a table held whole goes to every shard. Rows are kept per shard as JSON lines and sent
 * when the task commits, as batches of at most {@value #MAX_BATCH_BYTES} bytes, each atomic on its shard. Used by one
 * task's thread.
 */
final class RoutedRowsWriter implements DataWriter<InternalRow> {

    static final int MAX_BATCH_BYTES = 8 << 20;
    private static final JsonFactory JSON = new JsonFactory();
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS");

    private final TableLayout layout;
    private final StructType schema;
    private final Duration timeout;
    private final int keyColumn;
    private final List<List<byte[]>> batches = new ArrayList<>();
    private final ByteArrayOutputStream[] open;
    private final int partition;
    private long rows;

    RoutedRowsWriter(TableLayout layout, StructType schema, Duration timeout, int partition) {
        this.layout = layout;
        this.partition = partition;
        this.schema = schema;
        this.timeout = timeout;
        this.keyColumn = layout.sharded() ? keyIndex(schema, layout.shardKey()) : -1;
        this.open = new ByteArrayOutputStream[layout.count()];
        for (int i = 0; i < layout.count(); i++) {
            batches.add(new ArrayList<>());
            open[i] = new ByteArrayOutputStream();
        }
    }

    private static int keyIndex(StructType schema, String key) {
        for (int i = 0; i < schema.fields().length; i++) {
            if (schema.fields()[i].name().equalsIgnoreCase(key)) {
                return i;
            }
        }
        throw new ShardException("numacube: the rows to append lack the shard key column: key=" + key + " columns="
                + java.util.Arrays.toString(schema.fieldNames()) + " — select it into the DataFrame");
    }

    @Override
    public void write(InternalRow row) throws IOException {
        byte[] line = jsonLine(row);
        if (keyColumn < 0) {
            for (int i = 0; i < open.length; i++) {
                add(i, line);
            }
        } else {
            add(ShardHash.of(keyText(row), layout.count()), line);
        }
        rows++;
    }

    private String keyText(InternalRow row) {
        if (row.isNullAt(keyColumn)) {
            return null;
        }
        DataType t = schema.fields()[keyColumn].dataType();
        if (t == DataTypes.StringType) {
            return row.getUTF8String(keyColumn).toString();
        }
        if (t == DataTypes.IntegerType) {
            return Integer.toString(row.getInt(keyColumn));
        }
        return Long.toString(row.getLong(keyColumn));
    }

    private void add(int shard, byte[] line) {
        if (open[shard].size() > 0 && open[shard].size() + line.length > MAX_BATCH_BYTES) {
            batches.get(shard).add(open[shard].toByteArray());
            open[shard].reset();
        }
        open[shard].writeBytes(line);
    }

    private byte[] jsonLine(InternalRow row) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
        try (JsonGenerator g = JSON.createGenerator(bytes)) {
            g.writeStartObject();
            for (int c = 0; c < schema.fields().length; c++) {
                g.writeFieldName(schema.fields()[c].name());
                value(row, c, schema.fields()[c].dataType(), g);
            }
            g.writeEndObject();
        }
        bytes.write('\n');
        return bytes.toByteArray();
    }

    private void value(InternalRow row, int c, DataType t, JsonGenerator g) throws IOException {
        if (row.isNullAt(c)) {
            g.writeNull();
        } else if (t == DataTypes.StringType) {
            g.writeString(row.getUTF8String(c).toString());
        } else if (t == DataTypes.LongType) {
            g.writeNumber(row.getLong(c));
        } else if (t == DataTypes.IntegerType) {
            g.writeNumber(row.getInt(c));
        } else if (t == DataTypes.DoubleType) {
            g.writeNumber(row.getDouble(c));
        } else if (t == DataTypes.BooleanType) {
            g.writeBoolean(row.getBoolean(c));
        } else if (t == DataTypes.DateType) {
            g.writeString(date(LocalDate.ofEpochDay(row.getInt(c)), c));
        } else if (t == DataTypes.TimestampNTZType) {
            g.writeString(timestamp(row.getLong(c), c));
        } else if (t instanceof DecimalType d) {
            g.writeNumber(row.getDecimal(c, d.precision(), d.scale()).toJavaBigDecimal());
        } else {
            throw new ShardException("numacube: cannot append a " + t.simpleString() + " value: column "
                    + schema.fields()[c].name() + " — the connector writes strings, integers, doubles, booleans,"
                    + " dates, timestamps without time zone and decimals");
        }
    }

    /** A DATE's text, refused outside numacube's years 0001 to 9999. */
    private String date(LocalDate d, int c) {
        if (d.getYear() < 1 || d.getYear() > SqlFilters.MAX_YEAR) {
            throw outOfRange(c, d.toString(), "DATE");
        }
        return d.toString();
    }

    /**
     * A TIMESTAMP's text from Spark's microseconds since 1970-01-01 00:00:00 (no time zone), every digit of the
     * microseconds written: numacube keeps them. Refused outside its years 0001 to 9999.
     */
    private String timestamp(long micros, int c) {
        LocalDateTime t = LocalDateTime.ofEpochSecond(
                Math.floorDiv(micros, 1_000_000L), (int) Math.floorMod(micros, 1_000_000L) * 1_000, ZoneOffset.UTC);
        if (t.getYear() < 1 || t.getYear() > SqlFilters.MAX_YEAR) {
            throw outOfRange(c, t.toString(), "TIMESTAMP");
        }
        return t.toLocalDate() + " " + TIME.format(t);
    }

    private ShardException outOfRange(int c, String value, String type) {
        return new ShardException("numacube: cannot append row " + (rows + 1) + " of Spark partition " + partition
                + " to table " + layout.table() + ": column " + schema.fields()[c].name() + " holds " + value
                + ", outside the years 0001 to 9999 of numacube's " + type + " — filter or fix the row;"
                + " nothing of this task was sent");
    }

    @Override
    public WriterCommitMessage commit() {
        for (int i = 0; i < open.length; i++) {
            if (open[i].size() > 0) {
                batches.get(i).add(open[i].toByteArray());
                open[i].reset();
            }
            ShardClient client = new ShardClient(layout.shards().get(i).address(), timeout);
            for (byte[] batch : batches.get(i)) {
                client.append(layout.table(), batch);
            }
        }
        return new Appended(rows);
    }

    /** What a task reports: the rows it routed. */
    record Appended(long rows) implements WriterCommitMessage {}

    @Override
    public void abort() {
        batches.clear();
    }

    @Override
    public void close() {
        // nothing held outside the heap
    }
}
