package io.numacube.engine.ingest.csv;

import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import java.util.List;

/**
 * A schema inferred from the first rows of a CSV source, and why: one {@link Note} for each column whose type was
 * widened (integers, then a value that made the column DOUBLE) or fell back to text (numbers or dates, then a value
 * that is neither). Immutable.
 *
 * @param schema the inferred schema
 * @param notes  at most one per column, in column order
 */
public record CsvInference(TableSchema schema, List<Note> notes) {

    public CsvInference {
        notes = List.copyOf(notes);
    }

    /**
     * The first sampled value that gave a column its type.
     *
     * @param column the column name
     * @param type   the inferred type
     * @param value  the value, as in the file
     * @param source the file name, as given
     * @param line   the value's 1-based line
     * @param reason why the value made the type, e.g. "is not an integer"
     */
    public record Note(String column, ColumnType type, String value, String source, long line, String reason) {

        /** One line: {@code column v is DOUBLE: value "1.5" at f.csv:3 is not an integer}. */
        public String text() {
            return "column " + column + " is " + type + ": value \"" + CsvTableReader.escape(value) + "\" at " + source
                    + ":" + line + " " + reason;
        }
    }

    /** The note about {@code column}, or null when its type needed no explanation. */
    public Note note(String column) {
        return notes.stream()
                .filter(n -> n.column().equalsIgnoreCase(column))
                .findFirst()
                .orElse(null);
    }
}
