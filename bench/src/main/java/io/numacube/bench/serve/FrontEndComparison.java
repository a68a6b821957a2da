package io.numacube.bench.serve;

import io.numacube.bench.engine.EngineCube;
import io.numacube.bench.peer.ReferenceQuery;
import io.numacube.bench.peer.ResultComparison;
import io.numacube.bench.peer.ResultTable;
import io.numacube.bench.report.ServeReport.FrontEndQuery;
import io.numacube.bench.stats.Summary;
import io.numacube.engine.Cube;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * One query five ways on the same cube in the same process: embedded ({@link Cube#query}), over HTTP with the JDK's
 * HttpClient and with a plain socket client, and over pgwire in text and in binary. The answers are compared first
 * (every front end against the embedded one); then the five are run in turn, a different one first each round, so that their figures come from
 * the same seconds of a shared machine.
 *
 * <p>Not thread-safe: one comparison at a time (the pgwire connection is single-threaded).
 */
final class FrontEndComparison {

    /** Rounds of warm-up before anything is timed. */
    static final int WARMUP_ROUNDS = 3;
    /** Timed rounds at least and at most. */
    static final int MIN_ROUNDS = 5;

    static final int MAX_ROUNDS = 40;

    private final Cube cube;
    private final HttpSqlClient http;
    private final PlainHttpClient plain;
    private final PgSqlClient pg;
    private final PgSqlClient pgBinary;
    private final double budgetSeconds;

    /** @param budgetSeconds about how long the timed rounds of one query may take */
    FrontEndComparison(
            Cube cube,
            HttpSqlClient http,
            PlainHttpClient plain,
            PgSqlClient pg,
            PgSqlClient pgBinary,
            double budgetSeconds) {
        this.cube = cube;
        this.http = http;
        this.plain = plain;
        this.pg = pg;
        this.pgBinary = pgBinary;
        this.budgetSeconds = budgetSeconds;
    }

    FrontEndQuery compare(ReferenceQuery q, String sql) {
        ResultTable expected = EngineCube.table(cube.query(sql));
        String check = check(q, expected, HttpSqlClient.table(http.query(sql)), "HTTP");
        for (String other : List.of(
                check(q, expected, pg.table(sql), "pgwire"),
                check(q, expected, pgBinary.table(sql), "pgwire binary"))) {
            if (check.equals("OK")) {
                check = other;
            }
        }
        List<Double> engineMs = new ArrayList<>();
        IntSupplier[] ways = {
            () -> cube.query(sql).rowCount(),
            () -> http.query(sql).length,
            () -> {
                byte[] answer = plain.query(sql);
                engineMs.add(engineMillis(answer));
                return answer.length;
            },
            () -> pg.query(sql),
            () -> pgBinary.query(sql)
        };
        for (int r = 0; r < WARMUP_ROUNDS; r++) {
            for (IntSupplier way : ways) {
                way.getAsInt();
            }
        }
        engineMs.clear();
        double[][] seconds = time(ways);
        Summary embedded = Summary.of(seconds[0]);
        Summary overHttp = Summary.of(seconds[1]);
        Summary overPlain = Summary.of(seconds[2]);
        Summary overPg = Summary.of(seconds[3]);
        Summary overPgBinary = Summary.of(seconds[4]);
        return new FrontEndQuery(
                q.name(),
                q.title(),
                expected.rowCount(),
                embedded,
                overHttp,
                overPlain,
                overPg,
                overPgBinary,
                Summary.of(engineMs.stream().mapToDouble(Double::doubleValue).toArray())
                        .median(),
                overHttp.median() / embedded.median(),
                overPlain.median() / embedded.median(),
                overPg.median() / embedded.median(),
                (overHttp.median() - embedded.median()) * 1e3,
                (overPlain.median() - embedded.median()) * 1e3,
                (overPg.median() - embedded.median()) * 1e3,
                (overPgBinary.median() - embedded.median()) * 1e3,
                check);
    }

    /** Rounds of the ways in turn, as many as fit the budget (within the bounds); seconds per way and round. */
    private double[][] time(IntSupplier[] ways) {
        double[][] rounds = new double[ways.length][MAX_ROUNDS];
        long start = System.nanoTime();
        int n = 0;
        while (n < MAX_ROUNDS && (n < MIN_ROUNDS || (System.nanoTime() - start) / 1e9 < budgetSeconds)) {
            for (int k = 0; k < ways.length; k++) {
                int way = (n + k) % ways.length;
                long t0 = System.nanoTime();
                ways[way].getAsInt();
                rounds[way][n] = (System.nanoTime() - t0) / 1e9;
            }
            n++;
        }
        double[][] out = new double[ways.length][];
        for (int k = 0; k < ways.length; k++) {
            out[k] = Arrays.copyOf(rounds[k], n);
        }
        return out;
    }

    /**
     * The {@code stats.ms} of an HTTP answer: the engine's wall time for the query inside the server. Found from the
     * end, where the stats are, so that a large answer is not parsed.
     */
    static double engineMillis(byte[] answer) {
        byte[] key = "\"stats\":{\"ms\":".getBytes(StandardCharsets.US_ASCII);
        for (int i = answer.length - key.length; i >= 0; i--) {
            if (Arrays.equals(answer, i, i + key.length, key, 0, key.length)) {
                int end = i + key.length;
                while (end < answer.length && answer[end] != ',' && answer[end] != '}') {
                    end++;
                }
                return Double.parseDouble(
                        new String(answer, i + key.length, end - i - key.length, StandardCharsets.US_ASCII));
            }
        }
        return Double.NaN;
    }

    private static String check(ReferenceQuery q, ResultTable expected, ResultTable actual, String frontEnd) {
        ResultComparison cmp = ResultComparison.compare(expected, actual, q.ordered(), ResultComparison.SUM_TOLERANCE);
        return cmp.equal() ? "OK" : "FAILED over " + frontEnd + ": " + cmp.difference();
    }
}
