package io.numacube.bench.serve;

import io.numacube.engine.gen.TradeRow;
import io.numacube.engine.gen.TradesGenerator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The writer's batches: generated trades as CSV with a header row, as a client would post them to {@code POST
 * /v1/tables/trades/rows}. A few distinct batches are made before the writer starts and posted in turn, so that the
 * writer spends its time waiting for the server, not formatting rows (the table has no key, so a repeated batch is
 * appended again, not upserted). Immutable.
 */
final class TradeBatches {

    /** Distinct batches made; the writer cycles through them. */
    static final int DISTINCT = 8;

    static final String HEADER = "trade_id,desk,book,currency,trade_date,counterparty,pnl,notional\n";

    private final List<byte[]> bodies;
    private final int rowsPerBatch;

    /** Makes {@link #DISTINCT} batches of {@code rowsPerBatch} trades from generator seed {@code seed}. */
    TradeBatches(int rowsPerBatch, long seed) {
        this.rowsPerBatch = rowsPerBatch;
        TradesGenerator gen = new TradesGenerator(seed, (long) rowsPerBatch * DISTINCT);
        List<byte[]> out = new ArrayList<>(DISTINCT);
        TradeRow row = new TradeRow();
        for (int b = 0; b < DISTINCT; b++) {
            StringBuilder csv = new StringBuilder(HEADER.length() + rowsPerBatch * 72).append(HEADER);
            for (int i = 0; i < rowsPerBatch; i++) {
                gen.row((long) b * rowsPerBatch + i, row);
                csv.append(row.tradeId + 1_000_000_000L)
                        .append(',')
                        .append(row.deskName())
                        .append(',')
                        .append(row.bookName())
                        .append(',')
                        .append(row.currencyCode())
                        .append(',')
                        .append(row.dateText())
                        .append(',')
                        .append(row.counterpartyName())
                        .append(',')
                        .append(row.pnl)
                        .append(',')
                        .append(row.notional)
                        .append('\n');
            }
            out.add(csv.toString().getBytes(StandardCharsets.UTF_8));
        }
        this.bodies = List.copyOf(out);
    }

    /** Batch {@code i} (any index: they repeat). */
    byte[] body(long i) {
        return bodies.get((int) (i % bodies.size()));
    }

    int rowsPerBatch() {
        return rowsPerBatch;
    }
}
