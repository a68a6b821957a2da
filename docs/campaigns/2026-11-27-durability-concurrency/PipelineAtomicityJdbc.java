// Open finding (see pipeline_atomicity.py): pgjdbc executeBatch() in autocommit is one implicit transaction in
// PostgreSQL; numacube keeps the first UPDATEs of a failing batch. Run: java -cp postgresql-42.7.14.jar
// PipelineAtomicityJdbc.java PG_PORT
import java.sql.*;
public class PipelineAtomicityJdbc {
  public static void main(String[] a) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + a[0] + "/x", "x", "")) {
      c.setAutoCommit(true);
      try (Statement s = c.createStatement()) { s.execute("INSERT INTO ledger VALUES (60,1,0,0,'j')"); }
      try (PreparedStatement p = c.prepareStatement("UPDATE ledger SET ver = ver + 1 WHERE wid = ?")) {
        p.setInt(1, 60); p.addBatch(); p.setInt(1, 60); p.addBatch(); p.setString(1, "zz"); p.addBatch();
        p.executeBatch();
      } catch (SQLException e) { System.out.println("batch error: " + e.getMessage().split("\n")[0]); }
      try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT wid, ver FROM ledger WHERE wid = 60")) {
        while (r.next()) System.out.println("wid=" + r.getInt(1) + " ver=" + r.getLong(2) + " (PostgreSQL: ver=0, the batch is one implicit transaction)");
      }
    }
  }
}
