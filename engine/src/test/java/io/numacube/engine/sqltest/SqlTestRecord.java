package io.numacube.engine.sqltest;

import java.util.List;

/**
 * One record of a {@code .test} file, as parsed by {@link SqlTestParser}: what to do and, for queries, what to expect.
 * Every record knows the 1-based line of the file where it starts. Immutable.
 */
sealed interface SqlTestRecord {

    /** The 1-based line of the record's first (directive) line. */
    int line();

    /** {@code option NAME=VALUE}: tunes the cube before its first load. */
    record Option(int line, String name, String value) implements SqlTestRecord {}

    /** {@code load TABLE generate N seed S}: the built-in trades and fx tables, into the cube and DuckDB. */
    record LoadTrades(int line, long rows, long seed) implements SqlTestRecord {}

    /**
     * {@code load TABLE csv} with inline text ({@code file} null) or {@code load TABLE csv file PATH} ({@code csvText}
     * null); PATH is relative to the root of the SQL test files.
     */
    /** A CSV table, its types inferred except those of {@code types} ({@code COL=TYPE}, as {@code --types} reads). */
    record LoadCsv(int line, String table, String csvText, String file, List<String> types) implements SqlTestRecord {}

    /** {@code statement ok}: the SQL must run without an error; its rows are not checked. */
    record StatementOk(int line, String sql) implements SqlTestRecord {}

    /**
     * {@code statement error [L:C]}: the SQL must fail with a message containing {@code messagePart}
     * (case-insensitive) and, when {@code position} is not null, at that SQL position.
     */
    record StatementError(int line, String sql, String messagePart, SqlPosition position) implements SqlTestRecord {}

    /**
     * {@code [loop N] query TYPES [SORT] [duckdb] [tolerance T]}: the SQL's rows are compared with {@code expected}
     * (tab-separated text lines) or, when {@code expected} is null, with DuckDB's answer to the same SQL.
     *
     * @param types     one letter per column (I, R, T, D, B)
     * @param rowSort   whether rows are sorted as text before comparing
     * @param tolerance relative tolerance for R columns; null means the default (exact for written answers, 1e-9 for
     *                  DuckDB)
     * @param runs      how many times to run it; more than one requires bit-identical rows on every run
     */
    record Query(int line, String sql, String types, boolean rowSort, Double tolerance, List<String> expected, int runs)
            implements SqlTestRecord {

        /** Whether the answer comes from DuckDB rather than from the file. */
        boolean comparedWithDuckDb() {
            return expected == null;
        }
    }
}
