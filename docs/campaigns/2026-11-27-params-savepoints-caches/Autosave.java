import java.sql.*;
import java.util.*;

/** pgjdbc autosave=always (a SAVEPOINT before each statement, ROLLBACK TO it on an error) in a block, on PostgreSQL 15 and numacube. */
public class Autosave {
    static String run(String url, String user) throws Exception {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("autosave", "always");
        StringBuilder out = new StringBuilder();
        try (Connection c = DriverManager.getConnection(url, p); Statement s = c.createStatement()) {
            s.execute("DELETE FROM sp WHERE id >= 700");
            c.setAutoCommit(false);
            s.execute("INSERT INTO sp VALUES (701, 1, 'as')");
            try { s.execute("SELECT nosuch FROM sp"); } catch (SQLException e) { out.append("err ").append(e.getSQLState()).append(' '); }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO sp VALUES (?, ?, ?)")) {
                for (int i = 702; i < 706; i++) { ps.setLong(1, i); ps.setLong(2, i == 704 ? 0 : i); ps.setString(3, "as"); ps.addBatch(); }
                ps.executeBatch();
            }
            try { s.execute("INSERT INTO sp VALUES (710, 'bad', 'as')"); } catch (SQLException e) { out.append("err ").append(e.getSQLState().substring(0, 2)).append(' '); }
            s.execute("UPDATE sp SET v = v + 1 WHERE s = 'as'");
            try { s.execute("UPDATE sp SET v = 'x' WHERE s = 'as'"); } catch (SQLException e) { out.append("err ").append(e.getSQLState().substring(0, 2)).append(' '); }
            Savepoint sp = c.setSavepoint("mine");
            s.execute("DELETE FROM sp WHERE id = 705");
            c.rollback(sp);
            s.execute("DELETE FROM sp WHERE id = 702");
            c.commit();
            c.setAutoCommit(true);
            try (ResultSet rs = s.executeQuery("SELECT id, v FROM sp WHERE s = 'as' ORDER BY id")) {
                while (rs.next()) out.append(rs.getLong(1)).append('=').append(rs.getLong(2)).append(' ');
            }
            s.execute("DELETE FROM sp WHERE id >= 700");
        }
        return out.toString();
    }

    public static void main(String[] a) throws Exception {
        String x = run("jdbc:postgresql://127.0.0.1:55436/postgres", "postgres");
        String y = run("jdbc:postgresql://127.0.0.1:" + a[0] + "/numacube", "me");
        System.out.println((x.equals(y) ? "same" : "DIFF") + "\n  pg " + x + "\n  nc " + y);
    }
}
