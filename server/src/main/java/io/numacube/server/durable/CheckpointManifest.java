package io.numacube.server.durable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * What a checkpoint holds: the WAL position it covers and, per table, its file, columns, key, row count, size and
 * SHA-256.
 * Stored as {@link #FILE_NAME} in the data directory, written last and atomically, so the checkpoint it describes
 * exists exactly when the manifest does. The file is one header line and a JSON object:
 *
 * <pre>
 * numacube-checkpoint 1 crc32c=5d2e3f4a
 * {"generation":3,"lsn":41,"created":"2026-11-26T02:44:26Z","tables":[{"name":"trades",
 *  "file":"checkpoint-00000003-0-trades.csv","rows":100000,"bytes":7311234,"sha256":"9f86d0...","key":["trade_id"],
 *  "columns":[{"name":"trade_id","type":"long"},{"name":"desk","type":"string"},...]}]}
 * </pre>
 *
 * The CRC32C covers the JSON bytes, so a flipped byte anywhere in the manifest is caught even where the JSON would
 * still parse. Column types are the stored ones ({@link ColumnSpec#typeName}: an integer column with few distinct
 * values is {@code int}), which {@link ColumnSpec#parse} reads back. Immutable.
 *
 * @param generation counts checkpoints of this data directory from 1; names the checkpoint's files
 * @param lsn        the checkpoint holds exactly the writes with LSNs up to this one (0: none), and no other
 * @param created    when it was written, ISO-8601 UTC, for people
 * @param tables     every table of the cube, sorted by name
 */
public record CheckpointManifest(long generation, long lsn, String created, List<TableFile> tables) {

    /** The manifest's name in the data directory. */
    public static final String FILE_NAME = "MANIFEST";

    /** The manifest layout's version. */
    public static final int VERSION = 1;

    private static final String MAGIC = "numacube-checkpoint";
    private static final ObjectMapper JSON = new ObjectMapper();

    public CheckpointManifest {
        tables = List.copyOf(tables);
    }

    /**
     * One table of a checkpoint.
     *
     * @param schema the table's name and columns as stored
     * @param key    the columns of its key ({@code Cube.setKey}: appends to it are upserts), empty for none
     * @param file   the CSV file's name in the data directory (a header row, then every row)
     * @param rows   data rows in the file
     * @param bytes  the file's size
     * @param sha256 the file's SHA-256, lowercase hex
     * @param version the table's version when checkpointed (it keeps it when recovered; 1 in a manifest without it)
     */
    public record TableFile(
            TableSchema schema, List<String> key, String file, long rows, long bytes, String sha256, long version) {

        public TableFile {
            key = List.copyOf(key);
        }
    }

    /** The manifest as the bytes of its file. */
    public byte[] toBytes() {
        ObjectNode root = JSON.createObjectNode();
        root.put("generation", generation).put("lsn", lsn).put("created", created);
        ArrayNode list = root.putArray("tables");
        for (TableFile t : tables) {
            ObjectNode o = list.addObject();
            o.put("name", t.schema().name()).put("file", t.file()).put("rows", t.rows());
            o.put("bytes", t.bytes()).put("sha256", t.sha256()).put("version", t.version());
            ArrayNode key = o.putArray("key");
            t.key().forEach(key::add);
            ArrayNode columns = o.putArray("columns");
            for (ColumnSpec c : t.schema().columns()) {
                columns.addObject().put("name", c.name()).put("type", c.typeName());
            }
        }
        byte[] json;
        try {
            json = JSON.writeValueAsBytes(root);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        String header = MAGIC + " " + VERSION + " crc32c=" + String.format("%08x", crc(json)) + "\n";
        byte[] head = header.getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[head.length + json.length + 1];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(json, 0, out, head.length, json.length);
        out[out.length - 1] = '\n';
        return out;
    }

    /**
     * Reads a manifest's bytes, checking its header, checksum and fields.
     *
     * @param file the manifest's path, for errors
     * @throws NumacubeException (PLATFORM, XX001) naming {@code file} when it is damaged or of another version
     */
    public static CheckpointManifest parse(Path file, byte[] bytes) {
        int newline = indexOf(bytes, (byte) '\n');
        if (newline < 0) {
            throw corrupt(file, "no header line");
        }
        String header = new String(bytes, 0, newline, StandardCharsets.US_ASCII);
        String[] parts = header.split(" ");
        if (parts.length != 3 || !parts[0].equals(MAGIC) || !parts[2].matches("crc32c=[0-9a-f]{8}")) {
            throw corrupt(file, "not a checkpoint manifest header: header=" + printable(header));
        }
        if (!parts[1].equals(Integer.toString(VERSION))) {
            throw corrupt(file, "unknown manifest version: version=" + printable(parts[1]) + " expected=" + VERSION);
        }
        int end = bytes.length > newline + 1 && bytes[bytes.length - 1] == '\n' ? bytes.length - 1 : bytes.length;
        byte[] json = java.util.Arrays.copyOfRange(bytes, newline + 1, end);
        long expected = Long.parseLong(parts[2].substring("crc32c=".length()), 16);
        if (crc(json) != expected) {
            throw corrupt(
                    file,
                    "manifest checksum mismatch: crc32c=" + String.format("%08x", crc(json)) + " expected="
                            + String.format("%08x", expected));
        }
        try {
            return fromJson(JSON.readTree(json));
        } catch (IOException | RuntimeException e) {
            throw corrupt(file, "manifest fields unreadable: error=" + e.getMessage());
        }
    }

    private static CheckpointManifest fromJson(JsonNode root) {
        List<TableFile> tables = new ArrayList<>();
        for (JsonNode t : required(root, "tables")) {
            String name = required(t, "name").textValue();
            List<ColumnSpec> columns = new ArrayList<>();
            for (JsonNode c : required(t, "columns")) {
                columns.add(ColumnSpec.parse(
                        required(c, "name").textValue(), required(c, "type").textValue()));
            }
            List<String> key = new ArrayList<>();
            for (JsonNode k : required(t, "key")) {
                key.add(k.textValue());
            }
            tables.add(new TableFile(
                    new TableSchema(name, columns),
                    key,
                    required(t, "file").textValue(),
                    required(t, "rows").longValue(),
                    required(t, "bytes").longValue(),
                    required(t, "sha256").textValue(),
                    t.has("version") ? t.get("version").longValue() : 1));
        }
        return new CheckpointManifest(
                required(root, "generation").longValue(),
                required(root, "lsn").longValue(),
                required(root, "created").textValue(),
                tables);
    }

    private static JsonNode required(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            throw new IllegalArgumentException("missing field " + field);
        }
        return v;
    }

    /** The error for a damaged checkpoint file: it names the file, and nothing is loaded. */
    static NumacubeException corrupt(Path file, String reason) {
        return new NumacubeException(
                NumacubeException.Kind.PLATFORM,
                "XX001",
                "checkpoint is corrupt: file=" + file + " reason=" + reason
                        + " — not loading a partial checkpoint; restore the data directory from a backup",
                null,
                null);
    }

    private static long crc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return crc.getValue();
    }

    private static int indexOf(byte[] bytes, byte b) {
        for (int i = 0; i < Math.min(bytes.length, 256); i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static String printable(String s) {
        String t = s.length() > 60 ? s.substring(0, 60) + "..." : s;
        return t.replaceAll("[^\\x20-\\x7e]", "?");
    }
}
