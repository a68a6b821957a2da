package io.numacube.engine.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.schema.ColumnType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The index of a dictionary's values by their bytes, against a map of the values themselves: every value found at
 * its code (NULL's code has none), absent values not found, also after the dictionary grew snapshot by snapshot; and
 * a builder over a dictionary codes the values it holds with their codes, new ones after them, and maps them to
 * themselves when added to a builder that holds them at the same codes.
 */
class TextCodeIndexTest {

    private static final String[] PARTS = {
        "",
        "a",
        "ab",
        "abcdefg",
        "abcdefgh",
        "abcdefghi",
        "CP-0001",
        "CP-00012",
        "counterparty-",
        "Zürich",
        "日本",
        "\u0000",
        "\uD83D\uDE00",
        ",\"x\""
    };

    @Test
    void findsEveryValueAtItsCodeAsTheDictionaryGrows() {
        Random r = new Random(3);
        GrowingDictionary growing = new GrowingDictionary(Dictionary.ofStrings(new String[] {"a", "b"}, false));
        Map<String, Integer> codes = new HashMap<>(Map.of("a", 0, "b", 1));
        List<String> absent = new ArrayList<>();
        for (int round = 0; round < 30; round++) {
            DictionaryBuilder batch = new DictionaryBuilder(ColumnType.STRING);
            for (int i = 0; i < 200; i++) {
                String s = value(r);
                if (round == 7 && i == 3) {
                    batch.nullCode();
                }
                if (r.nextInt(5) == 0 && !codes.containsKey(s)) {
                    absent.add(s);
                    continue;
                }
                batch.codeOf(s);
            }
            int[] map = growing.add(batch);
            for (int c = 0; c < batch.size(); c++) {
                if (c != batch.nullCodeIfAny()) {
                    codes.putIfAbsent(batch.stringAt(c), map[c]);
                }
            }
            Dictionary d = growing.snapshot();
            if (round % 3 != 1) {
                check(d, codes, absent);
            }
        }
    }

    private static void check(Dictionary d, Map<String, Integer> codes, List<String> absent) {
        TextCodeIndex index = d.textIndex();
        assertSame(index, d.textIndex());
        assertEquals(d.size(), index.size());
        for (Map.Entry<String, Integer> e : codes.entrySet()) {
            byte[] b = ("..." + e.getKey() + "!").getBytes(StandardCharsets.UTF_8);
            int to = b.length - 1;
            assertEquals((int) e.getValue(), index.find(b, 3, to, TextCodeIndex.hash(b, 3, to)), e.getKey());
            assertEquals((int) e.getValue(), index.find(e.getKey()), e.getKey());
        }
        for (String s : absent) {
            if (!codes.containsKey(s)) {
                assertEquals(-1, index.find(s), s);
            }
        }
    }

    @Test
    void aBuilderOverADictionaryCodesItsValuesWithItsCodes() {
        Dictionary d = Dictionary.ofStrings(new String[] {"CP-00001", "CP-00002", "counterparty-7", "日本"}, true);
        DictionaryBuilder over = DictionaryBuilder.over(d);
        assertTrue(over.knowsValues());
        assertEquals(2, over.codeOf("counterparty-7"));
        assertEquals(d.nullCode(), over.nullCode());
        assertEquals(d.size(), over.codeOf("new"));
        assertEquals(d.size(), over.find("new"));
        assertEquals(3, over.find("日本"));
        byte[] b = "CP-00002".getBytes(StandardCharsets.UTF_8);
        assertEquals(1, over.knownCode(b, 0, b.length, TextCodeIndex.hash(b, 0, b.length)));
        DictionaryBuilder table = DictionaryBuilder.extending(d);
        int[] map = table.addAll(over);
        for (int c = 0; c < over.size(); c++) {
            assertEquals(
                    c == d.nullCode() ? null : over.stringAt(c), c == d.nullCode() ? null : table.stringAt(map[c]));
        }
        assertEquals(d.size(), map[d.size()]);
        // a table holding other values at those codes maps by value
        DictionaryBuilder other = DictionaryBuilder.extending(Dictionary.ofStrings("日本", "CP-00002"));
        int[] byValue = other.addAll(over);
        assertEquals(0, byValue[3]);
        assertEquals(1, byValue[1]);
        assertEquals("counterparty-7", other.stringAt(byValue[2]));
    }

    @Test
    void aValueWithoutUtf8FormIsNotFoundByTheBytesOfQuestionMarks() {
        Dictionary d = Dictionary.ofStrings("x\uD800", "x?", "ok\uD83D\uDE00");
        TextCodeIndex index = d.textIndex();
        byte[] b = "x?".getBytes(StandardCharsets.UTF_8);
        assertEquals(1, index.find(b, 0, b.length, TextCodeIndex.hash(b, 0, b.length)));
        assertEquals(-1, index.find("x\uD800"));
        assertEquals(2, index.find("ok\uD83D\uDE00"));
        Dictionary lone = Dictionary.ofStrings("x\uD800");
        assertEquals(-1, lone.textIndex().find(b, 0, b.length, TextCodeIndex.hash(b, 0, b.length)));
    }

    @Test
    void aLargeOrNonTextDictionaryHasNoIndex() {
        String[] many = new String[TextCodeIndex.MAX_VALUES + 1];
        for (int i = 0; i < many.length; i++) {
            many[i] = "v" + i;
        }
        assertNull(Dictionary.ofStrings(many, false).textIndex());
        assertNull(Dictionary.ofLongs(ColumnType.INT, 1, 2).textIndex());
        DictionaryBuilder b = DictionaryBuilder.over(Dictionary.ofStrings(many, false));
        assertEquals(0, b.size());
    }

    private static String value(Random r) {
        return PARTS[r.nextInt(PARTS.length)]
                + PARTS[r.nextInt(PARTS.length)]
                + (r.nextBoolean() ? r.nextInt(400) : "");
    }
}
