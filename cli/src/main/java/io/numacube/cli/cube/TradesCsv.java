package io.numacube.cli.cube;

import io.numacube.engine.gen.Books;
import io.numacube.engine.gen.TradeRow;
import io.numacube.engine.gen.TradesGenerator;
import io.numacube.engine.ingest.csv.CsvWriter;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes the generator's trades, fx and books tables as CSV with their schemas' column names as the header, so that
 * {@code load} infers exactly {@link TradesGenerator#TRADES}, {@link TradesGenerator#FX} and {@link Books#SCHEMA}.
 * A NULL pnl is an empty field. Stateless.
 */
public final class TradesCsv {

    private static final long PROGRESS_EVERY_ROWS = 1L << 16;

    private TradesCsv() {}

    /** Writes trades {@code 0 .. gen.rows()-1} to {@code out} (not closed), reporting progress. */
    public static void writeTrades(TradesGenerator gen, OutputStream out, ProgressBar progress) throws IOException {
        CsvWriter w = new CsvWriter(out);
        w.writeHeader(TradesGenerator.TRADES);
        TradeRow t = new TradeRow();
        long rows = gen.rows();
        for (long i = 0; i < rows; i++) {
            gen.row(i, t);
            w.writeLong(t.tradeId);
            w.writeString(t.deskName());
            w.writeString(t.bookName());
            w.writeString(t.currencyCode());
            w.writeDate(t.epochDay());
            w.writeString(t.counterpartyName());
            if (t.pnlNull) {
                w.writeNull();
            } else {
                w.writeDouble(t.pnl);
            }
            w.writeDouble(t.notional);
            w.endRow();
            if ((i + 1) % PROGRESS_EVERY_ROWS == 0) {
                progress.progress(i + 1, rows);
            }
        }
        w.flush();
        progress.progress(rows, rows);
    }

    /** Writes the fx table (one row per currency) to {@code out} (not closed). */
    public static void writeFx(OutputStream out) throws IOException {
        CsvWriter w = new CsvWriter(out);
        w.writeHeader(TradesGenerator.FX);
        for (int c = 0; c < TradesGenerator.CURRENCIES.size(); c++) {
            w.writeString(TradesGenerator.CURRENCIES.get(c));
            w.writeDouble(TradesGenerator.rateToUsd(c));
            w.endRow();
        }
        w.flush();
    }

    /** Writes the books table (one row per book, {@link Books}) to {@code out} (not closed). */
    public static void writeBooks(OutputStream out) throws IOException {
        CsvWriter w = new CsvWriter(out);
        w.writeHeader(Books.SCHEMA);
        for (int b = 0; b < Books.rows(); b++) {
            w.writeString(TradesGenerator.bookName(b));
            w.writeString(TradesGenerator.deskName(Books.desk(b)));
            w.writeString(Books.REGIONS.get(Books.region(b)));
            w.writeString(Books.LEGAL_ENTITIES.get(Books.legalEntity(b)));
            w.writeString(Books.traderNames().get(Books.trader(b)));
            w.endRow();
        }
        w.flush();
    }
}
