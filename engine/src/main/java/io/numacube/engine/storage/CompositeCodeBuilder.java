package io.numacube.engine.storage;

import io.numacube.engine.schema.ColumnType;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Codes one {@link CodedColumns.Composite} of a table: per partition (in parallel), the distinct values {@code
 * firstCode * radix + secondCode} of its rows; then the table's distinct values, sorted, as the dictionary; then per
 * partition each row's code, into a block placed like the partition. The two columns are coded first where they are
 * not yet. Stateless.
 */
final class CompositeCodeBuilder {

    private CompositeCodeBuilder() {}

    /** A row's code in one column slot of one partition. */
    @FunctionalInterface
    private interface SlotCodes {
        int at(int row);
    }

    static CodedColumnBuilder.Built build(FactTable table, CodedColumns.Composite composite) {
        table.dictionary(composite.first());
        long radix = Math.max(1, table.dictionary(composite.second()).size());
        List<Partition> parts = table.partitions();
        long[][] distinctByPart = new long[parts.size()][];
        IntStream.range(0, parts.size())
                .parallel()
                .forEach(i -> distinctByPart[i] = CodedColumnBuilder.unique(pairs(table, composite, radix, i)));
        long[] keys = CodedColumnBuilder.unique(CodedColumnBuilder.concat(distinctByPart));
        Dictionary d = Dictionary.ofLongs(ColumnType.INT, keys, false);
        CodeWidth width = d.width();
        MemorySegment[] codes = new MemorySegment[table.maxPartitionId() + 1];
        NativeBlock[] made = new NativeBlock[parts.size()];
        try {
            for (int i = 0; i < parts.size(); i++) {
                Partition p = parts.get(i);
                made[i] = table.memory()
                        .allocate(Math.max(1, (long) p.rows() * width.bytes()), CodedColumnBuilder.request(table, p));
                codes[p.id()] = made[i].segment();
            }
            CodedColumnBuilder.CodeOfKey codeOf = new CodedColumnBuilder.CodeOfKey(keys);
            IntStream.range(0, parts.size())
                    .parallel()
                    .forEach(i -> writeCodes(
                            pairs(table, composite, radix, i),
                            codeOf,
                            width,
                            codes[parts.get(i).id()]));
        } catch (RuntimeException | Error e) {
            for (NativeBlock b : made) {
                if (b != null) {
                    b.close();
                }
            }
            throw e;
        }
        return new CodedColumnBuilder.Built(new CodedColumns.Coded(d, width, codes), made);
    }

    /** Partition {@code i}'s rows as {@code firstCode * radix + secondCode}, in row order. */
    private static long[] pairs(FactTable table, CodedColumns.Composite composite, long radix, int i) {
        SlotCodes first = codes(table, composite.first(), i);
        SlotCodes second = codes(table, composite.second(), i);
        long[] out = new long[table.partitions().get(i).rows()];
        for (int r = 0; r < out.length; r++) {
            out[r] = first.at(r) * radix + second.at(r);
        }
        return out;
    }

    private static SlotCodes codes(FactTable table, int slot, int i) {
        int n = table.schema().size();
        Partition p = table.partitions().get(i);
        if (slot < n) {
            return row -> p.code(slot, row);
        }
        CodedColumns.Coded coded = table.coded().of(table, slot - n);
        return row -> coded.code(p.id(), row);
    }

    private static void writeCodes(
            long[] pairs, CodedColumnBuilder.CodeOfKey codeOf, CodeWidth width, MemorySegment out) {
        for (int r = 0; r < pairs.length; r++) {
            int code = codeOf.get(pairs[r]);
            switch (width) {
                case BYTE -> out.set(Partition.BYTE, r, (byte) code);
                case SHORT -> out.setAtIndex(Partition.SHORT, r, (short) code);
                case INT -> out.setAtIndex(Partition.INT, r, code);
            }
        }
    }
}
