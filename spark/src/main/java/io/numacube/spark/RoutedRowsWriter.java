package io.numacube.spark;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.time.LocalDate;
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

    private final TableLayout layout;
    private final StructType schema;
    private final Duration timeout;
    private final int keyColumn;
    private final List<List<byte[]>> batches = new ArrayList<>();
    private final ByteArrayOutputStream[] open;
    private long rows;

    RoutedRowsWriter(TableLayout layout, StructType schema, Duration timeout) {
        this.layout = layout;
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

    private static void value(InternalRow row, int c, DataType t, JsonGenerator g) throws IOException {
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
            g.writeString(LocalDate.ofEpochDay(row.getInt(c)).toString());
        } else if (t instanceof DecimalType d) {
            g.writeNumber(row.getDecimal(c, d.precision(), d.scale()).toJavaBigDecimal());
        } else {
            throw new ShardException("numacube: cannot append a " + t.simpleString() + " value (column " + c
                    + "): the connector writes strings, integers, doubles, booleans, dates and decimals");
        }
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
