import java.sql.*;
public class Meta {
    static void dump(ResultSet rs) throws Exception {
        ResultSetMetaData m = rs.getMetaData();
        StringBuilder h = new StringBuilder();
        for (int i = 1; i <= m.getColumnCount(); i++) h.append(i > 1 ? "|" : "").append(m.getColumnLabel(i));
        System.out.println(h);
        while (rs.next()) {
            StringBuilder r = new StringBuilder();
            for (int i = 1; i <= m.getColumnCount(); i++) { Object v = rs.getObject(i); r.append(i > 1 ? "|" : "").append(v == null ? "NULL" : v); }
            System.out.println(r);
        }
        rs.close();
    }
    public static void main(String[] a) throws Exception {
        try (Connection c = DriverManager.getConnection(a[0], "postgres", "")) {
            DatabaseMetaData md = c.getMetaData();
            System.out.println("## getPrimaryKeys t"); dump(md.getPrimaryKeys(null, null, "t"));
            System.out.println("## getPrimaryKeys trades"); dump(md.getPrimaryKeys(null, "public", "trades"));
            System.out.println("## getIndexInfo t"); dump(md.getIndexInfo(null, null, "t", false, false));
            System.out.println("## getIndexInfo trades unique"); dump(md.getIndexInfo(null, "public", "trades", true, true));
            System.out.println("## getPrimaryKeys public.t"); dump(md.getPrimaryKeys(null, "public", "t")); System.out.println("## getIndexInfo t unique"); dump(md.getIndexInfo(null, "public", "t", true, true));
        }
    }
}
