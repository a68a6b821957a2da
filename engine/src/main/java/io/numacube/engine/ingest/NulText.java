package io.numacube.engine.ingest;

/**
 * Text holding a NUL character, which a load refuses as the server's front ends refuse it over the wire: PostgreSQL's
 * text cannot hold one (its COPY says 22021 {@code invalid byte sequence for encoding "UTF8": 0x00}), and libpq
 * clients such as psql would show the value cut at it. DuckDB keeps it, but what numacube loads must come back to a
 * PostgreSQL client as it was. Stateless.
 */
public final class NulText {

    /** PostgreSQL's SQLSTATE for bytes its encoding cannot hold. */
    public static final String SQL_STATE = "22021";

    /** Why such a value is refused, for a message that already names the file, row and column. */
    public static final String PROBLEM = "invalid byte sequence for encoding \"UTF8\": 0x00: the text holds a NUL"
            + " character, which text cannot hold (as in PostgreSQL) — remove it where the file is written";

    private NulText() {}
}
