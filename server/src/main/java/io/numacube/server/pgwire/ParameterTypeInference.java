package io.numacube.server.pgwire;

import io.numacube.engine.Cube;
import io.numacube.engine.ParameterType;
import io.numacube.engine.result.Cancellation;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.TableSchema;
import io.numacube.server.pgwire.types.PgType;
import io.numacube.server.query.ParameterizedSql;
import io.numacube.server.write.InsertStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The types of a prepared statement's parameters that the client left unspecified (OID 0), inferred as PostgreSQL
 * infers a parameter of type unknown at Parse, for a client that describes the statement before it binds it and
 * encodes its values by the types described (asyncpg; pgjdbc's {@code getParameterMetaData}): the type of the operand
 * a parameter meets ({@code k = $1}: k's type; {@link Cube#parameterTypes}), an INSERT's target column, BIGINT after
 * LIMIT and OFFSET. A parameter whose type nothing tells, or any whose statement does not bind (its own error comes
 * when it is described or run), stays unspecified: described as text, bound as PostgreSQL binds an unknown. Clients
 * that never describe (node-postgres; psycopg for a {@code str}) get the same types at Bind, so {@code trade_id > $1}
 * with the text {@code 5} compares numbers, as in PostgreSQL.
 *
 * <p>Inferring binds the statement once (its subqueries run); the answers are kept by statement text and declared
 * types, {@value #CACHED} at most, since a table's columns never change while the server runs; a binding that failed
 * for a reason of the rows (a scalar subquery's two rows) is not kept. Thread-safe.
 */
final class ParameterTypeInference {

    static final int CACHED = 1024;

    private final Cube cube;
    private final Map<String, int[]> cache =
            java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>(64, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, int[]> eldest) {
                    return size() > CACHED;
                }
            });

    private final Duration deadline;

    /**
     * @param deadline how long binding a statement to infer its parameters' types may take (it runs the statement's
     *     uncorrelated subqueries): the server's default query timeout, not a session's statement_timeout (what it
     *     infers is kept per text for every session); {@link Duration#ZERO} for none
     */
    ParameterTypeInference(Cube cube, Duration deadline) {
        this.cube = cube;
        this.deadline = deadline;
    }

    /** Cancels inferences past their deadline; one daemon thread for the server. */
    private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("numacube-inference-deadline").factory());

    /** The types {@link Cube#parameterTypes} infers for {@code text}, stopped (57014) past {@link #deadline}. */
    private Map<Integer, ParameterType> bound(String text) {
        if (deadline.isZero()) {
            return cube.parameterTypes(text);
        }
        Cancellation c = new Cancellation();
        ScheduledFuture<?> timer = DEADLINES.schedule(
                () -> c.cancel("canceling statement due to statement timeout (inferring its parameters' types)"),
                deadline.toNanos(),
                TimeUnit.NANOSECONDS);
        try {
            return cube.parameterTypes(text, c);
        } finally {
            timer.cancel(false);
        }
    }

    /** Undefined column, table, function: errors no parameter's type causes. */
    private static final java.util.Set<String> NAME_ERRORS = java.util.Set.of("42703", "42P01", "42883");

    /**
     * {@code sql} with each unspecified parameter as its {@link Cube#parameterMarker marker} (a {@code 0} after LIMIT
     * or OFFSET) and each declared one as a placeholder of its type: the text {@link #resolve} binds, whose positions
     * map back to {@code sql}'s for an error.
     */
    static ParameterizedSql.Substituted marked(ParameterizedSql sql, int[] declared) {
        List<String> substitutes = new ArrayList<>();
        for (int i = 0; i < declared.length; i++) {
            int number = i + 1;
            if (declared[i] != PgType.UNSPECIFIED) {
                substitutes.add(ParameterLiteral.placeholder(declared[i]));
            } else if (afterLimit(sql, number)) {
                substitutes.add("0");
            } else {
                substitutes.add(Cube.parameterMarker(number));
            }
        }
        return sql.substitute(substitutes);
    }

    /**
     * {@code declared} with each unspecified parameter's inferred OID in its place (a new array), from binding {@code
     * marked} ({@link #marked}).
     *
     * @throws io.numacube.numa.base.NumacubeException where {@code marked} names a column, table or function that does
     *     not exist, with its position in {@code marked}
     */
    int[] resolve(ParameterizedSql sql, int[] declared, ParameterizedSql.Substituted marked) {
        String key = java.util.Arrays.toString(declared) + sql.sql();
        int[] known = cache.get(key);
        if (known != null) {
            return known.clone();
        }
        Map<Integer, Integer> met = metTypes(sql, declared, marked);
        int[] out = inferred(sql, declared, met == null ? Map.of() : met);
        if (met != null) {
            cache.put(key, out.clone());
        }
        return out;
    }

    /**
     * The types the unspecified parameters met, by number; null where binding failed for a reason no parameter's
     * type causes and other rows may not (a scalar subquery's two rows): that is not kept, and inferred again later.
     */
    private Map<Integer, Integer> metTypes(ParameterizedSql sql, int[] declared, ParameterizedSql.Substituted marked) {
        for (int i = 0; i < declared.length; i++) {
            if (declared[i] == PgType.UNSPECIFIED && !afterLimit(sql, i + 1)) {
                return infer(marked.sql(), declared.length);
            }
        }
        return Map.of();
    }

    /**
     * As {@link #resolve}, for a Bind that was not described: a statement that does not bind leaves its parameters
     * unspecified, and its error comes when it runs.
     */
    int[] resolveQuietly(ParameterizedSql sql, int[] declared) {
        try {
            return resolve(sql, declared, marked(sql, declared));
        } catch (RuntimeException unbound) {
            return declared;
        }
    }

    private static int[] inferred(ParameterizedSql sql, int[] declared, Map<Integer, Integer> met) {
        int[] out = declared.clone();
        for (int i = 0; i < declared.length; i++) {
            if (declared[i] == PgType.UNSPECIFIED && afterLimit(sql, i + 1)) {
                out[i] = PgType.INT8.oid();
            }
        }
        met.forEach((number, oid) -> out[number - 1] = oid);
        return out;
    }

    private static boolean afterLimit(ParameterizedSql sql, int number) {
        String word = sql.wordBefore(number);
        return word.equals("LIMIT") || word.equals("OFFSET");
    }

    private Map<Integer, Integer> infer(String text, int count) {
        try {
            if (InsertStatement.isInsert(text)) {
                return insertTypes(InsertStatement.parse(text), count);
            }
            if (StatementRunner.isWrite(text) && !isUpdateOrDelete(text)) {
                return Map.of();
            }
            Map<Integer, Integer> out = new HashMap<>();
            bound(text).forEach((number, type) -> out.put(number, oid(type)));
            return out;
        } catch (io.numacube.numa.base.NumacubeException e) {
            if (NAME_ERRORS.contains(e.code())) {
                // no value of a parameter makes a missing column or table exist: the statement's own error
                throw e;
            }
            return null;
        } catch (RuntimeException unbound) {
            // the statement's own error is for its Describe or Execute to report, where it names what it ran
            return null;
        }
    }

    private static boolean isUpdateOrDelete(String text) {
        String head = io.numacube.server.query.SqlLexer.normalize(text);
        return head.regionMatches(true, 0, "UPDATE ", 0, 7) || head.regionMatches(true, 0, "DELETE ", 0, 7);
    }

    /** Each parameter that is a VALUES item of its own: its target column's type. */
    private Map<Integer, Integer> insertTypes(InsertStatement insert, int count) {
        TableSchema schema = cube.schema(insert.table());
        Map<Integer, Integer> out = new HashMap<>();
        for (List<String> row : insert.rows()) {
            for (int i = 0; i < row.size(); i++) {
                int number = markerNumber(row.get(i), count);
                int column = insert.columns().isEmpty()
                        ? i
                        : schema.indexOf(insert.columns().get(i));
                if (number > 0 && column >= 0 && column < schema.size()) {
                    out.putIfAbsent(number, oid(schema.column(column)));
                }
            }
        }
        return out;
    }

    /** The number of the parameter whose marker is {@code value} (a VALUES item's text), else 0. */
    private static int markerNumber(String value, int count) {
        for (int n = 1; value != null && n <= count; n++) {
            String marker = Cube.parameterMarker(n);
            if (value.equals(marker.substring(1, marker.length() - 1))) {
                return n;
            }
        }
        return 0;
    }

    private static int oid(ColumnSpec column) {
        return column.isDecimal()
                ? PgType.NUMERIC.oid()
                : PgType.of(column.type()).oid();
    }

    private static int oid(ParameterType type) {
        return type.scale() > 0 ? PgType.NUMERIC.oid() : PgType.of(type.type()).oid();
    }
}
