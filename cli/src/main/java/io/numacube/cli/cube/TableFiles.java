package io.numacube.cli.cube;

import io.numacube.engine.ingest.parquet.ParquetStagingLoader;
import io.numacube.numa.base.IoReason;
import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;

/**
 * The files of one {@code --table}, listed and sniffed once: the file itself; every regular, non-hidden file of a
 * directory; or the files that a glob in the last part of the path matches ({@code data/trades-*.parquet}, quoted so
 * that the shell leaves it alone). Several files are sorted by name, and must all be Parquet or all CSV. A file of 0
 * bytes named {@code .parquet} is refused as no Parquet file (a CSV reading of it would speak of a header). Immutable.
 *
 * @param files   in load order, at least one
 * @param parquet whether they are Parquet (by their first bytes), else CSV
 */
public record TableFiles(List<Path> files, boolean parquet) {

    public TableFiles {
        files = List.copyOf(files);
    }

    /** The files {@code path} names; an error names a directory or glob that matches nothing, or a mix of formats. */
    public static TableFiles of(Path path) {
        List<Path> files;
        if (Files.isDirectory(path)) {
            files = list(path, "*", path + " is a directory without a file to load");
        } else if (!Files.exists(path)
                && isGlob(path.getFileName() == null ? "" : path.getFileName().toString())) {
            Path dir = path.getParent() == null ? Path.of(".") : path.getParent();
            files = list(dir, path.getFileName().toString(), "no file matches " + path);
        } else {
            Path parent = path.getParent();
            if (!Files.exists(path) && parent != null && isGlob(parent.toString())) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "no file " + path + ": a glob may only be in the file name (the last part of the path), e.g."
                                + " data/part-*.parquet");
            }
            refuseEmptyParquet(path);
            return new TableFiles(List.of(path), ParquetStagingLoader.isParquet(path));
        }
        files.forEach(TableFiles::refuseEmptyParquet);
        boolean parquet = ParquetStagingLoader.isParquet(files.get(0));
        for (Path f : files) {
            if (ParquetStagingLoader.isParquet(f) != parquet) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        f + " is " + (parquet ? "not Parquet" : "Parquet") + ", " + files.get(0) + " is "
                                + (parquet ? "Parquet" : "not (CSV)") + ": the files of one table have one format");
            }
        }
        return new TableFiles(files, parquet);
    }

    private static void refuseEmptyParquet(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString();
        try {
            if (name.toLowerCase(java.util.Locale.ROOT).endsWith(".parquet")
                    && Files.isRegularFile(file)
                    && Files.size(file) == 0) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        file + ": an empty file (0 bytes) is no Parquet file (no PAR1 magic) — write it again or"
                                + " leave it out");
            }
        } catch (IOException e) {
            // unreadable: the loader that opens it says why, naming the file
        }
    }

    static boolean isGlob(String name) {
        return name.indexOf('*') >= 0 || name.indexOf('?') >= 0 || name.indexOf('[') >= 0 || name.indexOf('{') >= 0;
    }

    private static List<Path> list(Path dir, String glob, String none) {
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + glob);
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                String name = p.getFileName().toString();
                if (!name.startsWith(".") && Files.isRegularFile(p) && matcher.matches(p.getFileName())) {
                    files.add(p);
                }
            }
        } catch (IOException e) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "cannot list " + dir + ": " + IoReason.of(e) + " — check the path");
        }
        if (files.isEmpty()) {
            throw new NumacubeException(NumacubeException.Kind.INVALID_INPUT, none);
        }
        files.sort(null);
        return files;
    }
}
