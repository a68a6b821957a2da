package io.numacube.cli.cube;

import io.numacube.cli.output.Json;
import io.numacube.cli.output.Units;
import io.numacube.engine.PartitionInfo;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints where partitions live: per partition its table, id, what it holds, home node, the node its memory was asked
 * on, rows, bytes, how the memory was placed, and the share of its pages verified on that node. Stateless.
 */
public final class PlacementPrinter {

    private PlacementPrinter() {}

    public static void print(List<PartitionInfo> partitions, PrintWriter out) {
        TextTable t = new TextTable(
                List.of("table", "part", "holds", "node", "memory", "rows", "bytes", "placed", "pages on node"),
                new boolean[] {false, true, false, true, true, true, true, false, true});
        for (PartitionInfo p : partitions) {
            List<String> cells = new ArrayList<>();
            cells.add(p.table());
            cells.add(String.valueOf(p.partitionId()));
            cells.add(p.label());
            cells.add(String.valueOf(p.homeNode()));
            cells.add(p.memoryNode() < 0 ? "-" : String.valueOf(p.memoryNode()));
            cells.add(String.format(Locale.ROOT, "%,d", p.rows()));
            cells.add(Units.bytes(p.bytes()));
            cells.add(p.placementApplied());
            cells.add(percent(p.pagesOnNodePct()));
            t.row(cells);
        }
        t.print(out);
    }

    static String percent(double pct) {
        return Double.isNaN(pct) ? "n/a" : String.format(Locale.ROOT, "%.1f%%", pct);
    }

    /** The partitions as JSON objects: table, id, node, memory_node, rows, bytes, placement, pages_on_node_pct. */
    public static List<Object> json(List<PartitionInfo> partitions) {
        List<Object> out = Json.arr();
        for (PartitionInfo p : partitions) {
            out.add(Json.obj()
                    .put("table", p.table())
                    .put("id", p.partitionId())
                    .put("label", p.label())
                    .put("node", p.homeNode())
                    .put("memory_node", p.memoryNode())
                    .put("rows", p.rows())
                    .put("bytes", p.bytes())
                    .put("placement", p.placementApplied())
                    .put("pages_on_node_pct", p.pagesOnNodePct()));
        }
        return out;
    }
}
