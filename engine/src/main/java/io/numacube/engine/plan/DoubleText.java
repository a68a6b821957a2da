package io.numacube.engine.plan;

import java.math.BigDecimal;

/**
 * A DOUBLE's text as DuckDB writes it when it casts one to VARCHAR (in {@code ||} and {@code concat}): the shortest
 * digits that read back as the same double (Java's {@link Double#toString} digits, the same shortest ones), written
 * plainly with at least one digit after the point ({@code 123456789.123}, {@code 1.0}, {@code -0.0}, {@code 0.0001})
 * where the decimal exponent is from -4 to 15, else as {@code 1e+20}, {@code 1.5e-07} (the exponent with a sign and at
 * least two digits), as Python's repr and DuckDB's fmt do. Finite values only. Stateless.
 */
final class DoubleText {

    private DoubleText() {}

    static String of(double d) {
        if (d == 0) {
            return Double.doubleToRawLongBits(d) < 0 ? "-0.0" : "0.0";
        }
        BigDecimal v = new BigDecimal(Double.toString(d)).stripTrailingZeros();
        BigDecimal one = v.round(new java.math.MathContext(1, java.math.RoundingMode.HALF_EVEN));
        if (v.precision() == 2 && one.doubleValue() == d) {
            // Java writes two digits where one would do for the smallest subnormals (4.9E-324 for 5e-324)
            v = one.stripTrailingZeros();
        }
        String digits = v.unscaledValue().abs().toString();
        int exponent = digits.length() - 1 - v.scale();
        String sign = d < 0 ? "-" : "";
        if (exponent < -4 || exponent >= 16) {
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            String e = String.valueOf(Math.abs(exponent));
            return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + (e.length() < 2 ? "0" + e : e);
        }
        String plain = v.abs().toPlainString();
        return sign + (plain.contains(".") ? plain : plain + ".0");
    }
}
