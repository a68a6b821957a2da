package io.numacube.engine.sqltest;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every {@code engine/src/test/sql/**}{@code /*.test} file (format: engine/src/test/sql/README.md), read from the
 * source tree: one container per file, one dynamic test per record, named {@code path.test:line}. The records of a
 * file run in order against one cube and one DuckDB. No files, a file without a query or statement, or a file that
 * does not parse is a failure, never a silent pass.
 *
 * <p>{@code -Dsqltest=aggregate/sum.test} (a comma-separated list of path parts) runs only the files whose path
 * contains one of them; {@code -Dsqltest.root=DIR} reads the files from another directory.
 */
class SqlLogicTest {

    @TestFactory
    Stream<DynamicNode> sqlTestFiles() {
        Path root = root();
        List<Path> files = testFiles(root);
        if (files.isEmpty()) {
            fail("no .test files under " + root.toAbsolutePath()
                    + (filter().isEmpty() ? "" : " match -Dsqltest=" + String.join(",", filter())));
        }
        List<SqlTestSession> sessions = new ArrayList<>();
        return files.stream()
                .map(f -> fileNode(root, f, sessions))
                .onClose(() -> sessions.forEach(s -> {
                    try {
                        s.close();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }));
    }

    private static DynamicNode fileNode(Path root, Path path, List<SqlTestSession> sessions) {
        String name = root.relativize(path).toString().replace('\\', '/');
        SqlTestFile file;
        try {
            file = SqlTestParser.parse(root, path);
        } catch (SqlTestParseException e) {
            return DynamicTest.dynamicTest(name, path.toUri(), () -> fail(e.getMessage()));
        }
        if (file.records().stream()
                .noneMatch(r -> r instanceof SqlTestRecord.Query
                        || r instanceof SqlTestRecord.StatementOk
                        || r instanceof SqlTestRecord.StatementError)) {
            return DynamicTest.dynamicTest(
                    name,
                    path.toUri(),
                    () -> fail(name + ": the file has no query or" + " statement record, so it tests nothing"));
        }
        SqlTestSession session = new SqlTestSession(file);
        sessions.add(session);
        List<SqlTestRecord> records = file.records();
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            SqlTestRecord record = records.get(i);
            boolean last = i == records.size() - 1;
            tests.add(DynamicTest.dynamicTest(
                    file.where(record), URI.create(path.toUri() + "?line=" + record.line()), () -> {
                        try {
                            session.run(record);
                        } finally {
                            if (last) {
                                session.close();
                            }
                        }
                    }));
        }
        return DynamicContainer.dynamicContainer(name, path.toUri(), tests.stream());
    }

    /** The directory of the .test files: -Dsqltest.root, else src/test/sql of the engine module. */
    static Path root() {
        String configured = System.getProperty("sqltest.root");
        if (configured != null) {
            return Path.of(configured);
        }
        Path fromModule = Path.of("src", "test", "sql");
        return Files.isDirectory(fromModule) ? fromModule : Path.of("engine", "src", "test", "sql");
    }

    private static List<String> filter() {
        String f = System.getProperty("sqltest", "").strip();
        return f.isEmpty()
                ? List.of()
                : Arrays.stream(f.split(",")).map(String::strip).toList();
    }

    private static List<Path> testFiles(Path root) {
        if (!Files.isDirectory(root)) {
            fail("the SQL test directory is missing: " + root.toAbsolutePath());
        }
        List<String> filter = filter();
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.toString().endsWith(".test") && Files.isRegularFile(p))
                    .filter(p -> filter.isEmpty()
                            || filter.stream()
                                    .anyMatch(part -> root.relativize(p)
                                            .toString()
                                            .replace('\\', '/')
                                            .contains(part)))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
