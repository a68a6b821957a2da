package io.numacube.engine.exec;

import io.numacube.engine.storage.Dictionary;
import java.util.Arrays;
import java.util.List;

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

    /**
     * Fills {@code sameAs} (-1, or the earlier key that determines key i) and {@code via} (key i's code per code of
     * that key) for the first {@code logicalKeys} keys.
     *
     * @param columns the fact column each key reads
     * @param maps    per key, its code per code of that column, or null (the column's codes themselves)
     * @param sources per key, null, or the several columns it combines (never a dependent or a determinant here)
     * @param live    per key, null, or the codes of its column that the WHERE clause's mask passes: rows of the
     *                other codes never reach the grouping, so their key codes need not agree
     */
    static void find(
            int[] columns,
            List<int[]> maps,
            List<int[]> sources,
            boolean[][] live,
            int logicalKeys,
            List<Dictionary> dicts,
            int[] sameAs,
            int[][] via) {
        Arrays.fill(sameAs, -1);
        for (int i = 1; i < logicalKeys; i++) {
            if (sources.get(i) != null) {
                continue;
            }
            for (int k = 0; k < i && sameAs[i] < 0; k++) {
                if (sameAs[k] < 0 && sources.get(k) == null && columns[k] == columns[i]) {
                    via[i] = function(
                            maps.get(k),
                            maps.get(i),
                            live[i],
                            Math.max(1, dicts.get(k).size()));
                    sameAs[i] = via[i] == null ? -1 : k;
                }
            }
        }
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
