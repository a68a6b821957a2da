package io.numacube.server.pgwire.catalog;

import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The name filters catalog queries carry: a SQL {@code LIKE} pattern ({@code %}, {@code _}, backslash escapes, as
 * pgjdbc writes them) or a POSIX regular expression as psql writes them ({@code ^(tr.*)$}, which Java's regex reads
 * alike). Names match case-insensitively, as the engine matches table and column names. Stateless.
 */
final class NamePattern {

    private NamePattern() {}

    static Predicate<String> like(String pattern) {
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
        Pattern p = Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
        return s -> p.matcher(s).matches();
    }

    static Predicate<String> regex(String posix) {
        Pattern p = Pattern.compile(posix, Pattern.CASE_INSENSITIVE);
        return s -> p.matcher(s).find();
    }

    static Predicate<String> any() {
        return s -> true;
    }
}
