package io.numacube.cli.cube;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * An aligned plain-text table: a header, a rule of dashes, then rows; right-aligned columns for numbers. Build with
 * {@link #row}, then {@link #print}. Not thread-safe.
 */
public final class TextTable {

    private final List<String> header;
    private final boolean[] rightAligned;
    private final List<List<String>> rows = new ArrayList<>();

    public TextTable(List<String> header, boolean[] rightAligned) {
        this.header = List.copyOf(header);
        this.rightAligned = rightAligned.clone();
    }

    /** Adds a row; null cells print as {@code NULL}. */
    public TextTable row(List<String> cells) {
        List<String> copy = new ArrayList<>(cells.size());
        for (String c : cells) {
            copy.add(c == null ? "NULL" : c);
        }
        rows.add(copy);
        return this;
    }

    public void print(PrintWriter out) {
        int n = header.size();
        int[] width = new int[n];
        for (int c = 0; c < n; c++) {
            width[c] = header.get(c).length();
            for (List<String> r : rows) {
                width[c] = Math.max(width[c], r.get(c).length());
            }
        }
        line(out, header, width);
        List<String> rule = new ArrayList<>(n);
        for (int c = 0; c < n; c++) {
            rule.add("-".repeat(width[c]));
        }
        line(out, rule, width);
        for (List<String> r : rows) {
            line(out, r, width);
        }
        out.flush();
    }

    private void line(PrintWriter out, List<String> cells, int[] width) {
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < cells.size(); c++) {
            if (c > 0) {
                sb.append("  ");
            }
            String v = cells.get(c);
            String pad = " ".repeat(width[c] - v.length());
            boolean last = c == cells.size() - 1;
            if (rightAligned[c]) {
                sb.append(pad).append(v);
            } else {
                sb.append(v);
                if (!last) {
                    sb.append(pad);
                }
            }
        }
        out.println(sb);
    }
}
