package io.numacube.engine.exec;

import io.numacube.engine.storage.CodedColumns;
import io.numacube.engine.storage.Dictionary;
import io.numacube.engine.storage.FactTable;
import java.util.List;

/**
 * The codes of a fact table's key of several columns ({@link FactTable#compositeIndex}, nested {@code ((a, b), c)}),
 * read as the codes of its columns, for joining them to a dimension table's key ({@link LookupIndex}): the slot chain
 * and every dictionary along it are looked up once, so decoding a code is arithmetic. A code of composite {@code s}
 * stands for the value {@code firstCode * radix + secondCode} of its dictionary, {@code radix} being the second slot's
 * dictionary size (at least 1).
 *
 * <p>Invariants: {@code columns[i]} is the dictionary of key column {@code i}, {@code composites[i]} (for {@code i >=
 * 1}) the dictionary of the composite that adds column {@code i} to the columns before it, {@code radixes[i]} column
 * {@code i}'s radix there. Immutable; used by one planning thread.
 */
final class CompositeCodes {

    private final Dictionary[] columns;
    private final Dictionary[] composites;
    private final long[] radixes;

    private CompositeCodes(Dictionary[] columns, Dictionary[] composites, long[] radixes) {
        this.columns = columns;
        this.composites = composites;
        this.radixes = radixes;
    }

    /** The chain of composite slot {@code slot} of {@code fact}, a key of {@code keys} columns. */
    static CompositeCodes of(FactTable fact, int slot, int keys) {
        Dictionary[] columns = new Dictionary[keys];
        Dictionary[] composites = new Dictionary[keys];
        long[] radixes = new long[keys];
        int s = slot;
        for (int i = keys - 1; i > 0; i--) {
            CodedColumns.Composite parts = fact.compositeParts(s);
            composites[i] = fact.dictionary(s);
            columns[i] = fact.dictionary(parts.second());
            radixes[i] = Math.max(1, columns[i].size());
            s = parts.first();
        }
        columns[0] = fact.dictionary(s);
        return new CompositeCodes(columns, composites, radixes);
    }

    /** The values (null for NULL) that code {@code code} of the composite stands for, in key order. */
    Object[] key(int code) {
        Object[] out = new Object[columns.length];
        int c = code;
        for (int i = columns.length - 1; i > 0; i--) {
            long value = composites[i].longValue(c);
            out[i] = QueryCompiler.scalar(columns[i], (int) (value % radixes[i]));
            c = (int) (value / radixes[i]);
        }
        out[0] = QueryCompiler.scalar(columns[0], c);
        return out;
    }

    /**
     * Sets {@code rows[code]} to row {@code r} of the dimension keys {@code keys} (one per key column, their rows
     * unique and NULL in none that joins) for each code whose values equal row {@code r}'s, by looking each row's
     * values up among the codes of each column and then of each composite, in time of the keys' rows, not of the
     * composite's codes; -1 stays where none does. Returns false, filling nothing, where a column's dictionary or its
     * keys are not integers that {@link Dictionary#codesOfAscending} can search.
     */
    boolean fillFromKeys(int[] rows, List<RowValues> keys) {
        for (int i = 0; i < columns.length; i++) {
            if (!searchable(columns[i]) || !keys.get(i).integers() || (i > 0 && !composites[i].searchable())) {
                return false;
            }
        }
        int n = keys.get(0).rows();
        int[] code = codesOf(columns[0], keys.get(0), n);
        for (int i = 1; i < columns.length; i++) {
            int[] second = codesOf(columns[i], keys.get(i), n);
            long[] values = new long[n];
            int[] rowOfValue = new int[n];
            int m = 0;
            for (int r = 0; r < n; r++) {
                if (code[r] >= 0 && second[r] >= 0) {
                    values[m] = code[r] * radixes[i] + second[r];
                    rowOfValue[m++] = r;
                }
            }
            code = codesOfValues(composites[i], values, rowOfValue, m, n);
        }
        for (int r = 0; r < n; r++) {
            if (code[r] >= 0) {
                rows[code[r]] = r;
            }
        }
        return true;
    }

    private static boolean searchable(Dictionary d) {
        return d.searchable() && d.type() != io.numacube.engine.schema.ColumnType.STRING;
    }

    /** Per row of {@code keys}, the code of its value in {@code d}, or -1 (NULL, or no such code). */
    private static int[] codesOf(Dictionary d, RowValues keys, int n) {
        long[] values = new long[n];
        int[] rowOfValue = new int[n];
        int m = 0;
        for (int r = 0; r < n; r++) {
            if (!keys.isNull(r)) {
                values[m] = keys.longAt(r);
                rowOfValue[m++] = r;
            }
        }
        return codesOfValues(d, values, rowOfValue, m, n);
    }

    /** Per row of {@code n}, the code in {@code d} of the value {@code values[i]} of row {@code rowOfValue[i]}, else -1. */
    private static int[] codesOfValues(Dictionary d, long[] values, int[] rowOfValue, int m, int n) {
        LookupIndex.sortPairs(values, rowOfValue, m);
        int[] codes = new int[m];
        d.codesOfAscending(values, m, codes);
        int[] out = new int[n];
        java.util.Arrays.fill(out, -1);
        for (int i = 0; i < m; i++) {
            out[rowOfValue[i]] = codes[i];
        }
        return out;
    }
}
