package io.numacube.engine.gen;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import java.util.List;

/**
 * The books dimension of the generated trades: one row per book of {@link TradesGenerator} ({@value
 * TradesGenerator#BOOKS} rows, {@code BOOK-0000}..), joined to {@code trades} on {@code book}. A fixed table, the
 * same for every seed and row count (like {@code fx}), so that the CSV files, the cube's generated tables and the
 * bench's peer all hold the same rows.
 *
 * <p>Columns ({@link #SCHEMA}): book; desk, the desk the trades of the book carry ({@code book / 20}, so the
 * join agrees with trades' own desk column); region ({@link #REGIONS}: {@code desk % 3}); legal_entity, one of the
 * book's region's entities ({@link #LEGAL_ENTITIES}) chosen by a hash of the book; trader ({@code TRADER-000}..,
 * 4 per desk) chosen by another hash of the book. Every value is a function of the book code alone. Codes of
 * regions, legal entities and traders are positions in their sorted name lists.
 *
 * <p>Immutable and thread-safe.
 */
public final class Books {

    /** The regions, sorted; a region's code is its index. */
    public static final List<String> REGIONS = List.of("AMER", "APAC", "EMEA");

    /** The legal entities, sorted; an entity's code is its index. */
    public static final List<String> LEGAL_ENTITIES =
            List.of("NCB-CAN", "NCB-DEU", "NCB-GBR", "NCB-HKG", "NCB-IRL", "NCB-JPN", "NCB-SGP", "NCB-USA");

    /** Traders per desk. */
    public static final int TRADERS_PER_DESK = 4;

    /** Number of traders. */
    public static final int TRADERS = TradesGenerator.DESKS * TRADERS_PER_DESK;

    /** book, desk, region, legal_entity, trader: all strings. */
    public static final TableSchema SCHEMA = new TableSchema(
            "books",
            List.of(
                    ColumnSpec.of("book", ColumnType.STRING),
                    ColumnSpec.of("desk", ColumnType.STRING),
                    ColumnSpec.of("region", ColumnType.STRING),
                    ColumnSpec.of("legal_entity", ColumnType.STRING),
                    ColumnSpec.of("trader", ColumnType.STRING)));

    /** Legal-entity codes of each region, in {@link #REGIONS} order. */
    private static final int[][] ENTITIES_OF_REGION = {
        {0, 7}, // AMER: NCB-CAN, NCB-USA
        {3, 5, 6}, // APAC: NCB-HKG, NCB-JPN, NCB-SGP
        {1, 2, 4} // EMEA: NCB-DEU, NCB-GBR, NCB-IRL
    };

    private static final List<String> TRADER_NAMES = names();

    private Books() {}

    /** Rows of the table: one per book. */
    public static int rows() {
        return TradesGenerator.BOOKS;
    }

    /** The desk code of book {@code book} (the desk its trades carry). */
    public static int desk(int book) {
        return book / (TradesGenerator.BOOKS / TradesGenerator.DESKS);
    }

    /** The region code of book {@code book}, an index into {@link #REGIONS}. */
    public static int region(int book) {
        return desk(book) % REGIONS.size();
    }

    /** The legal-entity code of book {@code book}, an index into {@link #LEGAL_ENTITIES}. */
    public static int legalEntity(int book) {
        int[] entities = ENTITIES_OF_REGION[region(book)];
        return entities[(int) ((TradesGenerator.mix(0xB00CL + book) >>> 33) % entities.length)];
    }

    /** The trader code of book {@code book}, an index into {@link #traderNames()}. */
    public static int trader(int book) {
        return desk(book) * TRADERS_PER_DESK + (int) ((TradesGenerator.mix(0x7EADL + book) >>> 33) % TRADERS_PER_DESK);
    }

    /** Every trader name in code order (sorted): {@code TRADER-000}... */
    public static List<String> traderNames() {
        return TRADER_NAMES;
    }

    private static List<String> names() {
        String[] out = new String[TRADERS];
        for (int i = 0; i < TRADERS; i++) {
            out[i] = String.format("TRADER-%03d", i);
        }
        return List.of(out);
    }
}
