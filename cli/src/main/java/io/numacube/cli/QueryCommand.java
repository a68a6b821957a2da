package io.numacube.cli;

import io.numacube.cli.cube.CubeLoader;
import io.numacube.cli.cube.CubeSettings;
import io.numacube.cli.cube.DataSources;
import io.numacube.cli.cube.ResultPrinter;
import io.numacube.cli.cube.RowCount;
import io.numacube.cli.cube.SqlScript;
import io.numacube.engine.Cube;
import io.numacube.engine.result.QueryResult;
import io.numacube.numa.base.ErrorPosition;
import io.numacube.numa.base.NumacubeException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code numacube query}: loads data (CSV files or generated trades), runs SQL queries and prints their results. */
@Command(
        name = "query",
        mixinStandardHelpOptions = true,
        description = {
            "Runs SQL aggregation queries over CSV tables (--table NAME=FILE) or generated trades "
                    + "(--generate ROWS --seed S, tables trades and fx), in the order given. Results go to stdout, "
                    + "timings and morsel locality to stderr.",
            "Example: numacube query --generate 1M \"SELECT currency, SUM(pnl) FROM trades GROUP BY currency\""
        })
final class QueryCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "SQL", description = "One or more queries, run in order.")
    List<String> sql = new ArrayList<>();

    @Option(
            names = {"-f", "--file"},
            paramLabel = "FILE",
            description = "Also run the statements of a SQL script (separated by ';', -- comments allowed), after "
                    + "the SQL arguments; repeatable.")
    List<Path> files = new ArrayList<>();

    @Mixin
    DataSources sources;

    @Mixin
    CubeSettings settings;

    @Option(
            names = "--generate",
            paramLabel = "ROWS",
            converter = RowCount.class,
            description = "Generate this many trades (tables trades and fx) instead of, or before, loading --table "
                    + "files.")
    Long generate;

    @Option(
            names = "--seed",
            paramLabel = "S",
            defaultValue = "42",
            description = "Generator seed for --generate (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            defaultValue = "table",
            description = "table (aligned, NULL as NULL), csv (RFC 4180 with a header, NULL as an empty field and an "
                    + "empty string as \"\") or json (an array of row objects per query, NULL as null) "
                    + "(default: ${DEFAULT-VALUE}).")
    String format;

    @Option(
            names = "--max-rows",
            paramLabel = "N",
            defaultValue = "-1",
            description = "Print at most N rows of each result; -1 = all (default: ${DEFAULT-VALUE}).")
    int maxRows;

    @Option(
            names = "--explain",
            description = "Also print each query's physical plan, and where its time went, to stderr.")
    boolean explain;

    @Override
    public Integer call() {
        if (maxRows < -1) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "--max-rows is a row count, or -1 for all rows: max-rows=" + maxRows);
        }
        List<Job> statements = statements();
        ResultPrinter.Format fmt = parseFormat(format);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Cube cube = Cube.open(settings.toOptions())) {
            List<CubeLoader.TableLoad> loads =
                    CubeLoader.generateAndLoad(cube, generate, seed, sources, settings.maxMemory(), err);
            err.flush();
            for (int i = 0; i < statements.size(); i++) {
                Job job = statements.get(i);
                QueryResult r;
                try {
                    r = query(cube, job.sql(), loads);
                } catch (NumacubeException e) {
                    throw job.file() == null ? e : inFile(job, e);
                }
                if (i > 0 && fmt == ResultPrinter.Format.TABLE) {
                    out.println();
                }
                ResultPrinter.print(r, fmt, out, maxRows);
                io.numacube.cli.output.ResultStream.check(out);
                err.println(ResultPrinter.statsLine(r));
                if (explain) {
                    err.println(ResultPrinter.explanation(r));
                }
                err.flush();
            }
        }
        return 0;
    }

    /** A statement to run and, for one read from a --file, where it is there. */
    private record Job(String sql, Path file, SqlScript.Statement at) {}

    /**
     * An error in a statement of a --file, restated with the file, line and column in the file: the error's SQL
     * position is inside the statement, so it is moved by where the statement starts in the file.
     */
    private static NumacubeException inFile(Job job, NumacubeException e) {
        ErrorPosition at = e.position().filter(ErrorPosition::inSql).orElse(null);
        if (at == null) {
            return new NumacubeException(
                    e.kind(),
                    e.code(),
                    e.getMessage() + " (in the statement at " + job.at().line() + ":"
                            + job.at().column() + ")",
                    ErrorPosition.file(
                            job.file().toString(), job.at().line(), job.at().column(), null),
                    e);
        }
        int[] pos = job.at().scriptPosition((int) at.line(), at.column());
        return new NumacubeException(
                e.kind(), e.code(), e.detail(), ErrorPosition.file(job.file().toString(), pos[0], pos[1], null), e);
    }

    /** The SQL arguments, then the statements of every --file. */
    private List<Job> statements() {
        List<Job> all = new ArrayList<>();
        sql.forEach(q -> all.add(new Job(q, null, null)));
        for (Path f : files) {
            SqlScript.located(SqlScript.read(f)).forEach(st -> all.add(new Job(st.sql(), f, st)));
        }
        if (all.isEmpty()) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "no query to run: sql=0 files=" + files.size() + " — give SQL as an argument or --file FILE");
        }
        return all;
    }

    /**
     * Runs one query; a bind error that names an inferred column says what was inferred, from which value, and how
     * to declare another type (not for a column that does not exist, 42703, or one missing from GROUP BY, 42803,
     * where no column's type is the cause).
     */
    private static QueryResult query(Cube cube, String sql, List<CubeLoader.TableLoad> loads) {
        try {
            return cube.query(sql);
        } catch (NumacubeException e) {
            if ((e.kind() == NumacubeException.Kind.BIND && !"42703".equals(e.code()) && !"42803".equals(e.code()))
                    || "0A000".equals(e.code())) {
                for (CubeLoader.TableLoad l : loads) {
                    String hint = l.typeHint(e.getMessage(), cube.schema(l.table()));
                    if (hint != null) {
                        throw new NumacubeException(e.kind(), e.getMessage() + " — " + hint, e);
                    }
                }
            }
            if (loads.isEmpty() && e.detail() != null && e.detail().startsWith("no such table")) {
                throw new NumacubeException(
                        e.kind(),
                        e.code(),
                        e.detail() + " (no table is loaded: give --table NAME=FILE, repeatable, or --generate ROWS)",
                        e.position().orElse(null),
                        e);
            }
            throw e;
        }
    }

    static ResultPrinter.Format parseFormat(String text) {
        try {
            return ResultPrinter.Format.valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "unknown output format: format=" + text + " — use table, csv or json");
        }
    }
}
