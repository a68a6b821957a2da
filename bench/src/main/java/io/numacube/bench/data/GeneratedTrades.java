package io.numacube.bench.data;

import io.numacube.bench.peer.ReferenceQuery;
import io.numacube.bench.peer.TableSource;
import io.numacube.engine.gen.Books;
import io.numacube.engine.gen.TradeRow;
import io.numacube.engine.gen.TradesGenerator;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/**
 * The engine's generated trades ({@link TradesGenerator}) as {@link TableSource}s for the peer: {@code trades} with
 * desk, book, currency and counterparty given as dictionary codes (the generator's codes are positions in the sorted
 * value lists, see {@link TradesGenerator}; pnl NULL where the generator makes it so), {@code fx} and {@code books}
 * ({@link Books}). Row {@code i} of the source is row {@code i} of the
 * generator, so every range can be produced on its own thread.
 *
 * <p>Immutable and thread-safe ({@link TableSource#produce} keeps its {@link TradeRow} on the stack).
 */
public final class GeneratedTrades {

    /**
     * Bytes per row of each trades column at the narrowest code width for its cardinality (desk 50, currency 20 and
     * trade_date 250 values: 1; book 1,000 and counterparty 10,000: 2; pnl, notional and trade_id: 8), which is how
     * the engine and the bare loop store them. The bench counts "GB/s of the columns read" at these widths for every
     * engine, so the figures compare the same work.
     */
    public static final Map<String, Integer> NOMINAL_WIDTHS = Map.of(
            "trade_id",
            8,
            "desk",
            1,
            "book",
            2,
            "currency",
            1,
            "trade_date",
            1,
            "counterparty",
            2,
            "pnl",
            8,
            "notional",
            8);

    private final TradesGenerator generator;

    public GeneratedTrades(long rows, long seed) {
        this(rows, seed, 0);
    }

    /** Trades whose pnl is NULL in a share {@code pnlNullFraction} (0..1) of the rows (see {@link TradesGenerator}). */
    public GeneratedTrades(long rows, long seed, double pnlNullFraction) {
        this.generator = new TradesGenerator(seed, rows, pnlNullFraction);
    }

    public TradesGenerator generator() {
        return generator;
    }

    public long rows() {
        return generator.rows();
    }

    /** Q3's literals as the generator defines them (business days 100 and 149, three desks). */
    public static ReferenceQuery.Q3Literals q3Literals() {
        return new ReferenceQuery.Q3Literals(
                LocalDate.ofEpochDay(TradesGenerator.epochDay(100)),
                LocalDate.ofEpochDay(TradesGenerator.epochDay(149)),
                io.numacube.engine.gen.ReferenceQueries.Q3_DESKS);
    }

    /** The trades table. */
    public TableSource trades() {
        return new TableSource() {
            @Override
            public String tableName() {
                return "trades";
            }

            @Override
            public List<Column> columns() {
                return List.of(
                        new Column("trade_id", SqlType.BIGINT),
                        new Column("desk", SqlType.CODED_VARCHAR, TradesGenerator.deskNames()),
                        new Column("book", SqlType.CODED_VARCHAR, TradesGenerator.bookNames()),
                        new Column("currency", SqlType.CODED_VARCHAR, TradesGenerator.CURRENCIES),
                        new Column("trade_date", SqlType.DATE),
                        new Column("counterparty", SqlType.CODED_VARCHAR, TradesGenerator.counterpartyNames()),
                        new Column("pnl", SqlType.DOUBLE),
                        new Column("notional", SqlType.DOUBLE));
            }

            @Override
            public long rowCount() {
                return generator.rows();
            }

            @Override
            public void produce(RowSink sink, long fromRow, long toRow) throws Exception {
                TradeRow r = new TradeRow();
                for (long i = fromRow; i < toRow; i++) {
                    generator.row(i, r);
                    sink.beginRow();
                    sink.appendLong(r.tradeId);
                    sink.appendCode(r.desk);
                    sink.appendCode(r.book);
                    sink.appendCode(r.currency);
                    sink.appendEpochDay(TradesGenerator.epochDay(r.day));
                    sink.appendCode(r.counterparty);
                    if (r.pnlNull) {
                        sink.appendNull();
                    } else {
                        sink.appendDouble(r.pnl);
                    }
                    sink.appendDouble(r.notional);
                    sink.endRow();
                }
            }
        };
    }

    /** The fx lookup table (20 rows). */
    public static TableSource fx() {
        return new TableSource() {
            @Override
            public String tableName() {
                return "fx";
            }

            @Override
            public List<Column> columns() {
                return List.of(new Column("currency", SqlType.VARCHAR), new Column("rate_to_usd", SqlType.DOUBLE));
            }

            @Override
            public long rowCount() {
                return TradesGenerator.CURRENCIES.size();
            }

            @Override
            public void produce(RowSink sink, long fromRow, long toRow) throws Exception {
                for (int c = (int) fromRow; c < toRow; c++) {
                    sink.beginRow();
                    sink.appendString(TradesGenerator.CURRENCIES.get(c));
                    sink.appendDouble(TradesGenerator.rateToUsd(c));
                    sink.endRow();
                }
            }
        };
    }

    /** The books dimension ({@link Books}: 1,000 rows, every column text). */
    public static TableSource books() {
        return new TableSource() {
            @Override
            public String tableName() {
                return Books.SCHEMA.name();
            }

            @Override
            public List<Column> columns() {
                return Books.SCHEMA.columns().stream()
                        .map(c -> new Column(c.name(), SqlType.VARCHAR))
                        .toList();
            }

            @Override
            public long rowCount() {
                return Books.rows();
            }

            @Override
            public void produce(RowSink sink, long fromRow, long toRow) throws Exception {
                for (int b = (int) fromRow; b < toRow; b++) {
                    sink.beginRow();
                    sink.appendString(TradesGenerator.bookName(b));
                    sink.appendString(TradesGenerator.deskName(Books.desk(b)));
                    sink.appendString(Books.REGIONS.get(Books.region(b)));
                    sink.appendString(Books.LEGAL_ENTITIES.get(Books.legalEntity(b)));
                    sink.appendString(Books.traderNames().get(Books.trader(b)));
                    sink.endRow();
                }
            }
        };
    }
}
