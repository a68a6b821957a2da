package io.numacube.engine.exec;

import java.util.Arrays;

/**
 * Finds GROUP BY keys that are functions of an earlier key: both read the same fact column's codes (a joined table's
 * attributes read the fact's join key), and over every code of that column, equal codes of the earlier key give equal
 * codes of the later one ({@code GROUP BY c_custkey, c_name, c_address, n_name} in TPC-H Q10, all reached through
 * {@code l_orderkey}). Such a key adds no combinations to the key space, which would otherwise multiply past 64 bits,
 * and its groups are those of the earlier key. Checked on the data, not assumed from the schema: one pass over the
 * column's codes per pair of keys of one column, over the codes the WHERE clause lets through. Stateless.
 */
final class KeyDependencies {

    private KeyDependencies() {}

    /** The system property that, {@code false}, checks a compacted key's dependents over every code (an A/B). */
    static final String KEPT_PROPERTY = "numacube.keptDependencies";

    /** Whether a compacted key's dependents are read over its kept codes; on unless {@value #KEPT_PROPERTY} is false. */
    static boolean keptCodesEnabled() {
        return !"false".equals(System.getProperty(KEPT_PROPERTY));
    }

    /**
     * Fills {@code sameAs} (-1, or the earlier key that determines key i) and {@code via} (key i's code per code of
     * that key) for the first {@code logicalKeys} keys of {@code keys}: per key, the fact column it reads, its code per
     * code of that column (or null: the column's codes themselves), and null or the several columns it combines (never
     * a dependent or a determinant here).
     *
     * @param live per key, null, or the codes of its column that the WHERE clause's mask passes: rows of the other
     *             codes never reach the grouping, so their key codes need not agree
     */
    static void find(int[] columns, KeyParts keys, boolean[][] live, int logicalKeys, int[] sameAs, int[][] via) {
        Arrays.fill(sameAs, -1);
        for (int i = 1; i < logicalKeys; i++) {
            if (keys.sources.get(i) != null) {
                continue;
            }
            for (int k = 0; k < i && sameAs[i] < 0; k++) {
                if (sameAs[k] < 0 && keys.sources.get(k) == null && columns[k] == columns[i]) {
                    int[] kept = keys.keptCodes.get(k);
                    via[i] = kept != null && keys.keptUnder.get(k) == live[i]
                            ? ofKeptCodes(kept, keys.dictionaries.get(k).size(), keys.maps.get(i))
                            : function(
                                    keys.maps.get(k),
                                    keys.maps.get(i),
                                    live[i],
                                    Math.max(1, keys.dictionaries.get(k).size()));
                    sameAs[i] = via[i] == null ? -1 : k;
                }
            }
        }
    }

    /**
     * Key i's code per code of a key compacted to the live codes of the column: each of its {@code codesOfK} codes
     * stands for one live code ({@code kept[c]}), so key i is a function of it, read there alone (TPC-H Q3's 147,000
     * orders of 1,500,000 codes); null where a value of key i failed.
     */
    private static int[] ofKeptCodes(int[] kept, int codesOfK, int[] mapI) {
        int[] g = new int[Math.max(1, codesOfK)];
        for (int c = 0; c < codesOfK; c++) {
            int ci = mapI == null ? kept[c] : mapI[kept[c]];
            if (ci < 0) {
                return null;
            }
            g[c] = ci;
        }
        return g;
    }

    /** Key i's code per code of key k, or null when some code of k goes with two codes of i (or a failed value). */
    private static int[] function(int[] mapK, int[] mapI, boolean[] live, int codesOfK) {
        if (mapK == null && mapI == null) {
            return null;
        }
        int n = mapK != null ? mapK.length : mapI.length;
        int[] g = new int[codesOfK];
        Arrays.fill(g, -1);
        for (int fc = 0; fc < n; fc++) {
            if (live != null && fc < live.length && !live[fc]) {
                continue;
            }
            int ck = mapK == null ? fc : mapK[fc];
            int ci = mapI == null ? fc : mapI[fc];
            if (ck < 0 || ci < 0 || ck >= codesOfK) {
                return null;
            }
            if (g[ck] < 0) {
                g[ck] = ci;
            } else if (g[ck] != ci) {
                return null;
            }
        }
        for (int c = 0; c < codesOfK; c++) {
            g[c] = Math.max(g[c], 0);
        }
        return g;
    }
}
