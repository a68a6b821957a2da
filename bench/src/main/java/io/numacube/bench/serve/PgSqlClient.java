package io.numacube.bench.serve;

import io.numacube.bench.peer.ResultTable;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * One pgjdbc connection to {@code numacube serve}'s PostgreSQL front end, running statements as a JDBC application
 * does, every row read into the driver's memory before the first {@code next}: in text, by {@link Statement#executeQuery}
 * (the extended protocol's unnamed statement); or in binary, by one {@link PreparedStatement} per query text, prepared
 * on the server from its first run ({@code prepareThreshold=-1}) so that pgjdbc asks for every field it can read in
 * binary, as it does for any prepared statement after its fifth run.
 *
 * <p>Not thread-safe: one thread per connection. {@link #close()} ends the session.
 */
final class PgSqlClient implements AutoCloseable {

    private final Connection connection;
    private final Statement statement;
    private final boolean binary;
    private final Map<String, PreparedStatement> prepared = new HashMap<>();

    /**
     * @param port   the server's PostgreSQL port on 127.0.0.1
     * @param binary whether to run prepared statements with binary fields rather than text
     */
    PgSqlClient(int port, boolean binary) {
        this.binary = binary;
        Properties login = new Properties();
        login.setProperty("user", "bench");
        login.setProperty("password", "");
        if (binary) {
            login.setProperty("prepareThreshold", "-1");
        }
        try {
            connection = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/numacube", login);
            statement = connection.createStatement();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect over pgwire: port=" + port + " error=" + e.getMessage(), e);
        }
    }

    /** Runs {@code sql} and reads every row (without converting its values); the rows. */
    int query(String sql) {
        try (ResultSet rs = run(sql)) {
            int rows = 0;
            while (rs.next()) {
                rows++;
            }
            return rows;
        } catch (SQLException e) {
            throw failed(sql, e);
        }
    }

    /** The answer to {@code sql} in the bench's neutral form. */
    ResultTable table(String sql) {
        try (ResultSet rs = run(sql)) {
            int n = rs.getMetaData().getColumnCount();
            List<String> columns = new ArrayList<>(n);
            for (int c = 1; c <= n; c++) {
                columns.add(rs.getMetaData().getColumnLabel(c));
            }
            List<List<Object>> rows = new ArrayList<>();
            while (rs.next()) {
                List<Object> row = new ArrayList<>(n);
                for (int c = 1; c <= n; c++) {
                    row.add(rs.getObject(c));
                }
                rows.add(row);
            }
            return new ResultTable(columns, rows);
        } catch (SQLException e) {
            throw failed(sql, e);
        }
    }

    private ResultSet run(String sql) throws SQLException {
        if (!binary) {
            return statement.executeQuery(sql);
        }
        PreparedStatement p = prepared.get(sql);
        if (p == null) {
            p = connection.prepareStatement(sql);
            prepared.put(sql, p);
        }
        return p.executeQuery();
    }

    private static IllegalStateException failed(String sql, SQLException e) {
        return new IllegalStateException(
                "a query over pgwire failed: sqlstate=" + e.getSQLState() + " error=" + e.getMessage() + " sql=" + sql,
                e);
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            // the session ends with the server anyway
        }
    }
}
