package io.numacube.cli.cube;

import io.numacube.numa.base.NumacubeException;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;

/**
 * Parses row counts as people write them: {@code 1000000}, {@code 1_000_000}, {@code 1,000,000}, {@code 10M},
 * {@code 1.5K}, {@code 2B} (K = 10^3, M = 10^6, B or G = 10^9). The result is a whole number ≥ 0. Stateless.
 */
public final class RowCount implements ITypeConverter<Long> {

    @Override
    public Long convert(String value) {
        try {
            return parse(value);
        } catch (NumacubeException e) {
            throw new picocli.CommandLine.TypeConversionException(e.getMessage());
        }
    }

    /** @throws NumacubeException INVALID_INPUT for anything else */
    public static long parse(String text) {
        String s = text.strip().replace("_", "").replace(",", "").toUpperCase(Locale.ROOT);
        long scale = 1;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'K' -> scale = 1_000L;
                case 'M' -> scale = 1_000_000L;
                case 'B', 'G' -> scale = 1_000_000_000L;
                default -> {}
            }
        }
        if (scale > 1) {
            s = s.substring(0, s.length() - 1);
        }
        try {
            java.math.BigDecimal v = new java.math.BigDecimal(s).multiply(java.math.BigDecimal.valueOf(scale));
            if (v.signum() < 0 || v.stripTrailingZeros().scale() > 0) {
                throw new NumberFormatException();
            }
            return v.longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a row count is a whole number ≥ 0, optionally with K, M or B: value=" + text
                            + " — e.g. 1000000 or 10M");
        }
    }
}
