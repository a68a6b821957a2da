package io.numacube.server.pgwire;

import io.numacube.server.pgwire.types.FieldEncoder;
import io.numacube.server.pgwire.types.PgColumn;
import io.numacube.server.pgwire.types.WireSink;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Writes backend messages: each is built whole (type byte, int32 length counting itself, body), then buffered;
 * {@link #flush} sends what is buffered (at ReadyForQuery, Flush, or when the buffer fills). Layouts follow the
 * PostgreSQL protocol 3.0 message formats. Not thread-safe: one connection thread writes.
 */
final class PgOutput implements WireSink {

    private final OutputStream out;
    private byte[] msg = new byte[256];
    private int size;

    PgOutput(OutputStream out) {
        this.out = new BufferedOutputStream(out, 64 * 1024);
    }

    void flush() throws IOException {
        out.flush();
    }

    /** A byte sent outside any message (the answer to SSLRequest and GSSENCRequest). */
    void rawByte(char c) throws IOException {
        out.write(c);
        out.flush();
    }

    void authenticationOk() throws IOException {
        begin('R');
        int32(0);
        end();
    }

    /** An Authentication message: its code (10 SASL, 11 SASLContinue, 12 SASLFinal) and data. */
    void authentication(int code, byte[] data) throws IOException {
        begin('R');
        int32(code);
        bytes(data);
        end();
    }

    void parameterStatus(String name, String value) throws IOException {
        begin('S');
        cstring(name);
        cstring(value);
        end();
    }

    void backendKeyData(int processId, int secretKey) throws IOException {
        begin('K');
        int32(processId);
        int32(secretKey);
        end();
    }

    void negotiateProtocolVersion(int newestMinor, List<String> unrecognized) throws IOException {
        begin('v');
        int32(newestMinor);
        int32(unrecognized.size());
        unrecognized.forEach(this::cstring);
        end();
    }

    void readyForQuery(char transactionStatus) throws IOException {
        begin('Z');
        int8(transactionStatus);
        end();
        flush();
    }

    /** RowDescription; {@code formats} is one code per column. */
    void rowDescription(List<PgColumn> columns, short[] formats) throws IOException {
        begin('T');
        int16(columns.size());
        for (int c = 0; c < columns.size(); c++) {
            PgColumn col = columns.get(c);
            cstring(col.name());
            int32(0);
            int16(0);
            int32(col.type().oid());
            int16(col.type().length());
            int32(col.typmod());
            int16(formats[c]);
        }
        end();
    }

    /** DataRow: each field by its column's encoder (a null value is length -1). */
    void dataRow(int row, FieldEncoder[] fields) throws IOException {
        begin('D');
        int16(fields.length);
        for (FieldEncoder field : fields) {
            field.write(row, this);
        }
        end();
    }

    void parameterDescription(int[] oids) throws IOException {
        begin('t');
        int16(oids.length);
        for (int oid : oids) {
            int32(oid);
        }
        end();
    }

    void commandComplete(String tag) throws IOException {
        begin('C');
        cstring(tag);
        end();
    }

    /** CopyInResponse: the client may send {@code columns} columns of text (format 0) as CopyData. */
    void copyInResponse(int columns) throws IOException {
        begin('G');
        int8(0);
        int16(columns);
        for (int c = 0; c < columns; c++) {
            int16(0);
        }
        end();
    }

    /** A message of a type byte and no body: EmptyQueryResponse 'I', ParseComplete '1', BindComplete '2', ... */
    void empty(char type) throws IOException {
        begin(type);
        end();
    }

    /** ErrorResponse ('E') or NoticeResponse ('N'): field code to value, in order. */
    void fields(char type, Map<Character, String> fields) throws IOException {
        begin(type);
        for (Map.Entry<Character, String> f : fields.entrySet()) {
            int8(f.getKey());
            cstring(f.getValue());
        }
        int8(0);
        end();
    }

    private void begin(char type) {
        size = 0;
        int8(type);
        int32(0);
    }

    private void end() throws IOException {
        int length = size - 1;
        msg[1] = (byte) (length >>> 24);
        msg[2] = (byte) (length >>> 16);
        msg[3] = (byte) (length >>> 8);
        msg[4] = (byte) length;
        out.write(msg, 0, size);
    }

    private void int8(int v) {
        ensure(1);
        msg[size++] = (byte) v;
    }

    private void int16(int v) {
        ensure(2);
        msg[size++] = (byte) (v >>> 8);
        msg[size++] = (byte) v;
    }

    @Override
    public void int64(long v) {
        int32((int) (v >>> 32));
        int32((int) v);
    }

    @Override
    public void bytes(byte[] b, int offset, int length) {
        ensure(length);
        System.arraycopy(b, offset, msg, size, length);
        size += length;
    }

    @Override
    public void int32(int v) {
        ensure(4);
        msg[size++] = (byte) (v >>> 24);
        msg[size++] = (byte) (v >>> 16);
        msg[size++] = (byte) (v >>> 8);
        msg[size++] = (byte) v;
    }

    private void cstring(String s) {
        bytes(s.getBytes(StandardCharsets.UTF_8));
        int8(0);
    }

    private void bytes(byte[] b) {
        bytes(b, 0, b.length);
    }

    private void ensure(int n) {
        if (size + n > msg.length) {
            msg = Arrays.copyOf(msg, Math.max(msg.length * 2, size + n));
        }
    }
}
