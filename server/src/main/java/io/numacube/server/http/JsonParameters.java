package io.numacube.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.numacube.server.query.ClientError;
import io.numacube.server.query.SqlLiteral;
import io.numacube.server.query.StorableText;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code "params"} of a {@code POST /v1/query} body as the SQL literals that stand for {@code $1 .. $n}: a JSON
 * string is a text literal ({@code 'D1'}, quotes doubled), a whole number a BIGINT literal, a number whose exponent
 * goes beyond its digits ({@code 1.5e300}) a DOUBLE, any other number a decimal literal written from its exact value
 * ({@code 1.25}), {@code true}/{@code false} a BOOLEAN, {@code null}
 * NULL. A string is untyped as in PostgreSQL, so {@code "2024-01-02"} compares with a DATE column. An array or an
 * object is refused (22023), and so is a string holding a NUL or an unpaired surrogate (22021, {@link
 * StorableText}). Stateless.
 */
final class JsonParameters {

    private JsonParameters() {}

    /**
     * The literals of {@code params}, a JSON array (parsed with exact decimals).
     *
     * @throws HttpError 400 when {@code params} is not an array or holds an array, an object or a string with a NUL or an unpaired surrogate
     */
    static List<String> literals(JsonNode params) {
        if (!params.isArray()) {
            throw new HttpError(
                    400,
                    ClientError.PROTOCOL_VIOLATION,
                    "params must be a JSON array, one value per $n: params=" + abbreviated(params));
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < params.size(); i++) {
            out.add(literal(params.get(i), i + 1));
        }
        return out;
    }

    private static String literal(JsonNode v, int number) {
        if (v.isNull()) {
            return "NULL";
        }
        if (v.isTextual()) {
            String fault = StorableText.fault(v.asText());
            if (fault != null) {
                throw new HttpError(
                        400, StorableText.BAD_ENCODING, StorableText.message(fault, "parameter $" + number));
            }
            return SqlLiteral.string(v.asText());
        }
        if (v.isBoolean()) {
            return SqlLiteral.of(v.booleanValue());
        }
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            return SqlLiteral.of(v.longValue());
        }
        if (v.isNumber()) {
            java.math.BigDecimal d = v.decimalValue();
            if (d.scale() >= 0) {
                return SqlLiteral.of(d);
            }
            // an exponent beyond its digits (1.5e300, 1e20) is an approximate number, as SQL reads 1.5e300: a DOUBLE
            double approximate = d.doubleValue();
            if (Double.isInfinite(approximate)) {
                throw new HttpError(
                        400,
                        "22003",
                        "parameter $" + number + " is out of range for a DOUBLE: value=" + abbreviated(v));
            }
            return SqlLiteral.of(approximate);
        }
        throw new HttpError(
                400,
                "22023",
                "parameter $" + number + " is " + (v.isArray() ? "an array" : "an object")
                        + ": params are strings, numbers, true, false or null: value=" + abbreviated(v));
    }

    private static String abbreviated(JsonNode v) {
        String s = v.toString();
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }
}
