package io.numacube.cli.cube;

import io.numacube.engine.ingest.csv.CsvOptions;
import io.numacube.engine.ingest.csv.CsvSchemas;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.NumacubeException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * CSV tables named on the command line (a picocli mixin): {@code --table NAME=FILE} (repeatable, loaded in order),
 * {@code --schema NAME=DECLARATION} for any of them (else the schema is inferred from the file), and the delimiter.
 * Filled by picocli on one thread.
 */
public final class DataSources {

    @Option(names = "--table", paramLabel = "NAME=FILE",
            description = "Load FILE (CSV with a header row) as table NAME; repeatable, e.g. --table trades=trades.csv "
                    + "--table fx=fx.csv.")
    Map<String, Path> tables = new LinkedHashMap<>();

    @Option(names = "--schema", paramLabel = "NAME=DECL",
            description = "The columns of table NAME, e.g. --schema \"trades=trade_id LONG, desk STRING, trade_date "
                    + "DATE, pnl DOUBLE\". Types: string, int and date are dimensions (GROUP BY keys); long and "
                    + "double are measures (SUM, AVG, ...). Default: inferred from the first 10,000 rows (integers as "
                    + "long; a column that is numbers but for at most 1%% of its values stays numeric, and the load "
                    + "stops at the first bad value).")
    Map<String, String> schemas = new LinkedHashMap<>();

    @Option(names = "--delimiter", paramLabel = "CHAR", defaultValue = ",",
            description = "The CSV field separator (default: '${DEFAULT-VALUE}'); 'tab' for a tab.")
    String delimiter = ",";

    /** The tables to load, in command-line order. */
    public Map<String, Path> tables() {
        return tables;
    }

    /** The declared schema of {@code table}, or null to infer it. */
    public TableSchema declaredSchema(String table) {
        String decl = schemas.get(table);
        return decl == null ? null : CsvSchemas.parseDeclaration(table, decl);
    }

    /** The CSV options; checks that every --schema names a --table. */
    public CsvOptions csvOptions() {
        for (String name : schemas.keySet()) {
            if (!tables.containsKey(name)) {
                throw new NumacubeException(NumacubeException.Kind.INVALID_INPUT,
                        "--schema names a table that no --table loads: table=" + name + " tables=" + tables.keySet()
                                + " — give --table " + name + "=FILE or fix the name");
            }
        }
        String d = delimiter.equalsIgnoreCase("tab") || delimiter.equals("\\t") ? "\t" : delimiter;
        if (d.length() != 1) {
            throw new NumacubeException(NumacubeException.Kind.INVALID_INPUT,
                    "the delimiter is one character: delimiter=" + delimiter + " — e.g. ',' ';' '|' or tab");
        }
        return CsvOptions.DEFAULT.withDelimiter(d.charAt(0));
    }
}
