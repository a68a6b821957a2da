package io.numacube.engine.sql;

/**
 * The names by which a correlated subquery turned into a FROM item ({@code Decorrelation}) tells the FROM list rules
 * ({@link CommaJoins}) how to join it: its alias starts with {@link #PREFIX}, it is joined by its key columns
 * ({@link #key}) only (its value column {@link #VALUE} is compared, not joined on), LEFT when the alias starts with
 * {@link #ANTI_PREFIX} (NOT EXISTS), and it is never the fact table. Constants and name tests only; stateless.
 */
public final class DerivedTables {

    /** The alias prefix of every such table. */
    public static final String PREFIX = "__";

    /** The name prefix of the one-row table that stands for the FROM of a SELECT without one. */
    public static final String ONE_ROW_PREFIX = PREFIX + "one_row_";

    /** The alias prefix of an EXISTS subquery's distinct keys, joined INNER. */
    public static final String EXISTS_PREFIX = PREFIX + "exists";

    /** The alias prefix of a NOT EXISTS subquery's distinct keys, joined LEFT. */
    public static final String ANTI_PREFIX = PREFIX + "anti";

    /** The alias prefix of an aggregate subquery grouped by its key, joined INNER. */
    public static final String SCALAR_PREFIX = PREFIX + "scalar";

    /**
     * The key column: the inner column of the correlation; a correlation by several equalities has a key of several
     * columns, {@link #key}{@code (0)}, {@code key(1)}, ...
     */
    public static final String KEY = PREFIX + "k";

    /** The value column of an aggregate subquery. */
    public static final String VALUE = PREFIX + "v";

    /** The smallest value of an EXISTS subquery's compared expression per key. */
    public static final String LEAST = PREFIX + "min";

    /** The largest value of an EXISTS subquery's compared expression per key. */
    public static final String GREATEST = PREFIX + "max";

    /** The number of rows of a NOT IN subquery's key. */
    public static final String ROWS = PREFIX + "rows";

    /** The number of non-NULL values of a NOT IN subquery's key. */
    public static final String VALUES = PREFIX + "values";

    private DerivedTables() {}

    /** The name of key column {@code i}: {@link #KEY} for the first, then {@code __k2}, {@code __k3}, ... */
    public static String key(int i) {
        return i == 0 ? KEY : KEY + (i + 1);
    }

    /** Whether {@code column} names one of the key columns ({@link #key}). */
    static boolean isKey(String column) {
        String c = column.toLowerCase(java.util.Locale.ROOT);
        return c.equals(KEY)
                || (c.startsWith(KEY)
                        && c.length() > KEY.length()
                        && c.substring(KEY.length()).chars().allMatch(Character::isDigit));
    }

    /**
     * Whether {@code column} is a key column ({@link #key}) of such a table with alias {@code alias} that is joined
     * INNER (not a NOT EXISTS table's): an EXISTS, aggregate or magic-set table's ({@code MagicSets}).
     */
    public static boolean isInnerJoinKey(String alias, String column) {
        return isDerived(alias) && !alias.startsWith(ANTI_PREFIX) && isKey(column);
    }

    /** Whether a FROM item with this alias is such a table. */
    static boolean isDerived(String alias) {
        return alias.startsWith(PREFIX);
    }
}
