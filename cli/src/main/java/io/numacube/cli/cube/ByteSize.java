package io.numacube.cli.cube;

import io.numacube.numa.base.NumacubeException;
import java.math.BigDecimal;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;

/**
 * Parses memory sizes as people write them: {@code 512M}, {@code 16g}, {@code 1.5GiB}, {@code 2T}, {@code 1048576}
 * (bytes). K, M, G, T are powers of 1024, with or without a trailing {@code B} or {@code iB}. Stateless.
 */
public final class ByteSize implements ITypeConverter<Long> {

    @Override
    public Long convert(String value) {
        try {
            return parse(value);
        } catch (NumacubeException e) {
            throw new picocli.CommandLine.TypeConversionException(e.getMessage());
        }
    }

    /** @throws NumacubeException INVALID_INPUT for anything but a positive size */
    public static long parse(String text) {
        String s = text.strip().toUpperCase(Locale.ROOT);
        if (s.endsWith("IB")) {
            s = s.substring(0, s.length() - 2);
        } else if (s.endsWith("B")) {
            s = s.substring(0, s.length() - 1);
        }
        int shift = 0;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'K' -> shift = 10;
                case 'M' -> shift = 20;
                case 'G' -> shift = 30;
                case 'T' -> shift = 40;
                default -> {}
            }
        }
        if (shift > 0) {
            s = s.substring(0, s.length() - 1);
        }
        try {
            BigDecimal v = new BigDecimal(s.strip()).multiply(BigDecimal.valueOf(1L << shift));
            if (v.signum() <= 0) {
                throw new NumberFormatException();
            }
            return v.setScale(0, java.math.RoundingMode.DOWN).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a memory size is a positive number of bytes, optionally with K, M, G or T (powers of 1024): value="
                            + text + " — e.g. 16G or 512M");
        }
    }
}
