package io.numacube.engine.sqltest;

import java.nio.file.Path;
import java.util.List;

/**
 * A parsed {@code .test} file: its records in file order. Immutable.
 *
 * @param root         the root of the SQL test files ({@code load ... csv file} paths are relative to it)
 * @param relativePath the file's path below the root, with {@code /} separators, as test names show it
 */
record SqlTestFile(Path root, String relativePath, List<SqlTestRecord> records) {

    SqlTestFile {
        records = List.copyOf(records);
    }

    /** The name of one record in test reports and failure messages: {@code path:line}. */
    String where(SqlTestRecord record) {
        return relativePath + ":" + record.line();
    }
}
