package io.numacube.engine.schema;

/**
 * The order of VARCHAR values: by Unicode code point, which is the order of their UTF-8 bytes, as DuckDB and
 * PostgreSQL's {@code C} collation compare text. {@link String#compareTo} compares UTF-16 units instead, and puts a
 * character beyond U+FFFF (an emoji, stored as a surrogate pair from U+D800) before one in U+E000..U+FFFF (full-width
 * forms). Stateless.
 */
public final class TextOrder {

    private TextOrder() {}

    /** Negative, zero or positive as {@code a} sorts before, with or after {@code b}. */
    public static int compare(String a, String b) {
        return compare(a, b, 0);
    }

    /** {@link #compare(String, String)} of two strings known to agree in their first {@code from} chars. */
    public static int compare(String a, String b, int from) {
        int n = Math.min(a.length(), b.length());
        for (int i = from; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                return Character.isSurrogate(x) || Character.isSurrogate(y)
                        ? Integer.compare(a.codePointAt(i), b.codePointAt(i))
                        : x - y;
            }
        }
        return a.length() - b.length();
    }
}
