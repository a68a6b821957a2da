package io.numacube.engine.gen;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.List;

/**
 * The deterministic trades data set of the P&amp;L queries: {@code rows} trades whose row {@code i} depends only on
 * {@code (seed, i, rows)} — the rows are in trade-date order, so the date is {@code floor(i * 250 / rows)} business
 * days after {@value #FIRST_DAY_TEXT}; every other value is a hash of {@code (seed, i)}. Any range of rows can
 * therefore be generated independently (by pinned workers straight into placed partitions) or streamed (for CSV).
 *
 * <p>Columns ({@link #TRADES}): trade_id long ({@code i + 1}), desk (50, {@code DESK-00}.., skewed towards low
 * numbers), book (1000, {@code BOOK-0000}..; book {@code b} belongs to desk {@code b / 20}), currency (20 ISO codes,
 * USD and EUR most frequent), trade_date (250 business days), counterparty (10,000, {@code CP-00000}..), pnl (signed,
 * heavy-tailed: {@code P(|pnl| > 250 t) = 1 / (1 + t²)}, cents) and notional (10^4..10^7, multiples of 1000).
 * Generator codes are the positions of the values in sorted order, so they are also sorted-dictionary codes.
 * The {@link #FX} lookup table has one row per currency with a fixed {@code rate_to_usd}; the {@link Books} table
 * one row per book (desk, region, legal entity, trader).
 *
 * <p>pnl may be NULL in a share of the rows ({@link #TradesGenerator(long, long, double)}, for the bench's NULL
 * variant): row {@code i} is NULL when another hash of {@code (seed, i)} falls below the share, so every other value
 * of every row is the same as without NULLs.
 *
 * <p>Immutable and thread-safe.
 */
public final class TradesGenerator {

    /** Number of desks. */
    public static final int DESKS = 50;
    /** Number of books (20 per desk). */
    public static final int BOOKS = 1000;
    /** Number of business days. */
    public static final int DAYS = 250;
    /** Number of counterparties. */
    public static final int COUNTERPARTIES = 10_000;
    /** The first business day. */
    public static final String FIRST_DAY_TEXT = "2025-01-02";

    /** The 20 currencies, sorted; a currency's code is its index. */
    public static final List<String> CURRENCIES = List.of(
            "AUD", "BRL", "CAD", "CHF", "CNY", "CZK", "DKK", "EUR", "GBP", "HKD", "INR", "JPY", "KRW", "MXN", "NOK",
            "NZD", "PLN", "SEK", "SGD", "USD");

    private static final double[] RATES_TO_USD = {
        0.66, 0.18, 0.73, 1.13, 0.14, 0.044, 0.145, 1.08, 1.27, 0.128, 0.012, 0.0067, 0.00072, 0.055, 0.093, 0.60, 0.25,
        0.095, 0.74, 1.0
    };
    /** Per mille share of each currency, in {@link #CURRENCIES} order (sums to 1000). */
    private static final int[] CURRENCY_PER_MILLE = {
        40, 10, 40, 50, 25, 10, 10, 200, 100, 25, 15, 80, 10, 10, 15, 10, 10, 15, 25, 300
    };

    /** trade_id long, desk, book, currency (strings), trade_date (date), counterparty (string), pnl, notional. */
    public static final TableSchema TRADES = new TableSchema(
            "trades",
            List.of(
                    ColumnSpec.of("trade_id", ColumnType.LONG),
                    ColumnSpec.of("desk", ColumnType.STRING),
                    ColumnSpec.of("book", ColumnType.STRING),
                    ColumnSpec.of("currency", ColumnType.STRING),
                    ColumnSpec.of("trade_date", ColumnType.DATE),
                    ColumnSpec.of("counterparty", ColumnType.STRING),
                    ColumnSpec.of("pnl", ColumnType.DOUBLE),
                    ColumnSpec.of("notional", ColumnType.DOUBLE)));

    /** currency (string), rate_to_usd (double). */
    public static final TableSchema FX = new TableSchema(
            "fx",
            List.of(ColumnSpec.of("currency", ColumnType.STRING), ColumnSpec.of("rate_to_usd", ColumnType.DOUBLE)));

    /** Column indexes in {@link #TRADES}. */
    public static final int COL_TRADE_ID = 0,
            COL_DESK = 1,
            COL_BOOK = 2,
            COL_CURRENCY = 3,
            COL_TRADE_DATE = 4,
            COL_COUNTERPARTY = 5,
            COL_PNL = 6,
            COL_NOTIONAL = 7;

    private static final String[] DESK_NAMES = names("DESK-", DESKS, 2);
    private static final String[] BOOK_NAMES = names("BOOK-", BOOKS, 4);
    private static final String[] COUNTERPARTY_NAMES = names("CP-", COUNTERPARTIES, 5);
    private static final int[] EPOCH_DAYS = new int[DAYS];
    private static final String[] DATE_TEXTS = new String[DAYS];
    private static final byte[] CURRENCY_BY_PER_MILLE = new byte[1000];

    static {
        LocalDate d = LocalDate.parse(FIRST_DAY_TEXT);
        for (int i = 0; i < DAYS; i++) {
            while (d.getDayOfWeek() == DayOfWeek.SATURDAY || d.getDayOfWeek() == DayOfWeek.SUNDAY) {
                d = d.plusDays(1);
            }
            EPOCH_DAYS[i] = (int) d.toEpochDay();
            DATE_TEXTS[i] = d.toString();
            d = d.plusDays(1);
        }
        int k = 0;
        for (int c = 0; c < CURRENCY_PER_MILLE.length; c++) {
            for (int j = 0; j < CURRENCY_PER_MILLE[c]; j++) {
                CURRENCY_BY_PER_MILLE[k++] = (byte) c;
            }
        }
    }

    private final long seed;
    private final long rows;
    private final double pnlNullFraction;

    /**
     * @param seed any value; the same seed and rows give the same data
     * @param rows number of trades, ≥ 0
     */
    public TradesGenerator(long seed, long rows) {
        this(seed, rows, 0);
    }

    /**
     * @param seed            any value; the same seed, rows and fraction give the same data
     * @param rows            number of trades, ≥ 0
     * @param pnlNullFraction share of the rows whose pnl is NULL, 0..1 (0.1: about one row in ten, chosen by hash)
     */
    public TradesGenerator(long seed, long rows, double pnlNullFraction) {
        if (rows < 0) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT, "the number of trades must not be negative: rows=" + rows);
        }
        if (!(pnlNullFraction >= 0 && pnlNullFraction <= 1)) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "the share of NULL pnl must be between 0 and 1: pnlNullFraction=" + pnlNullFraction);
        }
        this.seed = seed;
        this.rows = rows;
        this.pnlNullFraction = pnlNullFraction;
    }

    public long seed() {
        return seed;
    }

    public long rows() {
        return rows;
    }

    /** The share of rows whose pnl is NULL (0: none). */
    public double pnlNullFraction() {
        return pnlNullFraction;
    }

    /**
     * Fills {@code out} with trade {@code i} (0 ≤ i &lt; rows); a NULL pnl is {@code pnlNull} with pnl 0. Allocates
     * nothing.
     */
    public void row(long i, TradeRow out) {
        long h = mix(seed * 0x9E3779B97F4A7C15L + i);
        out.tradeId = i + 1;
        out.desk = desk(h);
        out.book = out.desk * (BOOKS / DESKS) + (int) ((mix(h + 1) >>> 33) % (BOOKS / DESKS));
        out.currency = currency(h);
        out.day = day(i);
        out.counterparty = (int) ((mix(h + 3) >>> 33) % COUNTERPARTIES);
        long hp = mix(h + 4);
        double u = Math.max(unit(hp), 1e-6);
        double magnitude = 250.0 * Math.sqrt(1.0 / u - 1.0);
        out.pnl = Math.rint(((hp & 1) == 0 ? magnitude : -magnitude) * 100.0) / 100.0;
        out.notional = Math.rint(Math.exp(2.302585092994046 * (4.0 + 3.0 * unit(mix(h + 5)))) / 1000.0) * 1000.0;
        out.pnlNull = pnlNullFraction > 0 && unit(mix(h + 7)) < pnlNullFraction;
        if (out.pnlNull) {
            out.pnl = 0;
        }
    }

    /** The desk code of trade {@code i}, without the rest of the row (for partitioning by desk). */
    public int deskOf(long i) {
        return desk(mix(seed * 0x9E3779B97F4A7C15L + i));
    }

    /** The currency code of trade {@code i}, without the rest of the row. */
    public int currencyOf(long i) {
        return currency(mix(seed * 0x9E3779B97F4A7C15L + i));
    }

    /** The business-day index of trade {@code i}. */
    public int day(long i) {
        return rows == 0 ? 0 : (int) Math.min(DAYS - 1, i * DAYS / rows);
    }

    private static int desk(long h) {
        double u = unit(mix(h + 6));
        return Math.min(DESKS - 1, (int) (DESKS * (0.5 * u + 0.5 * u * u)));
    }

    private static int currency(long h) {
        return CURRENCY_BY_PER_MILLE[(int) ((mix(h + 2) >>> 33) % 1000)];
    }

    /** The fx rate of a currency code. */
    public static double rateToUsd(int currency) {
        return RATES_TO_USD[currency];
    }

    public static String deskName(int code) {
        return DESK_NAMES[code];
    }

    public static String bookName(int code) {
        return BOOK_NAMES[code];
    }

    public static String counterpartyName(int code) {
        return COUNTERPARTY_NAMES[code];
    }

    /** Business day {@code day} (0..249) as days since 1970-01-01. */
    public static int epochDay(int day) {
        return EPOCH_DAYS[day];
    }

    /** Business day {@code day} (0..249) as ISO text. */
    public static String dateText(int day) {
        return DATE_TEXTS[day];
    }

    /** Every desk name in code order (sorted). */
    public static List<String> deskNames() {
        return List.of(DESK_NAMES);
    }

    public static List<String> bookNames() {
        return List.of(BOOK_NAMES);
    }

    public static List<String> counterpartyNames() {
        return List.of(COUNTERPARTY_NAMES);
    }

    /** Every business day as epoch days, ascending. */
    public static int[] epochDays() {
        return EPOCH_DAYS.clone();
    }

    private static String[] names(String prefix, int n, int digits) {
        String[] out = new String[n];
        String fmt = "%s%0" + digits + "d";
        for (int i = 0; i < n; i++) {
            out[i] = String.format(fmt, prefix, i);
        }
        return out;
    }

    /** splitmix64's finaliser. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Uniform in [0, 1). */
    static double unit(long h) {
        return (h >>> 11) * 0x1.0p-53;
    }
}
