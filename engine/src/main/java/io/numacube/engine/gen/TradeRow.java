package io.numacube.engine.gen;

/**
 * One generated trade, written by {@link TradesGenerator#row(long, TradeRow)}. Dimension fields hold the generator's
 * codes, which are also the codes of the sorted dictionaries ({@link TradesGenerator#deskName(int)} and friends give
 * the values). A mutable holder reused row after row so streaming allocates nothing; not thread-safe: one per thread.
 */
public final class TradeRow {
    /** 1-based trade id ({@code i + 1}). */
    public long tradeId;
    /** Desk code, 0..49. */
    public int desk;
    /** Book code, 0..999; each book belongs to one desk ({@code book / 20 == desk}). */
    public int book;
    /** Currency code, 0..19, index into {@link TradesGenerator#CURRENCIES}. */
    public int currency;
    /** Business-day index, 0..249 (rows are in date order). */
    public int day;
    /** Counterparty code, 0..9999. */
    public int counterparty;
    /** Profit and loss in the trade's currency, signed, heavy-tailed, rounded to cents. */
    public double pnl;
    /** Whether pnl is NULL (then {@link #pnl} is 0); only with a generator that makes NULLs. */
    public boolean pnlNull;
    /** Notional in the trade's currency, positive, a multiple of 1000. */
    public double notional;

    public String deskName() {
        return TradesGenerator.deskName(desk);
    }

    public String bookName() {
        return TradesGenerator.bookName(book);
    }

    public String currencyCode() {
        return TradesGenerator.CURRENCIES.get(currency);
    }

    /** The trade date as days since 1970-01-01. */
    public int epochDay() {
        return TradesGenerator.epochDay(day);
    }

    /** The trade date as ISO text ({@code 2025-05-23}). */
    public String dateText() {
        return TradesGenerator.dateText(day);
    }

    public String counterpartyName() {
        return TradesGenerator.counterpartyName(counterparty);
    }
}
