import java.sql.*;
import java.util.*;

/** pgjdbc DatabaseMetaData of table t on PostgreSQL 15 and numacube, printed column by column for comparison. */
public class Meta {
    static List<String> dump(ResultSet rs, String... cols) throws SQLException {
        List<String> out = new ArrayList<>();
        ResultSetMetaData md = rs.getMetaData();
        while (rs.next()) {
            StringBuilder b = new StringBuilder();
            for (String c : cols) {
                b.append(c).append('=').append(rs.getString(c)).append(' ');
            }
            out.add(b.toString());
        }
        return out;
    }

    static void run(String label, Connection c) throws Exception {
        DatabaseMetaData m = c.getMetaData();
        String[] what = {"getColumns", "getPrimaryKeys", "getIndexInfo", "getTables", "getTypeInfo", "getSchemas", "getImportedKeys", "getBestRowIdentifier"};
        for (String w : what) {
            try {
                List<String> rows = switch (w) {
                    case "getColumns" -> dump(m.getColumns(null, null, "t", null), "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE", "DECIMAL_DIGITS", "NULLABLE", "IS_NULLABLE", "ORDINAL_POSITION", "COLUMN_DEF", "IS_AUTOINCREMENT");
                    case "getPrimaryKeys" -> dump(m.getPrimaryKeys(null, null, "t"), "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME");
                    case "getIndexInfo" -> dump(m.getIndexInfo(null, null, "t", false, false), "TABLE_NAME", "NON_UNIQUE", "INDEX_NAME", "TYPE", "ORDINAL_POSITION", "COLUMN_NAME");
                    case "getTables" -> dump(m.getTables(null, null, "%", new String[] {"TABLE"}), "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE");
                    case "getTypeInfo" -> dump(m.getTypeInfo(), "TYPE_NAME", "DATA_TYPE", "PRECISION");
                    case "getSchemas" -> dump(m.getSchemas(), "TABLE_SCHEM");
                    case "getImportedKeys" -> dump(m.getImportedKeys(null, null, "t"), "PKTABLE_NAME", "FKCOLUMN_NAME");
                    default -> dump(m.getBestRowIdentifier(null, null, "t", DatabaseMetaData.bestRowSession, true), "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME");
                };
                if (w.equals("getTypeInfo")) {
                    rows = rows.stream().filter(r -> r.matches("TYPE_NAME=(int8|int4|numeric|varchar|text|date|timestamp|bool|float8) .*")).toList();
                }
                if (w.equals("getTables")) {
                    rows = rows.stream().filter(r -> r.contains("TABLE_NAME=t ")).toList();
                }
                for (String r : rows) System.out.println(label + " " + w + " " + r);
                System.out.println(label + " " + w + " rows=" + rows.size());
            } catch (SQLException e) {
                System.out.println(label + " " + w + " ERROR " + e.getSQLState() + " " + e.getMessage().split("\n")[0]);
            }
        }
    }

    public static void main(String[] a) throws Exception {
        run("pg", DriverManager.getConnection("jdbc:postgresql://localhost:55437/postgres?user=postgres"));
        run("nc", DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + a[0] + "/numacube?user=me"));
    }
}
