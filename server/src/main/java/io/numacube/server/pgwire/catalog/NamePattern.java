package io.numacube.server.pgwire.catalog;

import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The name filters catalog queries carry: a SQL {@code LIKE} pattern ({@code %}, {@code _}, backslash escapes, as
 * pgjdbc writes them) or a POSIX regular expression as psql writes them ({@code ^(tr.*)$}, which Java's regex reads
 * alike). As in PostgreSQL, {@code LIKE} and {@code ~} match case-sensitively, {@code ILIKE} and {@code ~*} not.
 * Stateless.
 */
final class NamePattern {

    private NamePattern() {}

    static Predicate<String> like(String pattern) {
        return like(pattern, 0);
    }

    static Predicate<String> ilike(String pattern) {
        return like(pattern, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    }

    private static Predicate<String> like(String pattern, int flags) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) {
                re.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (c == '%') {
                re.append(".*");
            } else if (c == '_') {
                re.append('.');
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        Pattern p = Pattern.compile(re.toString(), flags | Pattern.DOTALL);
        return s -> p.matcher(s).matches();
    }

    /**
     * A POSIX regular expression of the plain kind Java reads alike (letters, {@code . * + ? | ^ $ ( ) [ ] { }},
     * backslash before punctuation), or empty for one with classes or escapes that differ ({@code [[:alpha:]]},
     * {@code \\m}, {@code \\y}, ...).
     */
    static Optional<Predicate<String>> regex(String posix, boolean caseInsensitive) {
        if (posix.contains("[:") || posix.contains("[=") || posix.contains("[.") || posix.matches("(?s).*\\\\\\w.*")) {
            return Optional.empty();
        }
        try {
            Pattern p = Pattern.compile(posix, caseInsensitive ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
            return Optional.of(s -> p.matcher(s).find());
        } catch (PatternSyntaxException e) {
            return Optional.empty();
        }
    }
}
