package io.numacube.engine.schema;

import io.numacube.numa.base.NumacubeException;
import java.util.List;
import java.util.Locale;

/**
 * Where the cube's tables are in SQL's namespace, as PostgreSQL places a database's tables: in catalog (database)
 * {@value #CATALOG}, schema {@value #SCHEMA}, so {@code trades}, {@code public.trades} and
 * {@code numacube.public.trades} name one table; schema {@value #INFORMATION_SCHEMA} holds the standard views of them
 * ({@code information_schema.columns}), whose tables the engine names with their schema,
 * {@code information_schema.columns}. A table's own name never holds a dot, so a name with one is always qualified.
 * Parts are matched case-insensitively (as the engine matches every identifier). Stateless.
 */
public final class TableNames {

    /** The catalog, PostgreSQL's database, that the tables are in. */
    public static final String CATALOG = "numacube";
    /** The schema the cube's tables are in: PostgreSQL's default. */
    public static final String SCHEMA = "public";
    /** The schema of the standard views of the tables. */
    public static final String INFORMATION_SCHEMA = "information_schema";

    private TableNames() {}

    /**
     * The name of the table that {@code parts} (one to three, as written in SQL) denote: the last part for a table of
     * schema public, {@code information_schema.NAME} for a view of information_schema.
     *
     * @throws NumacubeException 42P01 for a schema other than these (as PostgreSQL: the relation does not exist),
     *     0A000 for another catalog (a cross-database reference), 42601 for more than three parts; without a
     *     position, which the caller adds
     */
    public static String resolve(List<String> parts) {
        if (parts.size() == 1) {
            return parts.getFirst();
        }
        String dotted = String.join(".", parts);
        if (parts.size() > 3) {
            throw error("42601", "improper qualified name (too many dotted names): " + dotted);
        }
        if (parts.size() == 3 && !parts.getFirst().equalsIgnoreCase(CATALOG)) {
            throw error(
                    "0A000",
                    "cross-database references are not implemented: " + dotted + " — the tables are in database "
                            + CATALOG + " (" + CATALOG + "." + SCHEMA + ".NAME, or just NAME)");
        }
        String schema = parts.get(parts.size() - 2);
        String name = parts.getLast();
        if (schema.equalsIgnoreCase(SCHEMA)) {
            return name;
        }
        if (schema.equalsIgnoreCase(INFORMATION_SCHEMA)) {
            return INFORMATION_SCHEMA + "." + name.toLowerCase(Locale.ROOT);
        }
        throw error(
                "42P01",
                "no such table: table=" + dotted + " — schema " + schema + " does not exist; the tables are in schema "
                        + SCHEMA + ", their descriptions in " + INFORMATION_SCHEMA);
    }

    /** {@link #resolve(List)} of a name written with dots ({@code public.trades}); a name without one is itself. */
    public static String resolve(String dotted) {
        return dotted.indexOf('.') < 0 ? dotted : resolve(List.of(dotted.split("\\.", -1)));
    }

    private static NumacubeException error(String code, String message) {
        return new NumacubeException(NumacubeException.Kind.BIND, code, message, null, null);
    }
}
