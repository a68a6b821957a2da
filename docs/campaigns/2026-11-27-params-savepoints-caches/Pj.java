import java.sql.*;
import java.util.*;

/** pgjdbc with stringtype=unspecified (every setString is OID 0) on PostgreSQL 15 and numacube: answers compared. */
public class Pj {
    static String[][] CASES = {
        {"SELECT count(*) FROM p WHERE id > ?", "5"},
        {"SELECT count(*) FROM p WHERE d > ?", "100.5"},
        {"SELECT count(*) FROM p WHERE d = ?", "271.49"},
        {"SELECT count(*) FROM p WHERE x < ?", "1.5"},
        {"SELECT count(*) FROM p WHERE dt >= ?", "2024-06-01"},
        {"SELECT count(*) FROM p WHERE ts < ?", "2024-06-01 12:00:00"},
        {"SELECT count(*) FROM p WHERE ts < ?", "2024-01-09 24:00:00"},
        {"SELECT count(*) FROM p WHERE b = ?", "true"},
        {"SELECT count(*) FROM p WHERE s = ?", "10"},
        {"SELECT count(*) FROM p WHERE i BETWEEN ? AND ?", "-10", "10"},
        {"SELECT count(*) FROM p WHERE ? BETWEEN i AND id", "10"},
        {"SELECT id, CASE WHEN i > ? THEN ? ELSE i END FROM p ORDER BY id LIMIT 5", "0", "99"},
        {"SELECT id, d * ? FROM p ORDER BY id LIMIT 4", "1.5"},
        {"SELECT id, d * ? FROM p ORDER BY id LIMIT 4", "0.001"},
        {"SELECT count(*) FROM p WHERE i % ? = 0", "3"},
        {"SELECT id FROM p ORDER BY id LIMIT ? OFFSET ?", "3", "10"},
        {"SELECT s, sum(d) FROM p WHERE dt BETWEEN ? AND ? GROUP BY s ORDER BY s", "2024-03-01", "2024-09-30"},
    };

    static String run(Connection c, String[] cs, boolean meta) {
        try (PreparedStatement ps = c.prepareStatement(cs[0])) {
            StringBuilder out = new StringBuilder();
            if (meta) {
                ParameterMetaData pm = ps.getParameterMetaData();
                for (int i = 1; i <= pm.getParameterCount(); i++) out.append(pm.getParameterTypeName(i)).append(',');
                out.append(" | ");
            }
            String first = null;
            for (int rep = 0; rep < 6; rep++) {  // past prepareThreshold 5: a named server statement
                for (int i = 1; i < cs.length; i++) ps.setString(i, cs[i]);
                StringBuilder rows = new StringBuilder();
                try (ResultSet rs = ps.executeQuery()) {
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        for (int j = 1; j <= n; j++) {
                            Object o = rs.getObject(j);
                            rows.append(o instanceof java.math.BigDecimal bd ? bd.stripTrailingZeros().toPlainString() : String.valueOf(o)).append(' ');
                        }
                        rows.append(';');
                    }
                }
                if (first == null) { first = rows.toString(); out.append(first); }
                else if (!first.equals(rows.toString())) out.append(" run ").append(rep + 1).append(": ").append(rows);
            }
            return out.toString();
        } catch (SQLException e) {
            return "ERR " + e.getSQLState() + " " + e.getMessage().split("\n")[0];
        }
    }

    public static void main(String[] a) throws Exception {
        Properties p = new Properties();
        p.setProperty("stringtype", "unspecified");
        p.setProperty("user", "postgres");
        Connection pg = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:55436/postgres", p);
        p.setProperty("user", "me");
        Connection nc = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + a[0] + "/numacube", p);
        int same = 0;
        for (String[] cs : CASES) {
            for (boolean meta : new boolean[] {false, true}) {
                String x = run(pg, cs, meta), y = run(nc, cs, meta);
                if (x.equals(y)) same++;
                else System.out.println((meta ? "META " : "") + Arrays.toString(cs) + "\n  pg " + x + "\n  nc " + y);
            }
        }
        System.out.println("cases " + CASES.length * 2 + " same " + same);
        for (String sql : new String[] {"SELECT id, d * ? FROM p ORDER BY id LIMIT 3", "SELECT sum(d) + ? FROM p", "SELECT id, i * ? FROM p ORDER BY id LIMIT 3"}) {
            StringBuilder[] outs = {new StringBuilder(), new StringBuilder()};
            Connection[] cs = {pg, nc};
            for (int k = 0; k < 2; k++) {
                try (PreparedStatement ps = cs[k].prepareStatement(sql)) {
                    for (String v : new String[] {"2", "1.5", "0.001", "3", "-2.25", "7.125", "1", "0.5", "10.10"}) {
                        ps.setBigDecimal(1, new java.math.BigDecimal(v));
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) outs[k].append(rs.getBigDecimal(2).stripTrailingZeros().toPlainString()).append(' ');
                        } catch (SQLException e) { outs[k].append("ERR ").append(e.getSQLState()).append(' '); }
                        outs[k].append("; ");
                    }
                }
            }
            System.out.println((outs[0].toString().equals(outs[1].toString()) ? "same " : "DIFF ") + sql + "\n  pg " + outs[0] + "\n  nc " + outs[1]);
        }
    }
}
