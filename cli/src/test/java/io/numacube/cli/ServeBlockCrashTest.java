package io.numacube.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of a real {@code numacube serve --data-dir} right after pgjdbc's COMMIT of a transaction block and its
 * {@code executeBatch} (whose writes each Sync commits, pgjdbc sending one every 256 statements or so) were
 * acknowledged: a COMMIT publishes the block's trial rather than applying its statements again, and logs the same
 * statements, which the restart replays; the tables it gives back must be those acknowledged, and those the same
 * random statements give when applied here, one by one, to a list of rows.
 */
class ServeBlockCrashTest {

    private static final Pattern PG = Pattern.compile("postgresql://(\\S+)");
    private static final String STATE = "SELECT b, r, COUNT(*) FROM t GROUP BY b, r ORDER BY b, r";

    @TempDir
    Path root;

    @Test
    void blocksAcknowledgedBeforeKillNineComeBackAsTheyWere() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        String context = "seed=" + seed;
        List<long[]> rows = new ArrayList<>();
        StringBuilder csv = new StringBuilder("b,r\n");
        for (int i = 0; i < 200; i++) {
            rows.add(new long[] {i % 10, i});
            csv.append(i % 10).append(',').append(i).append('\n');
        }
        Path seedCsv = root.resolve("t.csv");
        Files.writeString(seedCsv, csv);
        Path dir = root.resolve("data");
        String acknowledged;
        ServeCrashTest.Child child = ServeCrashTest.Child.start(root, dir, 0, seedCsv);
        try {
            child.awaitReady(context);
            try (Connection c = connect(child);
                    Statement s = c.createStatement()) {
                c.setAutoCommit(false);
                for (int i = 0; i < 60; i++) {
                    s.executeUpdate(statement(i, random, rows));
                }
                c.commit();
                c.setAutoCommit(true);
                try (PreparedStatement up = c.prepareStatement("UPDATE t SET r = r + ? WHERE b = ?")) {
                    for (int i = 0; i < 300; i++) {
                        long b = random.nextInt(12);
                        up.setLong(1, i);
                        up.setLong(2, b);
                        up.addBatch();
                        for (long[] row : rows) {
                            row[1] += row[0] == b ? i : 0;
                        }
                    }
                    up.executeBatch();
                }
                acknowledged = state(s);
            }
        } finally {
            child.kill();
        }
        assertEquals(model(rows), acknowledged, context);
        child = ServeCrashTest.Child.start(root, dir, 1, null);
        try {
            child.awaitReady(context + " after kill -9");
            try (Connection c = connect(child);
                    Statement s = c.createStatement()) {
                assertEquals(acknowledged, state(s), context + " after kill -9");
            }
        } finally {
            child.kill();
        }
    }

    /** A random UPDATE, DELETE or INSERT, also applied to {@code rows}: the independent computation. */
    private static String statement(int i, Random random, List<long[]> rows) {
        long b = random.nextInt(12);
        switch (random.nextInt(4)) {
            case 0 -> {
                long r = random.nextInt(400);
                rows.removeIf(row -> row[1] == r);
                return "DELETE FROM t WHERE r = " + r;
            }
            case 1 -> {
                rows.add(new long[] {b, 1000 + i});
                rows.add(new long[] {b + 1, i});
                return "INSERT INTO t VALUES (" + b + ", " + (1000 + i) + "), (" + (b + 1) + ", " + i + ")";
            }
            default -> {
                for (long[] row : rows) {
                    row[1] += row[0] == b ? i : 0;
                }
                return "UPDATE t SET r = r + " + i + " WHERE b = " + b;
            }
        }
    }

    private static Connection connect(ServeCrashTest.Child child) throws Exception {
        Matcher m = PG.matcher(Files.readAllLines(child.stdout()).getFirst());
        assertTrue(m.find());
        return DriverManager.getConnection("jdbc:postgresql://" + m.group(1) + "/numacube?user=test");
    }

    private static String state(Statement s) throws SQLException {
        StringBuilder out = new StringBuilder();
        try (ResultSet rs = s.executeQuery(STATE)) {
            while (rs.next()) {
                out.append(rs.getLong(1))
                        .append(',')
                        .append(rs.getLong(2))
                        .append(',')
                        .append(rs.getLong(3))
                        .append(' ');
            }
        }
        return out.toString();
    }

    private static String model(List<long[]> rows) {
        Map<List<Long>, Long> counts = new TreeMap<>((x, y) ->
                x.get(0).equals(y.get(0)) ? Long.compare(x.get(1), y.get(1)) : Long.compare(x.get(0), y.get(0)));
        for (long[] row : rows) {
            counts.merge(List.of(row[0], row[1]), 1L, Long::sum);
        }
        StringBuilder out = new StringBuilder();
        counts.forEach((k, n) -> out.append(k.get(0))
                .append(',')
                .append(k.get(1))
                .append(',')
                .append(n)
                .append(' '));
        return out.toString();
    }
}
