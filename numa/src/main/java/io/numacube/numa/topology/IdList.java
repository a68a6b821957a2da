package io.numacube.numa.topology;

import io.numacube.numa.base.NumacubeException;
import java.util.BitSet;

/** Parsing and printing of the kernel's id-list format ({@code 0-3,8,10-11}) and hex masks, shared by
 *  {@link CpuSet} and {@link NodeSet}. Stateless. */
final class IdList {

    private IdList() {}

    static BitSet parse(String text, int maxId, String what) {
        if (text == null) {
            throw new NumacubeException(NumacubeException.Kind.SYNTAX, what + " list is missing (null)");
        }
        String s = text.strip();
        BitSet bits = new BitSet();
        if (s.isEmpty()) {
            return bits;
        }
        for (String part : s.split(",", -1)) {
            String p = part.strip();
            if (p.isEmpty()) {
                throw syntax(what, text, "empty element");
            }
            int dash = p.indexOf('-');
            int lo;
            int hi;
            if (dash < 0) {
                lo = hi = number(p, maxId, what, text);
            } else {
                lo = number(p.substring(0, dash), maxId, what, text);
                hi = number(p.substring(dash + 1), maxId, what, text);
                if (hi < lo) {
                    throw syntax(what, text, "range " + p + " ends before it starts");
                }
            }
            bits.set(lo, hi + 1);
        }
        return bits;
    }

    private static int number(String s, int maxId, String what, String text) {
        String t = s.strip();
        if (t.isEmpty() || t.length() > 10 || !t.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw syntax(what, text, "\"" + s + "\" is not a non-negative integer");
        }
        long v = Long.parseLong(t);
        if (v > maxId) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    what + " id out of range: id=" + v + " max=" + maxId + " in \"" + abbreviate(text) + "\"");
        }
        return (int) v;
    }

    /** Parses a comma-separated hex mask as in {@code Cpus_allowed: ff,ffffffff} (most significant group first). */
    static BitSet parseHexMask(String text, int maxId, String what) {
        String s = text == null ? "" : text.strip();
        BitSet bits = new BitSet();
        if (s.isEmpty()) {
            return bits;
        }
        String[] groups = s.split(",", -1);
        int bit = 0;
        for (int g = groups.length - 1; g >= 0; g--) {
            String grp = groups[g].strip();
            if (grp.isEmpty() || grp.length() > 8 || !grp.chars().allMatch(IdList::isAsciiHexDigit)) {
                throw new NumacubeException(
                        NumacubeException.Kind.SYNTAX,
                        "bad " + what + " mask: \"" + groups[g]
                                + "\" is not a 32-bit hex group in \"" + abbreviate(text)
                                + "\" (expected comma-separated groups of up to 8 hex digits, e.g. ff,ffffffff)");
            }
            long v = Long.parseLong(grp, 16);
            for (int i = 0; i < 32; i++, bit++) {
                if ((v & (1L << i)) != 0) {
                    if (bit > maxId) {
                        throw new NumacubeException(
                                NumacubeException.Kind.INVALID_INPUT,
                                what + " mask sets a bit past the maximum: bit=" + bit + " max=" + maxId);
                    }
                    bits.set(bit);
                }
            }
        }
        return bits;
    }

    private static boolean isAsciiHexDigit(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    static String format(BitSet bits) {
        StringBuilder sb = new StringBuilder();
        int i = bits.nextSetBit(0);
        while (i >= 0) {
            int end = bits.nextClearBit(i) - 1;
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(i);
            if (end > i) {
                sb.append('-').append(end);
            }
            i = bits.nextSetBit(end + 1);
        }
        return sb.toString();
    }

    private static NumacubeException syntax(String what, String text, String why) {
        return new NumacubeException(
                NumacubeException.Kind.SYNTAX,
                "bad " + what + " list: " + why + " in \"" + abbreviate(text)
                        + "\" (expected the kernel list format, e.g. 0-3,8)");
    }

    private static String abbreviate(String text) {
        String t = text.strip();
        return t.length() <= 80 ? t : t.substring(0, 77) + "...";
    }
}
