package io.numacube.engine.plan;

import io.numacube.engine.schema.ColumnType;
import io.numacube.numa.base.NumacubeException;
import java.util.List;
import java.util.Set;

/**
 * The text functions {@code replace translate strpos left right lpad rpad repeat reverse} and {@code trim ltrim rtrim} of a set
 * of characters ({@code trim_chars(s, chars)}: {@code btrim(s, chars)}, {@code TRIM(BOTH chars FROM s)}) with
 * PostgreSQL's semantics, counting
 * code points (not UTF-16 units): {@code replace(s, '', t)} is {@code s}; {@code strpos(s, sub)} is 1-based, 0 where
 * {@code sub} is absent; {@code translate(s, from, to)} maps each character of {@code s} found in {@code from} to the
 * character at the same place in {@code to} (its first place in {@code from} where it repeats) and drops it where
 * {@code to} is shorter ({@code position(sub IN s)} is bound as it); a negative length in {@code left}/{@code right}
 * drops that many from the other end; {@code lpad}/{@code rpad} cut a longer text to the length and leave it as it is
 * for an empty fill. A NULL argument gives NULL. Stateless; thread-safe.
 */
final class TextFunctions {

    static final Set<String> NAMES = Set.of(
            "replace",
            "translate",
            "strpos",
            "left",
            "right",
            "lpad",
            "rpad",
            "repeat",
            "reverse",
            "trim_chars",
            "ltrim_chars",
            "rtrim_chars");

    /** The longest text {@code repeat} and the pads build, in UTF-16 units (PostgreSQL's 1 GB limit, smaller). */
    private static final long MAX_CHARS = 1L << 28;

    private TextFunctions() {}

    /** The result type of {@code name(args)}, or null when {@code name} is none of {@link #NAMES}. */
    static ColumnType resultType(String name, List<Expr> args) {
        if (!NAMES.contains(name)) {
            return null;
        }
        ColumnType s = ColumnType.STRING;
        ColumnType n = ColumnType.LONG;
        switch (name) {
            case "replace", "translate" -> ScalarFunctions.expectTypes(name, args, s, s, s);
            case "trim_chars", "ltrim_chars", "rtrim_chars" ->
                ScalarFunctions.expectTypes(name.replace("_chars", ""), args, s, s);
            case "strpos" -> {
                ScalarFunctions.expectTypes(name, args, s, s);
                return ColumnType.LONG;
            }
            case "left", "right", "repeat" -> ScalarFunctions.expectTypes(name, args, s, n);
            case "lpad", "rpad" -> {
                if (args.size() == 2) {
                    ScalarFunctions.expectTypes(name, args, s, n);
                } else {
                    ScalarFunctions.expectTypes(name, args, s, n, s);
                }
            }
            default -> ScalarFunctions.expectTypes(name, args, s);
        }
        return ColumnType.STRING;
    }

    /** The value of {@code name(v...)} over non-NULL arguments. */
    static Object apply(String name, List<Object> v) {
        String s = (String) v.get(0);
        return switch (name) {
            case "replace" -> ((String) v.get(1)).isEmpty() ? s : s.replace((String) v.get(1), (String) v.get(2));
            case "translate" -> translate(s, (String) v.get(1), (String) v.get(2));
            case "strpos" -> strpos(s, (String) v.get(1));
            case "left" -> left(s, (Long) v.get(1));
            case "right" -> right(s, (Long) v.get(1));
            case "lpad", "rpad" -> pad(s, (Long) v.get(1), v.size() > 2 ? (String) v.get(2) : " ", name.equals("lpad"));
            case "repeat" -> repeat(s, (Long) v.get(1));
            case "reverse" -> new StringBuilder(s).reverse().toString();
            case "trim_chars", "ltrim_chars", "rtrim_chars" ->
                trim(s, (String) v.get(1), !name.startsWith("r"), !name.startsWith("l"));
            default -> throw new IllegalStateException("unknown function " + name);
        };
    }

    /** {@code s} without the characters of {@code chars} at its start and/or end (code points, as PostgreSQL). */
    private static String trim(String s, String chars, boolean start, boolean end) {
        int from = 0;
        int to = s.length();
        while (start && from < to && chars.indexOf(s.codePointAt(from)) >= 0) {
            from += Character.charCount(s.codePointAt(from));
        }
        while (end && to > from && chars.indexOf(s.codePointBefore(to)) >= 0) {
            to -= Character.charCount(s.codePointBefore(to));
        }
        return s.substring(from, to);
    }

    private static String translate(String s, String from, String to) {
        int[] source = from.codePoints().toArray();
        int[] target = to.codePoints().toArray();
        StringBuilder out = new StringBuilder(s.length());
        s.codePoints().forEach(c -> {
            int at = 0;
            while (at < source.length && source[at] != c) {
                at++;
            }
            if (at == source.length) {
                out.appendCodePoint(c);
            } else if (at < target.length) {
                out.appendCodePoint(target[at]);
            }
        });
        return out.toString();
    }

    private static long strpos(String s, String sub) {
        int at = s.indexOf(sub);
        return at < 0 ? 0 : s.codePointCount(0, at) + 1;
    }

    private static String left(String s, long n) {
        int count = s.codePointCount(0, s.length());
        long keep = n >= 0 ? Math.min(n, count) : Math.max(0, count + n);
        return s.substring(0, s.offsetByCodePoints(0, (int) keep));
    }

    private static String right(String s, long n) {
        int count = s.codePointCount(0, s.length());
        long keep = n >= 0 ? Math.min(n, count) : Math.max(0, count + n);
        return s.substring(s.offsetByCodePoints(0, (int) (count - keep)));
    }

    private static String pad(String s, long length, String fill, boolean onTheLeft) {
        int count = s.codePointCount(0, s.length());
        if (length <= count) {
            return length <= 0 ? "" : s.substring(0, s.offsetByCodePoints(0, (int) length));
        }
        if (fill.isEmpty()) {
            return s;
        }
        tooLong(name(onTheLeft), length > MAX_CHARS ? Long.MAX_VALUE : length * 2);
        int[] cps = fill.codePoints().toArray();
        StringBuilder pad = new StringBuilder();
        for (long i = 0; i < length - count; i++) {
            pad.appendCodePoint(cps[(int) (i % cps.length)]);
        }
        return onTheLeft ? pad + s : s + pad;
    }

    private static String name(boolean onTheLeft) {
        return onTheLeft ? "lpad" : "rpad";
    }

    private static String repeat(String s, long n) {
        if (n <= 0 || s.isEmpty()) {
            return "";
        }
        tooLong("repeat", n > MAX_CHARS / s.length() ? Long.MAX_VALUE : s.length() * n);
        return s.repeat((int) n);
    }

    private static void tooLong(String name, long chars) {
        if (chars > MAX_CHARS) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "54000",
                    "requested length too large: " + name + " would build more than " + MAX_CHARS + " characters",
                    null,
                    null);
        }
    }
}
