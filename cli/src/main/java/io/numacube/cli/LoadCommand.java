package io.numacube.cli;

import io.numacube.cli.cube.CubeLoader;
import io.numacube.cli.cube.CubeSettings;
import io.numacube.cli.cube.DataSources;
import io.numacube.cli.cube.PlacementPrinter;
import io.numacube.cli.output.Json;
import io.numacube.cli.output.OutputFile;
import io.numacube.cli.output.Units;
import io.numacube.engine.Cube;
import io.numacube.engine.PartitionInfo;
import io.numacube.engine.TableSkew;
import io.numacube.numa.base.NumacubeException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code numacube load}: loads CSV files into a cube and reports rows, bytes, partitions, placement and speed. */
@Command(
        name = "load",
        mixinStandardHelpOptions = true,
        description = {
            "Loads CSV files (with a header row) into a cube and shows, per table, its rows, partitions, "
                    + "where each partition's memory is (node, bytes, %% of pages verified on that node) and the load speed.",
            "A bad row stops the load with FILE:LINE:COLUMN and the reason (exit code 2)."
        })
final class LoadCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    DataSources sources;

    @Mixin
    CubeSettings settings;

    @Option(
            names = "--json",
            paramLabel = "FILE",
            description = "Also write the load report (tables, partitions with pages_on_node_pct) as JSON to FILE.")
    Path json;

    @Override
    public Integer call() {
        if (sources.tables().isEmpty()) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "nothing to load: tables=0 — give --table NAME=FILE (e.g. --table trades=trades.csv)");
        }
        if (json != null) {
            OutputFile.checkWritable(json, "--json");
        }
        PrintWriter out = spec.commandLine().getOut();
        try (Cube cube = Cube.open(settings.toOptions())) {
            out.println("cube: " + cube.describe());
            List<CubeLoader.TableLoad> loads = CubeLoader.loadCsv(
                    cube, sources, settings.maxMemory(), spec.commandLine().getErr());
            List<PartitionInfo> placement = cube.placement();
            for (CubeLoader.TableLoad load : loads) {
                out.println();
                printLoad(out, cube, load, placement);
            }
            if (json != null) {
                writeJson(cube, loads, placement);
                out.println();
                out.println("wrote " + json);
            }
        }
        out.flush();
        return 0;
    }

    private void writeJson(Cube cube, List<CubeLoader.TableLoad> loads, List<PartitionInfo> placement) {
        List<Object> tables = Json.arr();
        for (CubeLoader.TableLoad l : loads) {
            tables.add(Json.obj()
                    .put("table", l.table())
                    .put("file", l.file().toString())
                    .put("rows", l.rows())
                    .put("bytes_read", l.bytesRead())
                    .put("read_seconds", l.readSeconds())
                    .put("place_seconds", l.placeSeconds())
                    .put("rows_per_second", l.rowsPerSecond())
                    .put("schema", cube.schema(l.table()).declaration())
                    .put("schema_inferred", l.inferredSchema() != null));
        }
        Json.Obj report = Json.obj()
                .put("cube", cube.describe())
                .put("tables", tables)
                .put("partitions", PlacementPrinter.json(placement));
        OutputFile.writeAtomically(json, Json.print(report));
    }

    static void printLoad(PrintWriter out, Cube cube, CubeLoader.TableLoad load, List<PartitionInfo> placement) {
        List<PartitionInfo> parts =
                placement.stream().filter(p -> p.table().equals(load.table())).toList();
        long bytes = parts.stream().mapToLong(PartitionInfo::bytes).sum();
        out.println(String.format(
                Locale.ROOT,
                "table %s: %,d rows, %d %s %s, %s placed",
                load.table(),
                load.rows(),
                parts.size(),
                parts.size() == 1 ? "partition" : "partitions",
                cube.partitioning(load.table()),
                Units.bytes(bytes)));
        if (load.file() != null) {
            out.println(String.format(
                    Locale.ROOT,
                    "  from %s (%s): read %.2f s + placed %.2f s = %s rows/s",
                    load.file(),
                    Units.bytes(load.bytesRead()),
                    load.readSeconds(),
                    load.placeSeconds(),
                    Units.count(load.rowsPerSecond())));
        } else {
            out.println(String.format(
                    Locale.ROOT,
                    "  generated and placed in %.2f s = %s rows/s",
                    load.readSeconds(),
                    Units.count(load.rowsPerSecond())));
        }
        out.println("  schema" + (load.inferredSchema() != null ? " (" + load.schemaSource() + ")" : "") + ": "
                + (load.inferredSchema() != null ? load.inferredSchema() : cube.schema(load.table())).declaration());
        load.typeNotes().forEach(n -> out.println("  note: " + n.text()));
        var stored = cube.schema(load.table());
        List<String> plain = load.inferredIntegerColumns().stream()
                .filter(c -> stored.column(stored.indexOf(c)).type() == io.numacube.engine.schema.ColumnType.LONG)
                .toList();
        if (!plain.isEmpty()) {
            out.println("  note: integer columns " + plain + " have more than 65,536 distinct values and are stored"
                    + " plain; the first query that groups by one, or counts its distinct values, codes it");
        }
        TableSkew skew = cube.skew(load.table());
        out.println(String.format(
                Locale.ROOT,
                "  skew: largest partition %.2fx the mean, busiest node %.2fx the mean",
                skew.partitionSkew(),
                skew.nodeSkew()));
        PlacementPrinter.print(parts, out);
    }
}
