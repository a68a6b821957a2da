package io.numacube.server.durable;

import io.numacube.engine.Cube;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.ingest.csv.CsvOptions;
import io.numacube.engine.ingest.csv.CsvProgress;
import io.numacube.engine.ingest.csv.CsvStagingLoader;
import io.numacube.numa.base.IoReason;
import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Loads the tables of a checkpoint into a cube, placed as any load is, one table staged and placed at a time. Every
 * file is checked against the manifest (present, its size, its SHA-256) before any table is loaded, and each table's
 * rows are counted against the manifest as it is staged: a damaged checkpoint is an error naming the file, never a
 * partial load that goes on as if it were whole. Stateless.
 */
final class CheckpointLoader {

    private CheckpointLoader() {}

    /**
     * Checks every file of {@code manifest} in {@code dir}, then loads each table into {@code cube}; returns the rows
     * loaded.
     *
     * @throws NumacubeException (PLATFORM, XX001) naming the file when a file is missing or differs from the manifest
     */
    static long load(Path dir, CheckpointManifest manifest, Cube cube) {
        for (CheckpointManifest.TableFile t : manifest.tables()) {
            verify(dir.resolve(t.file()), t);
        }
        long rows = 0;
        for (CheckpointManifest.TableFile t : manifest.tables()) {
            TableStaging staged = stage(dir.resolve(t.file()), t, cube);
            cube.loadTable(staged, Math.max(1, t.version()));
            rows += staged.rows();
        }
        return rows;
    }

    private static void verify(Path file, CheckpointManifest.TableFile t) {
        CheckpointFiles.Digest d;
        try {
            if (!Files.isRegularFile(file)) {
                throw CheckpointManifest.corrupt(
                        file,
                        "the file the manifest names is missing: table="
                                + t.schema().name());
            }
            d = CheckpointFiles.digest(file);
        } catch (IOException e) {
            throw new NumacubeException(
                    NumacubeException.Kind.PLATFORM,
                    "58030",
                    "cannot read a checkpoint file: file=" + file + " error=" + IoReason.of(e),
                    null,
                    e);
        }
        if (d.bytes() != t.bytes()) {
            throw CheckpointManifest.corrupt(
                    file, "size differs from the manifest: bytes=" + d.bytes() + " expected=" + t.bytes());
        }
        if (!d.sha256().equals(t.sha256())) {
            throw CheckpointManifest.corrupt(
                    file, "SHA-256 differs from the manifest: sha256=" + d.sha256() + " expected=" + t.sha256());
        }
    }

    private static TableStaging stage(Path file, CheckpointManifest.TableFile t, Cube cube) {
        TableStaging staging = new CsvStagingLoader(CsvOptions.DEFAULT, cube.workers())
                .stage(file, t.schema().name(), t.schema(), CsvProgress.NONE)
                .staging();
        if (staging.rows() != t.rows()) {
            throw CheckpointManifest.corrupt(
                    file, "row count differs from the manifest: rows=" + staging.rows() + " expected=" + t.rows());
        }
        return staging;
    }
}
