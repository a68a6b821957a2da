package io.numacube.cli.cube;

import io.numacube.engine.ingest.csv.CsvOptions;
import io.numacube.engine.ingest.csv.CsvSchemas;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * CSV tables named on the command line (a picocli mixin): {@code --table NAME=FILE} (repeatable, loaded in order),
 * {@code --schema NAME=DECLARATION} for any of them (else the schema is inferred from the file), {@code --types
 * TABLE.COL=TYPE} for single columns (replacing the inferred or declared type), the delimiter, and the
 * texts read as NULL besides the empty field ({@code --null}). Filled by picocli on one thread.
 */
public final class DataSources {

    @Option(
            names = "--table",
            paramLabel = "NAME=FILE",
            description = "Load FILE (CSV with a header row, or Parquet) as table NAME; repeatable, e.g. --table "
                    + "trades=trades.csv --table fx=fx.parquet. The format is recognised by the file's first bytes, "
                    + "whatever its name. A CSV FILE may be a pipe (/dev/stdin, <(...), a FIFO: read once) and gzip- "
                    + "or zstd-compressed; a Parquet FILE must be a regular file (snappy, zstd, gzip, lz4 or none). FILE may be a "
                    + "directory or a quoted glob ('data/part-*.parquet'): its files, sorted by name, make one table. "
                    + "In CSV an empty field is NULL in every column type; a quoted \"\" is an empty string in a "
                    + "text column and NULL in a number or date column. Parquet NULLs are NULLs.")
    List<String> tables = new ArrayList<>();

    @Option(
            names = "--schema",
            paramLabel = "NAME=DECL",
            description = "The columns of table NAME, e.g. --schema \"trades=trade_id LONG, desk STRING, trade_date "
                    + "DATE, pnl DOUBLE\". Types: string, int, date and boolean are dimensions (GROUP BY keys); long and "
                    + "double are measures (SUM, AVG, ...). Default: inferred from the first 10,000 rows (integers as "
                    + "long; a column that is numbers but for at most 1%% of its values stays numeric, and the load "
                    + "stops at the first bad value).")
    List<String> schemas = new ArrayList<>();

    @Option(
            names = "--types",
            paramLabel = "TABLE.COL=TYPE",
            description = "Read column COL of CSV table TABLE as TYPE instead of the inferred type (DuckDB's read_csv "
                    + "types); repeatable: --types trades.zip=VARCHAR --types trades.active=BOOLEAN. TYPE: VARCHAR "
                    + "(TEXT), BIGINT (INTEGER, INT), DOUBLE (FLOAT), DECIMAL(p,s) (exact, p at most 18), DATE, TIMESTAMP or "
                    + "BOOLEAN. A value that does not fit stops "
                    + "the load with its file, line, column and value.")
    List<String> types = new ArrayList<>();

    @Option(
            names = "--delimiter",
            paramLabel = "CHAR",
            defaultValue = ",",
            description = "The CSV field separator (default: '${DEFAULT-VALUE}'); 'tab' for a tab.")
    String delimiter = ",";

    @Option(
            names = "--null",
            paramLabel = "STR",
            description = "Also read STR as NULL in CSV files, in every column type, besides the empty field (as "
                    + "DuckDB's nullstr); repeatable: --null NA --null '\\N'. STR must be a field's whole text; "
                    + "quoted, it is still text in a text column (\"NA\" is the text NA).")
    List<String> nullStrings = new ArrayList<>();

    /** The tables to load, in command-line order; a name given twice, or a value without NAME=, is an error. */
    public Map<String, Path> tables() {
        Map<String, Path> out = new LinkedHashMap<>();
        byName("--table", "FILE", tables).forEach((name, file) -> out.put(name, Path.of(file)));
        checkStreamsReadOnce(out);
        return out;
    }

    /**
     * A pipe, FIFO or {@code /dev/stdin} can be read once: two tables naming the same one would leave the second
     * empty, so that is an error naming both.
     */
    private static void checkStreamsReadOnce(Map<String, Path> tables) {
        Map<Path, String> streams = new LinkedHashMap<>();
        tables.forEach((name, file) -> {
            if (java.nio.file.Files.exists(file)
                    && !java.nio.file.Files.isRegularFile(file)
                    && !java.nio.file.Files.isDirectory(file)) {
                String other = streams.putIfAbsent(file.toAbsolutePath().normalize(), name);
                if (other != null) {
                    throw new NumacubeException(
                            NumacubeException.Kind.INVALID_INPUT,
                            "tables " + other + " and " + name + " both read " + file
                                    + ", a stream that can be read once — give each table its own file");
                }
            }
        });
    }

    /** The declared schema of {@code table}, or null to infer it. */
    public TableSchema declaredSchema(String table) {
        String decl = byName("--schema", "DECL", schemas).get(table);
        return decl == null ? null : CsvSchemas.parseDeclaration(table, decl);
    }

    /**
     * The types {@code --types} forces on the columns of {@code table} (its name matched case-insensitively, as SQL
     * names are): column name to type, in the order given; empty when none. A malformed entry or an unknown type is
     * an error.
     */
    public Map<String, ColumnSpec> types(String table) {
        Map<String, ColumnSpec> out = new LinkedHashMap<>();
        for (TypeOverride t : typeOverrides()) {
            if (t.table().equalsIgnoreCase(table)) {
                ColumnSpec previous = out.put(t.column(), t.type());
                if (previous != null) {
                    throw new NumacubeException(
                            NumacubeException.Kind.INVALID_INPUT,
                            "--types names column " + table + "." + t.column() + " twice — give each column once");
                }
            }
        }
        return out;
    }

    /** One {@code --types TABLE.COL=TYPE}. */
    private record TypeOverride(String table, String column, ColumnSpec type) {}

    private List<TypeOverride> typeOverrides() {
        List<TypeOverride> out = new ArrayList<>();
        for (String v : types) {
            int dot = v.indexOf('.');
            int eq = v.lastIndexOf('=');
            if (dot <= 0 || eq <= dot + 1 || eq == v.length() - 1) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "--types takes TABLE.COLUMN=TYPE: value=" + v + " — e.g. --types trades.zip=VARCHAR (types: "
                                + CsvSchemas.SQL_TYPES + ")");
            }
            String table = v.substring(0, dot).trim();
            String column = v.substring(dot + 1, eq).trim();
            out.add(new TypeOverride(table, column, CsvSchemas.sqlColumn(column, v.substring(eq + 1), "--types " + v)));
        }
        return out;
    }

    private static Map<String, String> byName(String option, String what, List<String> values) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String v : values) {
            int eq = v.indexOf('=');
            if (eq <= 0 || eq == v.length() - 1) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        option + " takes NAME=" + what
                                + ": value=" + v + " — e.g. " + option + " trades="
                                + (what.equals("FILE") ? "trades.csv" : "\"trade_id LONG, pnl DOUBLE\""));
            }
            String name = v.substring(0, eq).trim();
            String previous = out.putIfAbsent(name, v.substring(eq + 1));
            if (previous != null) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        option + " names table " + name + " twice: " + name + "=" + previous + " and " + v
                                + " — give each table once");
            }
        }
        return out;
    }

    /** The CSV options; checks that every --schema and --types names a --table. */
    public CsvOptions csvOptions() {
        Map<String, Path> tables = tables();
        for (String name : byName("--schema", "DECL", schemas).keySet()) {
            if (!tables.containsKey(name)) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "--schema names a table that no --table loads: table=" + name + " tables=" + tables.keySet()
                                + " — give --table " + name + "=FILE or fix the name");
            }
        }
        for (TypeOverride t : typeOverrides()) {
            if (tables.keySet().stream().noneMatch(t.table()::equalsIgnoreCase)) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "--types names a table that no --table loads: table=" + t.table() + " tables=" + tables.keySet()
                                + " — write TABLE.COLUMN=TYPE with a table of --table");
            }
        }
        String d = delimiter.equalsIgnoreCase("tab") || delimiter.equals("\\t") ? "\t" : delimiter;
        if (d.length() != 1) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "the delimiter is one character: delimiter=" + delimiter + " — e.g. ',' ';' '|' or tab");
        }
        return CsvOptions.DEFAULT.withDelimiter(d.charAt(0)).withNullStrings(nullStrings);
    }
}
