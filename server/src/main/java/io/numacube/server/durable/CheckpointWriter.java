package io.numacube.server.durable;

import io.numacube.engine.CubeSnapshot;
import io.numacube.engine.ingest.csv.CsvRows;
import io.numacube.engine.ingest.csv.CsvWriter;
import io.numacube.engine.schema.TableSchema;
import io.numacube.server.wal.DataDirectory;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes one checkpoint into the data directory: each table of a snapshot as a CSV file ({@link CheckpointFiles}
 * names it; a header row, then every row as {@link CsvRows} writes it), each written, fsynced and renamed into place
 * by {@link DataDirectory#writeAtomically}, and then, last, the {@link CheckpointManifest} naming them, the same way.
 * Until the manifest is renamed into place the previous checkpoint is the current one, whole; after, the new one is.
 * Stateless; the caller makes sure that one checkpoint is written at a time.
 */
final class CheckpointWriter {

    private CheckpointWriter() {}

    /**
     * Writes every table of {@code snapshot} and the manifest saying it covers the WAL up to {@code lsn}; returns the
     * manifest once it is durable.
     *
     * @param keys each table's key columns by its name as the snapshot lists it (none when missing)
     * @param lsn  the snapshot holds exactly the writes with LSNs up to this one (the caller captured both together)
     */
    static CheckpointManifest write(
            DataDirectory dir, CubeSnapshot snapshot, Map<String, List<String>> keys, long lsn, long generation) {
        List<CheckpointManifest.TableFile> files = new ArrayList<>();
        List<String> tables = snapshot.tables();
        for (int i = 0; i < tables.size(); i++) {
            String table = tables.get(i);
            files.add(writeTable(
                    dir,
                    snapshot,
                    table,
                    keys.getOrDefault(table, List.of()),
                    CheckpointFiles.tableFile(generation, i, table)));
        }
        CheckpointManifest manifest = new CheckpointManifest(
                generation, lsn, Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), files);
        dir.writeAtomically(CheckpointManifest.FILE_NAME, manifest.toBytes());
        return manifest;
    }

    private static CheckpointManifest.TableFile writeTable(
            DataDirectory dir, CubeSnapshot snapshot, String table, List<String> key, String fileName) {
        TableSchema schema = snapshot.schema(table);
        long[] rows = {0};
        CheckpointFiles.Digest[] digest = {null};
        dir.writeAtomically(fileName, out -> {
            CheckpointFiles.HashingStream hashed = new CheckpointFiles.HashingStream(out);
            CsvWriter csv = new CsvWriter(hashed);
            csv.writeHeader(schema);
            rows[0] = snapshot.export(table, new CsvRows(csv, schema));
            csv.flush();
            digest[0] = hashed.digest();
        });
        return new CheckpointManifest.TableFile(
                schema, key, fileName, rows[0], digest[0].bytes(), digest[0].sha256(), snapshot.version(table));
    }
}
