package io.numacube.cli.multinode;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Typed reads of {@code numacube doctor --json} fields (the contract in the README): a missing or mistyped field
 * fails the test with the field's path. Stateless.
 */
final class Doctor {

    private Doctor() {}

    static JsonNode at(JsonNode doc, String pointer) {
        JsonNode n = doc.at(pointer);
        if (n.isMissingNode()) {
            fail("doctor JSON has no " + pointer);
        }
        return n;
    }

    /** A JSON array of node ids. */
    static SortedSet<Integer> ids(JsonNode doc, String pointer) {
        JsonNode n = at(doc, pointer);
        if (!n.isArray()) {
            fail("doctor JSON " + pointer + " is not an array of ints: " + n);
        }
        SortedSet<Integer> ids = new TreeSet<>();
        n.forEach(e -> {
            if (!e.isInt()) {
                fail("doctor JSON " + pointer + " holds a non-int: " + n);
            }
            ids.add(e.asInt());
        });
        return ids;
    }

    /** A CPU list string in kernel list format. */
    static SortedSet<Integer> cpus(JsonNode doc, String pointer) {
        JsonNode n = at(doc, pointer);
        if (!n.isTextual()) {
            fail("doctor JSON " + pointer + " is not a list string: " + n);
        }
        return VmResults.parseList(n.asText());
    }

    /** An object whose keys are node ids, mapped to ints ({@code filler_node}, {@code pages_by_node}). */
    static SortedMap<Integer, Long> intMap(JsonNode doc, String pointer) {
        JsonNode n = at(doc, pointer);
        SortedMap<Integer, Long> m = new TreeMap<>();
        n.properties()
                .forEach(e -> m.put(Integer.parseInt(e.getKey()), e.getValue().asLong()));
        return m;
    }

    /** The process policy "mode[=flags][:nodes]" split into its mode and nodes. */
    record Policy(String mode, SortedSet<Integer> nodes) {
        static Policy parse(String text) {
            int colon = text.indexOf(':');
            String mode = colon < 0 ? text : text.substring(0, colon);
            int eq = mode.indexOf('=');
            return new Policy(
                    eq < 0 ? mode : mode.substring(0, eq),
                    colon < 0 ? new TreeSet<>() : VmResults.parseList(text.substring(colon + 1)));
        }
    }
}
