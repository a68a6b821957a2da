package io.numacube.cli.cube;

import io.numacube.numa.base.NumacubeException;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;

/**
 * Parses durations as people write them: {@code 30s}, {@code 500ms}, {@code 5m} or {@code 5min}, {@code 2h},
 * {@code 90} (seconds), {@code 0} (none). Stateless.
 */
public final class TimeSpan implements ITypeConverter<Duration> {

    private static final Pattern SPAN = Pattern.compile("(\\d{1,12})\\s*(ms|s|m|min|h)?");

    @Override
    public Duration convert(String value) {
        try {
            return parse(value);
        } catch (NumacubeException e) {
            throw new picocli.CommandLine.TypeConversionException(e.getMessage());
        }
    }

    /** @throws NumacubeException INVALID_INPUT for anything but a whole number with an optional unit */
    public static Duration parse(String text) {
        Matcher m = SPAN.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "not a duration: value=" + text + " — e.g. 30s, 500ms, 5m, 2h, or 0 for none");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        return switch (unit) {
            case "ms" -> Duration.ofMillis(n);
            case "m", "min" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofSeconds(n);
        };
    }
}
