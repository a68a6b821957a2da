import java.sql.*;
import java.util.*;

/** pgjdbc executeBatch of UPDATE/DELETE/INSERT in autocommit with a bad one in the middle, on PostgreSQL and numacube. */
public class Batch {
    static String run(Connection c, boolean bad, boolean inBlock) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DELETE FROM t WHERE id >= 700");
            s.execute("INSERT INTO t (id, v, s) VALUES (700, 1, 'a'), (701, 2, 'b'), (702, 3, 'c'), (703, 4, 'd')");
        }
        c.setAutoCommit(!inBlock);
        String outcome;
        try (PreparedStatement u = c.prepareStatement("UPDATE t SET v = v + ? WHERE id = ?");
             PreparedStatement d = c.prepareStatement("DELETE FROM t WHERE id = ?")) {
            for (int i = 0; i < 4; i++) {
                u.setLong(1, i == 2 && bad ? Long.MAX_VALUE : 10); u.setLong(2, 700 + i); u.addBatch();
            }
            d.setLong(1, 703); d.addBatch();
            try {
                outcome = "ok " + Arrays.toString(u.executeBatch()) + " " + Arrays.toString(d.executeBatch());
                if (inBlock) c.commit();
            } catch (SQLException e) {
                outcome = "err " + e.getSQLState();
                if (inBlock) c.rollback();
            }
        }
        c.setAutoCommit(true);
        StringBuilder b = new StringBuilder(outcome).append(" |");
        try (ResultSet rs = c.createStatement().executeQuery("SELECT id, v FROM t WHERE id >= 700 ORDER BY id")) {
            while (rs.next()) b.append(' ').append(rs.getLong(1)).append('=').append(rs.getLong(2));
        }
        return b.toString();
    }

    public static void main(String[] a) throws Exception {
        Connection pg = DriverManager.getConnection("jdbc:postgresql://localhost:55437/postgres?user=postgres");
        Connection nc = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + a[0] + "/numacube?user=me");
        for (boolean bad : new boolean[] {false, true}) {
            for (boolean block : new boolean[] {false, true}) {
                String p = run(pg, bad, block), n = run(nc, bad, block);
                System.out.println((p.equals(n) ? "same " : "DIFF ") + "bad=" + bad + " block=" + block + "\n  pg " + p + "\n  nc " + n);
            }
        }
    }
}
