package io.numacube.cli.cube;

import io.numacube.engine.gen.TradeRow;
import io.numacube.engine.gen.TradesGenerator;
import io.numacube.engine.ingest.csv.CsvWriter;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes the generator's trades and fx tables as CSV with their schemas' column names as the header, so that
 * {@code load} infers exactly {@link TradesGenerator#TRADES} and {@link TradesGenerator#FX}. Stateless.
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
            w.writeDouble(t.pnl);
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
}
