package io.numacube.spark;

import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * The Spark side of numacube's types: the Spark type of each SQL type name, and each batch of a {@link ColumnarAnswer} copied
 * into Spark's on-heap column vectors as one {@link ColumnarBatch}. A numeric column the scan declared as another numeric
 * type than the shard sent (a pushed-down SUM, which Spark types by its own rules) is converted, a DECIMAL to the
 * declared scale exactly (a smaller declared scale is refused, never rounded). Stateless.
 */
final class SparkVectors {

    /** The most digits of a DECIMAL that Spark keeps in a long. */
    private static final int LONG_DIGITS = 18;

    private SparkVectors() {}

    /** The Spark type of a numacube SQL type name. */
    static DataType typeOf(String sqlType) {
        if (sqlType.startsWith("DECIMAL(")) {
            String[] ps =
                    sqlType.substring("DECIMAL(".length(), sqlType.length() - 1).split(",");
            return DataTypes.createDecimalType(Integer.parseInt(ps[0].strip()), Integer.parseInt(ps[1].strip()));
        }
        return switch (sqlType) {
            case "BIGINT" -> DataTypes.LongType;
            case "DOUBLE" -> DataTypes.DoubleType;
            case "VARCHAR" -> DataTypes.StringType;
            case "DATE" -> DataTypes.DateType;
            case "TIMESTAMP" -> DataTypes.TimestampNTZType;
            case "BOOLEAN" -> DataTypes.BooleanType;
            default -> throw new IllegalArgumentException("numacube: no Spark type for SQL type " + sqlType);
        };
    }

    /** The answer's batch as one batch of {@code schema}'s columns, in order (the answer's columns must line up). */
    static ColumnarBatch batch(ColumnarAnswer.Batch answer, StructType schema) {
        if (schema.fields().length == 0) {
            return new ColumnarBatch(new ColumnVector[0], answer.rowCount());
        }
        if (answer.columns().size() != schema.fields().length) {
            throw new IllegalArgumentException(
                    "the answer has " + answer.columns().size() + " columns " + answer.names() + ", the scan expects "
                            + schema.fields().length + " " + schema.simpleString());
        }
        int n = answer.rowCount();
        ColumnVector[] vectors = new ColumnVector[schema.fields().length];
        for (int c = 0; c < vectors.length; c++) {
            StructField f = schema.fields()[c];
            OnHeapColumnVector v = new OnHeapColumnVector(Math.max(n, 1), f.dataType());
            fill(v, f.dataType(), answer.columns().get(c), n);
            vectors[c] = v;
        }
        return new ColumnarBatch(vectors, n);
    }

    /**
     * The scale of a wire column the scan reads as {@code declared}: a DECIMAL's own, 0 for BIGINT; refused when it
     * is larger than the declared scale (digits would be lost) or the column is of another type.
     */
    private static int wireScale(ColumnarAnswer.WireColumn w, DecimalType declared) {
        int scale;
        if (w.type().startsWith("DECIMAL(") && w.longs() != null) {
            scale = ((DecimalType) typeOf(w.type())).scale();
        } else if (w.type().equals("BIGINT")) {
            scale = 0;
        } else {
            scale = Integer.MAX_VALUE;
        }
        if (scale > declared.scale()) {
            throw new IllegalArgumentException("numacube: cannot read a " + w.type() + " column as " + declared);
        }
        return scale;
    }

    /** The value {@code unscaled} of scale {@code scale} as a value of {@code type}, exactly. */
    private static Decimal decimal(long unscaled, int scale, DecimalType type) {
        if (scale == type.scale() && type.precision() <= LONG_DIGITS) {
            return Decimal.createUnsafe(unscaled, type.precision(), type.scale());
        }
        return Decimal.apply(
                java.math.BigDecimal.valueOf(unscaled, scale).setScale(type.scale()), type.precision(), type.scale());
    }

    private static void fill(OnHeapColumnVector v, DataType type, ColumnarAnswer.WireColumn w, int n) {
        int wireScale = type instanceof DecimalType d ? wireScale(w, d) : 0;
        for (int row = 0; row < n; row++) {
            if (w.isNull(row)) {
                v.putNull(row);
                continue;
            }
            if (type == DataTypes.StringType) {
                v.putByteArray(row, w.text(), w.offsets()[row], w.offsets()[row + 1] - w.offsets()[row]);
            } else if (type == DataTypes.DoubleType) {
                v.putDouble(row, w.doubles() != null ? w.doubles()[row] : w.longs()[row]);
            } else if (type == DataTypes.LongType || type == DataTypes.TimestampNTZType) {
                v.putLong(row, w.longs() != null ? w.longs()[row] : (long) w.doubles()[row]);
            } else if (type == DataTypes.DateType) {
                v.putInt(row, (int) w.longs()[row]);
            } else if (type instanceof BooleanType) {
                v.putBoolean(row, w.longs()[row] != 0);
            } else if (type instanceof DecimalType d) {
                v.putDecimal(row, decimal(w.longs()[row], wireScale, d), d.precision());
            } else {
                throw new IllegalArgumentException("numacube: cannot read a " + w.type() + " column as " + type);
            }
        }
    }
}
