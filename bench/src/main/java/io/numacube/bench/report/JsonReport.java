package io.numacube.bench.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a {@link BenchReport} as indented JSON: every record component becomes a field of the same name, absent
 * sections are {@code null}. Stateless and thread-safe.
 */
public final class JsonReport {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonReport() {
    }

    public static String toJson(BenchReport report) {
        try {
            return MAPPER.writeValueAsString(report);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("bench report could not be written as JSON: " + e.getMessage(), e);
        }
    }

    /** Writes the report to {@code file}, creating its parent directories. */
    public static void write(BenchReport report, Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, toJson(report));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the bench JSON: file=" + file + " — " + e.getMessage(), e);
        }
    }
}
