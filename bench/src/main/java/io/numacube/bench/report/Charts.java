package io.numacube.bench.report;

import io.numacube.bench.report.BenchReport.PolicySeries;
import io.numacube.bench.report.BenchReport.ScalePoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Draws the peer comparison, the policy comparison and the scaling runs as PNG files (XChart, headless). Stateless; thread-safe as far as
 * XChart's headless rendering is.
 */
public final class Charts {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 560;

    private Charts() {}

    /** Writes every chart the report has data for into {@code dir}; returns the files written. */
    public static List<Path> write(BenchReport report, Path dir) {
        System.setProperty("java.awt.headless", "true");
        List<Path> written = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            String machine =
                    report.machine().cpuModel() + ", " + report.machine().logicalCpus() + " CPUs, "
                            + report.machine().numaNodes() + " node(s)";
            if (report.peers() != null && !report.peers().queries().isEmpty()) {
                written.add(save(peers(report.peers(), machine), dir.resolve("peers.png")));
            }
            if (report.policies() != null && !report.policies().series().isEmpty()) {
                written.add(save(policies(report.policies(), machine), dir.resolve("policies.png")));
            }
            if (report.scaling() != null) {
                if (!report.scaling().amdahl().isEmpty()) {
                    written.add(save(amdahl(report.scaling(), machine), dir.resolve("scaling-amdahl.png")));
                }
                if (!report.scaling().gustafson().isEmpty()) {
                    written.add(save(gustafson(report.scaling(), machine), dir.resolve("scaling-gustafson.png")));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the bench charts: dir=" + dir + " — " + e.getMessage(), e);
        }
        return written;
    }

    /**
     * Million rows/s per query (log scale, floored at 1): one bar per engine — numacube, the bare loop (when run),
     * DuckDB, and each peer beside DuckDB that ran (a query it failed floored at 1).
     */
    static CategoryChart peers(BenchReport.Peers p, String machine) {
        CategoryChart chart = new CategoryChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(String.format(java.util.Locale.ROOT, "Q1-Q6 on %,d rows: throughput (%s)", p.rows(), machine))
                .xAxisTitle("query")
                .yAxisTitle("million rows / s (log scale)")
                .build();
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisMin(1.0);
        // below the plot: with one bar per engine, a legend inside would cover the last query's bars
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(org.knowm.xchart.style.Styler.LegendLayout.Horizontal);
        List<String> ids =
                p.queries().stream().map(BenchReport.QueryFigures::id).toList();
        chart.addSeries(
                "numacube",
                ids,
                p.queries().stream().map(q -> mrows(q.numacube())).toList());
        if (p.queries().stream().allMatch(q -> q.bareLoop() != null)) {
            chart.addSeries(
                    "bare loop",
                    ids,
                    p.queries().stream().map(q -> mrows(q.bareLoop())).toList());
        }
        chart.addSeries(
                "DuckDB", ids, p.queries().stream().map(q -> mrows(q.duckdb())).toList());
        for (BenchReport.OtherPeer o : p.otherPeers()) {
            if (o.skipped() == null) {
                chart.addSeries(
                        o.version(),
                        ids,
                        p.queries().stream()
                                .map(q -> q.otherPeer(o.engine()) == null
                                        ? 1.0
                                        : mrows(q.otherPeer(o.engine()).timing()))
                                .toList());
            }
        }
        return chart;
    }

    private static Double mrows(BenchReport.Timing t) {
        return Double.isFinite(t.rowsPerSecond()) ? Math.max(1.0, t.rowsPerSecond() / 1e6) : 1.0;
    }

    static XYChart policies(BenchReport.Policies p, String machine) {
        XYChart chart = new XYChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title("Placement policies: throughput vs concurrent streams (" + machine + ")")
                .xAxisTitle("concurrent query streams")
                .yAxisTitle("queries / s")
                .build();
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideSW);
        chart.getStyler().setYAxisMin(0.0);
        if (p.nodes() == 1) {
            chart.setTitle(chart.getTitle() + " — one node: policies differ only by noise");
        }
        for (PolicySeries s : p.series()) {
            double[] x = s.points().stream()
                    .mapToDouble(BenchReport.PolicyPoint::streams)
                    .toArray();
            double[] y = s.points().stream()
                    .mapToDouble(BenchReport.PolicyPoint::queriesPerSecond)
                    .toArray();
            chart.addSeries(s.policy(), x, y).setMarker(SeriesMarkers.CIRCLE);
        }
        return chart;
    }

    static XYChart amdahl(BenchReport.Scaling s, String machine) {
        XYChart chart = new XYChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title("Amdahl: fixed data, speedup vs " + s.dimension() + " (" + machine + ")")
                .xAxisTitle("threads")
                .yAxisTitle("speedup")
                .build();
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideSE);
        double[] x = s.amdahl().stream().mapToDouble(ScalePoint::threads).toArray();
        chart.addSeries(
                        "measured",
                        x,
                        s.amdahl().stream().mapToDouble(ScalePoint::speedup).toArray())
                .setMarker(SeriesMarkers.CIRCLE);
        chart.addSeries("ideal", x, x.clone()).setMarker(SeriesMarkers.NONE);
        return chart;
    }

    static XYChart gustafson(BenchReport.Scaling s, String machine) {
        XYChart chart = new XYChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title("Gustafson: data grows with " + s.dimension() + ", time should stay flat (" + machine + ")")
                .xAxisTitle("threads (rows grow in proportion)")
                .yAxisTitle("median seconds of the mix")
                .build();
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideSE);
        chart.getStyler().setYAxisMin(0.0);
        double[] x = s.gustafson().stream().mapToDouble(ScalePoint::threads).toArray();
        double[] y =
                s.gustafson().stream().mapToDouble(p -> p.seconds().median()).toArray();
        chart.addSeries("measured", x, y).setMarker(SeriesMarkers.CIRCLE);
        double[] flat = new double[x.length];
        java.util.Arrays.fill(flat, y.length > 0 ? y[0] : 0);
        chart.addSeries("flat (ideal)", x, flat).setMarker(SeriesMarkers.NONE);
        return chart;
    }

    private static Path save(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, Path file) throws IOException {
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return file;
    }
}
