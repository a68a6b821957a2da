package io.numacube.engine.ingest;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.storage.Dictionary;
import io.numacube.engine.storage.DictionaryBuilder;
import io.numacube.numa.base.NumacubeException;
import java.util.Arrays;

/**
 * An on-heap, typed row builder for loaders (CSV and others): set every column of a row, then {@link #endRow()}.
 * Dimensions are dictionary-encoded as they arrive; measures are kept in primitive arrays. The staged rows are handed
 * to {@code Cube.loadTable}, which places them off-heap; the staging stays usable (and unchanged) afterwards.
 *
 * <p>Setters per column type: STRING {@link #setString}; INT {@link #setLong}; DATE {@link #setDate} (days since
 * 1970-01-01); DOUBLE {@link #setDouble} (finite) or {@link #setLong}; LONG {@link #setLong}. A wrong setter, a
 * non-finite double, a null string, a column set twice in a row, or {@link #endRow()} with a column unset throws
 * {@link NumacubeException} of kind INVALID_INPUT and leaves the rows ended so far intact (the current row is
 * discarded). {@link #setNull} sets SQL NULL in a column of any type: a dimension gets its dictionary's NULL code, a
 * measure a 0 and a bit in its null set ({@link #nulls(int)}, allocated on the column's first NULL).
 *
 * <p>Not thread-safe: one loader thread owns it.
 */
public final class TableStaging {

    private final TableSchema schema;
    /** Per column, the table's dictionary its values are coded against ({@link #TableStaging(TableSchema, Dictionary[])}), or null. */
    private final Dictionary[] known;

    private final DictionaryBuilder[] dictionaries;
    private final int[][] codes;
    private final double[][] doubles;
    private final long[][] longs;
    /** Per measure column, a bit per staged row set for NULL; null until its first NULL. */
    private final long[][] nullBits;

    /** The columns' types, by index: read for every value set, so not looked up in the schema's list each time. */
    private final ColumnType[] types;

    private final boolean[] set;
    private boolean longsPlain;
    /**
     * Whether a free-text column holds values appended without lookup, not yet {@link #settle}d. Volatile, and settling
     * synchronized: threads that read a finished staging (its first reader settles it) see the settled codes.
     */
    private volatile boolean unsettled;

    private int setCount;
    private int rows;
    private int capacity = 1024;

    public TableStaging(TableSchema schema) {
        this(schema, null);
    }

    /**
     * A staging of rows to append to a table whose dictionaries are {@code known} (by column; null entries, or a null
     * array, for none): a STRING column's values that its dictionary holds get its codes, found by their bytes ({@link
     * #knownCode}), and only new values are added to the staging's own dictionary ({@link DictionaryBuilder#over}),
     * so that appending the rows ({@code StagedAppender}) maps those codes to themselves. Nothing of {@code known} is
     * changed: a staging that is dropped leaves no trace in the table. The rows, values and errors are those of a
     * staging without them; only the codes differ.
     */
    public TableStaging(TableSchema schema, Dictionary[] known) {
        java.util.Objects.requireNonNull(schema, "schema must not be null");
        this.schema = schema;
        this.known = known == null || known.length != schema.size() ? new Dictionary[schema.size()] : known.clone();
        int n = schema.size();
        dictionaries = new DictionaryBuilder[n];
        codes = new int[n][];
        doubles = new double[n][];
        longs = new long[n][];
        nullBits = new long[n][];
        set = new boolean[n];
        types = new ColumnType[n];
        for (int c = 0; c < n; c++) {
            ColumnType t = schema.column(c).type();
            types[c] = t;
            if (t.isDimension()) {
                Dictionary d = this.known[c];
                dictionaries[c] = t == ColumnType.STRING && d != null && d.type() == t
                        ? DictionaryBuilder.over(d)
                        : new DictionaryBuilder(t);
                codes[c] = new int[capacity];
            } else if (t == ColumnType.DOUBLE) {
                doubles[c] = new double[capacity];
            } else {
                longs[c] = new long[capacity];
            }
        }
    }

    public TableSchema schema() {
        return schema;
    }

    /** A new, empty staging of the same columns coded against the same dictionaries (a chunk to be appended here). */
    public TableStaging sibling() {
        return new TableStaging(schema, known);
    }

    /**
     * The code of STRING column {@code column}'s value whose UTF-8 bytes are {@code bytes[from, to)} (of {@link
     * io.numacube.engine.storage.TextCodeIndex#hash} {@code hash}) in the table's dictionary this staging was made
     * with, to give {@link #setCode}; -1 when that dictionary lacks it or the column has none (then set it as a
     * String).
     */
    public int knownCode(int column, byte[] bytes, int from, int to, int hash) {
        DictionaryBuilder d = dictionaries[column];
        return d == null ? -1 : d.knownCode(bytes, from, to, hash);
    }

    /** Whether {@link #knownCode} may find codes for STRING column {@code column}. */
    public boolean knowsValues(int column) {
        return dictionaries[column] != null && dictionaries[column].knowsValues();
    }

    /** Rows ended so far. */
    /**
     * Has the load keep every BIGINT column plain, where it would code one of few distinct values through a dictionary
     * ({@code EncodedColumns}): for a table that lives for one statement (a subquery's rows, mostly keys joined once),
     * where building that dictionary costs more than it saves. Answers are the same either way.
     */
    public void keepLongsPlain() {
        longsPlain = true;
    }

    /** Whether {@link #keepLongsPlain} was asked. */
    public boolean longsPlain() {
        return longsPlain;
    }

    public int rows() {
        return rows;
    }

    public void setString(int column, String value) {
        check(column, "setString", ColumnType.STRING);
        if (value == null) {
            fail(column, "nulls are not supported");
        }
        codes[column][rows] = dictionaries[column].codeOf(value);
        mark(column);
    }

    /** As {@link #setString}, returning the value's code in the column's dictionary (for {@link #setCode}). */
    public int setStringCoded(int column, String value) {
        setString(column, value);
        return codes[column][rows];
    }

    /**
     * Sets a STRING value by the code the column's dictionary holds it under (as {@link #setStringCoded} returned): a
     * loader that has seen the value before in this staging sets it again without looking it up.
     *
     * @throws NumacubeException INVALID_INPUT for a code the dictionary does not hold
     */
    public void setCode(int column, int code) {
        check(column, "setCode", ColumnType.STRING);
        if (code < 0 || code >= dictionaries[column].size()) {
            fail(
                    column,
                    "a code must be one of the column's dictionary: code=" + code + " size="
                            + dictionaries[column].size());
        }
        codes[column][rows] = code;
        mark(column);
    }

    /**
     * Sets a STRING value of free text (nearly always new) without looking it up in the column's dictionary, which may
     * then hold it twice: only for a staging that is appended to another ({@link #append(TableStaging)} codes equal
     * values once there), never loaded itself.
     */
    public void setFreeText(int column, String value) {
        check(column, "setFreeText", ColumnType.STRING);
        if (value == null) {
            fail(column, "nulls are not supported");
        }
        codes[column][rows] = dictionaries[column].addWithoutLookup(value);
        mark(column);
    }

    /** For INT dimensions, LONG or DOUBLE measures and TIMESTAMP columns (microseconds since 1970-01-01). */
    public void setLong(int column, long value) {
        ColumnType t = typeOf(column);
        if (t == ColumnType.INT) {
            check(column, "setLong", ColumnType.INT);
            codes[column][rows] = dictionaries[column].codeOf(value);
        } else if (t == ColumnType.LONG || t == ColumnType.TIMESTAMP) {
            check(column, "setLong", t);
            longs[column][rows] = value;
        } else {
            check(column, "setLong", ColumnType.DOUBLE);
            doubles[column][rows] = value;
        }
        mark(column);
    }

    public void setDouble(int column, double value) {
        check(column, "setDouble", ColumnType.DOUBLE);
        if (!Double.isFinite(value)) {
            fail(column, "a double must be finite: value=" + value);
        }
        doubles[column][rows] = value;
        mark(column);
    }

    /** Sets SQL NULL in a column of any type. */
    public void setNull(int column) {
        ColumnType t = typeOf(column);
        check(column, "setNull", t);
        if (t.isDimension()) {
            codes[column][rows] = dictionaries[column].nullCode();
        } else {
            if (nullBits[column] == null) {
                nullBits[column] = new long[(capacity + 63) >>> 6];
            }
            nullBits[column][rows >>> 6] |= 1L << rows;
            if (t == ColumnType.DOUBLE) {
                doubles[column][rows] = 0;
            } else {
                longs[column][rows] = 0;
            }
        }
        mark(column);
    }

    /** Whether the value of {@code column} in ended row {@code row} is NULL. */
    public boolean isNull(int column, int row) {
        if (unsettled) {
            settle(null);
        }
        if (dictionaries[column] != null) {
            return dictionaries[column].hasNull() && codes[column][row] == dictionaries[column].nullCode();
        }
        long[] bits = nullBits[column];
        return bits != null && (bits[row >>> 6] & (1L << row)) != 0;
    }

    /**
     * The NULL set of a measure column: bit {@code r & 63} of word {@code r >>> 6} is set when row {@code r} is NULL;
     * null when the column has no NULL (and for dimensions, whose NULL is a dictionary code). Valid below
     * {@link #rows()}.
     */
    public long[] nulls(int column) {
        return nullBits[column];
    }

    /** Sets a BOOLEAN value (a dimension: false orders before true). */
    public void setBoolean(int column, boolean value) {
        check(column, "setBoolean", ColumnType.BOOLEAN);
        codes[column][rows] = dictionaries[column].codeOf(value ? 1 : 0);
        mark(column);
    }

    /** @param epochDay days since 1970-01-01 */
    public void setDate(int column, int epochDay) {
        check(column, "setDate", ColumnType.DATE);
        codes[column][rows] = dictionaries[column].codeOf(epochDay);
        mark(column);
    }

    /** Ends the current row; every column must have been set exactly once. */
    public void endRow() {
        if (setCount != set.length) {
            for (int c = 0; c < set.length; c++) {
                if (!set[c]) {
                    discardRow();
                    throw new NumacubeException(
                            NumacubeException.Kind.INVALID_INPUT,
                            "every column of a row must be set: table=" + schema.name() + " row=" + (rows + 1)
                                    + " column=" + schema.column(c).name() + " — set it before endRow()");
                }
            }
        }
        Arrays.fill(set, false);
        setCount = 0;
        rows++;
        if (rows == capacity) {
            grow();
        }
    }

    /**
     * Appends the rows of {@code block} after the rows ended so far, in its row order: its dimension codes are mapped
     * to this staging's dictionaries (its values added in its first-seen order, so the dictionaries end as row-by-row
     * staging of the same rows would leave them), its measures and NULLs copied. The block is only read.
     *
     * @throws NumacubeException INVALID_INPUT when a row is half set, the block's columns differ from the staging's,
     *                           a DOUBLE is not finite (nothing appended then), or the rows would exceed the limit
     */
    public void append(StagingBlock block) {
        if (setCount != 0) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a block may be appended between rows only: table=" + schema.name() + " row=" + (rows + 1)
                            + " — end or discard the current row first");
        }
        if (!block.schema().columns().equals(schema.columns())) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a block's columns must be the staging's: table=" + schema.name() + " columns="
                            + schema.declaration() + " block=" + block.schema().declaration());
        }
        checkFinite(block);
        reserve((long) rows + block.rows());
        for (int c = 0; c < set.length; c++) {
            appendColumn(
                    block.rows(),
                    block.dictionary(c),
                    block.codes(c),
                    block.doubles(c),
                    block.longs(c),
                    block.nulls(c),
                    c);
        }
        rows += block.rows();
    }

    /**
     * Appends the ended rows of {@code other} (a staging of the same columns, filled elsewhere: a chunk of a file read
     * in parallel) after the rows ended so far, as {@link #append(StagingBlock)} appends a block: values and NULLs
     * copied, dimension codes mapped to this staging's dictionaries, its values added in its first-seen order. The
     * other staging is only read.
     *
     * @throws NumacubeException INVALID_INPUT when a row is half set, the columns differ, or the rows would exceed
     *                           the limit (nothing appended then)
     */
    public void append(TableStaging other) {
        if (setCount != 0) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a staging may be appended between rows only: table=" + schema.name() + " row=" + (rows + 1)
                            + " — end or discard the current row first");
        }
        if (!other.schema.columns().equals(schema.columns())) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a staging appended must have the same columns: table=" + schema.name() + " columns="
                            + schema.declaration() + " other=" + other.schema.declaration());
        }
        // grow by doubling, as rows ended one by one do: chunks appended one after another are not copied over and over
        long needed = (long) rows + other.rows;
        reserve(needed < capacity ? needed : Math.max(needed, Math.min((long) capacity * 2, Integer.MAX_VALUE - 9L)));
        for (int c = 0; c < set.length; c++) {
            appendColumn(
                    other.rows,
                    other.dictionaries[c],
                    other.codes[c],
                    other.doubles[c],
                    other.longs[c],
                    other.nullBits[c],
                    c);
        }
        rows += other.rows;
    }

    /**
     * Makes room for {@code totalRows} rows, so that staging up to that many grows no array (a loader that knows its
     * row count, e.g. from a file's footer, avoids the copies and the slack of doubling).
     *
     * @throws NumacubeException INVALID_INPUT when {@code totalRows} exceeds the most a staging holds
     */
    public void reserve(long totalRows) {
        long limit = Integer.MAX_VALUE - 8;
        if (totalRows >= limit) {
            throw tooManyRows();
        }
        if (totalRows >= capacity) {
            resize((int) Math.min(totalRows + 1, limit));
        }
    }

    private void checkFinite(StagingBlock block) {
        for (int c = 0; c < set.length; c++) {
            double[] v = block.doubles(c);
            if (v == null) {
                continue;
            }
            for (int r = 0; r < block.rows(); r++) {
                if (!Double.isFinite(v[r])) {
                    throw new NumacubeException(
                            NumacubeException.Kind.INVALID_INPUT,
                            "a double must be finite: value=" + v[r] + ": table=" + schema.name() + " row="
                                    + (rows + r + 1) + " column="
                                    + schema.column(c).name());
                }
            }
        }
    }

    /** Appends {@code n} rows of column {@code c}, from the arrays of a block or another staging. */
    private void appendColumn(
            int n,
            DictionaryBuilder dictionary,
            int[] fromCodes,
            double[] fromDoubles,
            long[] fromLongs,
            long[] bits,
            int c) {
        if (dictionaries[c] != null) {
            int[] map = appendsWithoutLookup(dictionaries[c], dictionary)
                    ? dictionaries[c].appendWithoutLookup(dictionary)
                    : dictionaries[c].addAll(dictionary);
            int[] to = codes[c];
            for (int r = 0; r < n; r++) {
                to[rows + r] = map[fromCodes[r]];
            }
            return;
        }
        if (doubles[c] != null) {
            System.arraycopy(fromDoubles, 0, doubles[c], rows, n);
        } else {
            System.arraycopy(fromLongs, 0, longs[c], rows, n);
        }
        if (bits == null) {
            return;
        }
        if (nullBits[c] == null) {
            nullBits[c] = new long[(capacity + 63) >>> 6];
        }
        for (int w = 0; w < bits.length; w++) {
            for (long word = bits[w]; word != 0; word &= word - 1) {
                int row = rows + (w << 6) + Long.numberOfTrailingZeros(word);
                nullBits[c][row >>> 6] |= 1L << row;
            }
        }
    }

    /**
     * Whether the values of {@code from} are appended to {@code to} without lookup: free text (a block or chunk that
     * coded its values without lookup) into a dictionary of this staging's own codes. {@link #settle} removes the
     * repeats later, on many threads, instead of one hash lookup per row on the appending thread.
     */
    private boolean appendsWithoutLookup(DictionaryBuilder to, DictionaryBuilder from) {
        boolean free = from.hasRepeats() && to.type() == ColumnType.STRING && !to.knowsValues();
        if (free) {
            unsettled = true;
        }
        return free;
    }

    /**
     * Codes each value of the free-text columns once, values appended without lookup included: each keeps the code of
     * its first appearance, as coding the values one by one would have given, and the rows' codes are mapped to those.
     * A staging settles itself, on the calling thread, when its dictionaries or codes are read; a loader settles it on
     * its pool's workers once its rows are staged. Nothing changes when nothing was appended without lookup.
     *
     * @param pool the workers to spread the work over, or null for the calling thread, which must not be one of them
     */
    public synchronized void settle(io.numacube.engine.workers.WorkerPool pool) {
        if (!unsettled) {
            return;
        }
        for (int c = 0; c < set.length; c++) {
            if (dictionaries[c] != null && dictionaries[c].hasRepeats()) {
                FreeTextCollapse.collapse(dictionaries[c], codes[c], rows + (set[c] ? 1 : 0), pool);
            }
        }
        unsettled = false;
    }

    /**
     * A staging of the ended rows that {@code keep} accepts (by row index, in order), its dictionaries holding only
     * the values those rows have (first seen first; equal free texts coded once). This staging is only read.
     *
     * @throws NumacubeException INVALID_INPUT when a row is half set
     */
    public TableStaging retained(java.util.function.IntPredicate keep) {
        settle(null);
        if (setCount != 0) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "rows may be kept between rows only: table=" + schema.name() + " row=" + (rows + 1)
                            + " — end or discard the current row first");
        }
        int[] kept = java.util.stream.IntStream.range(0, rows).filter(keep).toArray();
        TableStaging out = new TableStaging(schema);
        out.reserve(kept.length);
        for (int c = 0; c < set.length; c++) {
            if (dictionaries[c] != null) {
                retainCodes(c, kept, out);
            } else {
                retainValues(c, kept, out);
            }
        }
        out.rows = kept.length;
        return out;
    }

    private void retainCodes(int c, int[] kept, TableStaging out) {
        DictionaryBuilder from = dictionaries[c];
        DictionaryBuilder to = out.dictionaries[c];
        int[] map = new int[from.size()];
        Arrays.fill(map, -1);
        boolean text = schema.column(c).type() == ColumnType.STRING;
        for (int i = 0; i < kept.length; i++) {
            int code = codes[c][kept[i]];
            if (map[code] < 0) {
                map[code] = code == from.nullCodeIfAny()
                        ? to.nullCode()
                        : text ? to.codeOf(from.stringAt(code)) : to.codeOf(from.longAt(code));
            }
            out.codes[c][i] = map[code];
        }
    }

    private void retainValues(int c, int[] kept, TableStaging out) {
        for (int i = 0; i < kept.length; i++) {
            int r = kept[i];
            if (doubles[c] != null) {
                out.doubles[c][i] = doubles[c][r];
            } else {
                out.longs[c][i] = longs[c][r];
            }
            if (nullBits[c] != null && (nullBits[c][r >>> 6] & (1L << r)) != 0) {
                if (out.nullBits[c] == null) {
                    out.nullBits[c] = new long[(out.capacity + 63) >>> 6];
                }
                out.nullBits[c][i >>> 6] |= 1L << i;
            }
        }
    }

    /** Forgets the values set for the current (unfinished) row. */
    public void discardRow() {
        for (int c = 0; c < nullBits.length; c++) {
            if (set[c] && nullBits[c] != null) {
                nullBits[c][rows >>> 6] &= ~(1L << rows);
            }
        }
        Arrays.fill(set, false);
        setCount = 0;
    }

    /** The dictionary builder of a dimension column (codes in first-seen order); null for a measure. */
    public DictionaryBuilder dictionary(int column) {
        if (unsettled) {
            settle(null);
        }
        return dictionaries[column];
    }

    /** The codes of a dimension column, valid for indexes below {@link #rows()}; null for a measure. */
    public int[] codes(int column) {
        if (unsettled) {
            settle(null);
        }
        return codes[column];
    }

    /** The values of a DOUBLE column, valid below {@link #rows()}; null otherwise. */
    public double[] doubles(int column) {
        return doubles[column];
    }

    /** The values of a LONG column, valid below {@link #rows()}; null otherwise. */
    public long[] longs(int column) {
        return longs[column];
    }

    private ColumnType typeOf(int column) {
        if (column < 0 || column >= set.length) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "column index out of range: table=" + schema.name() + " column=" + column + " columns="
                            + set.length);
        }
        return types[column];
    }

    private void check(int column, String setter, ColumnType expected) {
        ColumnType t = typeOf(column);
        if (t != expected) {
            discardRow();
            ColumnSpec spec = schema.column(column);
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    setter + " does not fit the column type: table="
                            + schema.name() + " column=" + spec.name() + " type="
                            + t.name().toLowerCase(java.util.Locale.ROOT)
                            + " — use the setter of the column's type");
        }
        if (set[column]) {
            discardRow();
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a column may be set once per row: table=" + schema.name() + " row=" + (rows + 1) + " column="
                            + schema.column(column).name());
        }
    }

    private void fail(int column, String rule) {
        discardRow();
        throw new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                rule + ": table=" + schema.name() + " row=" + (rows + 1) + " column="
                        + schema.column(column).name());
    }

    private void mark(int column) {
        set[column] = true;
        setCount++;
    }

    private void grow() {
        if (capacity == Integer.MAX_VALUE - 8) {
            throw tooManyRows();
        }
        resize((int) Math.min((long) capacity * 2, Integer.MAX_VALUE - 8));
    }

    private NumacubeException tooManyRows() {
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                "a staged table holds at most " + (Integer.MAX_VALUE - 8) + " rows: table=" + schema.name()
                        + " — load the file into several tables");
    }

    private void resize(int newCapacity) {
        capacity = newCapacity;
        for (int c = 0; c < set.length; c++) {
            if (codes[c] != null) {
                codes[c] = Arrays.copyOf(codes[c], capacity);
            }
            if (doubles[c] != null) {
                doubles[c] = Arrays.copyOf(doubles[c], capacity);
            }
            if (longs[c] != null) {
                longs[c] = Arrays.copyOf(longs[c], capacity);
            }
            if (nullBits[c] != null) {
                nullBits[c] = Arrays.copyOf(nullBits[c], (capacity + 63) >>> 6);
            }
        }
    }
}
