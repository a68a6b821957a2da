package io.numacube.engine.sqltest;

import java.util.List;

/**
 * Compares numacube's rows (as {@link ResultText} lines) with a record's written rows: text equality per value, except
 * R columns when a tolerance is given, which compare as doubles within that relative tolerance. Stateless.
 */
final class WrittenAnswer {

    private WrittenAnswer() {}

    /**
     * Null when {@code actual} matches {@code expected} (both already sorted per the record's sort mode), else the
     * first difference.
     */
    static String firstDifference(List<String> expected, List<String> actual, String types, Double tolerance) {
        if (expected.size() != actual.size()) {
            return "expected " + expected.size() + " rows, got " + actual.size();
        }
        for (int r = 0; r < expected.size(); r++) {
            String[] want = expected.get(r).split("\t", -1);
            String[] got = actual.get(r).split("\t", -1);
            if (want.length != got.length) {
                return "row " + (r + 1) + ": expected " + want.length + " values (tab-separated), got " + got.length;
            }
            for (int c = 0; c < want.length; c++) {
                boolean same = tolerance != null && types.charAt(c) == 'R'
                        ? closeEnough(want[c], got[c], tolerance)
                        : want[c].equals(got[c]);
                if (!same) {
                    return "row " + (r + 1) + " column " + (c + 1) + ": expected " + want[c] + ", got " + got[c]
                            + (tolerance != null && types.charAt(c) == 'R'
                                    ? " (relative tolerance " + tolerance + ")"
                                    : "");
                }
            }
        }
        return null;
    }

    private static boolean closeEnough(String want, String got, double tolerance) {
        if (want.equals(got)) {
            return true;
        }
        if (want.equals("NULL") || got.equals("NULL")) {
            return false;
        }
        double w;
        double g;
        try {
            w = Double.parseDouble(want);
            g = Double.parseDouble(got);
        } catch (NumberFormatException e) {
            return false;
        }
        if (w == g) {
            return true;
        }
        return Double.isFinite(w)
                && Double.isFinite(g)
                && Math.abs(w - g) <= tolerance * Math.max(Math.abs(w), Math.abs(g));
    }
}
