import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.query.ServerMetrics;
import io.numacube.server.write.WriteService;
import java.sql.*;
import java.util.*;

/** In-process server over 10,000 rows; pgjdbc executeBatch of N single-row UPDATEs (autocommit) and a block of M UPDATEs. Prints ms. */
public class BlockBench {
    public static void main(String[] a) throws Exception {
        String label = a[0];
        int rounds = Integer.parseInt(a[1]);
        try (Cube cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1))) {
            TableStaging t = new TableStaging(TableSchema.parse("t", "id:long,desk:string,qty:double"));
            for (int i = 0; i < 10_000; i++) { t.setLong(0, i); t.setString(1, "D" + (i % 7)); t.setDouble(2, i * 0.5); t.endRow(); }
            cube.loadTable(t);
            io.numacube.server.durable.DurableStore store = a.length > 2
                    ? io.numacube.server.durable.DurableStore.open(java.nio.file.Files.createTempDirectory("onceapply-bench").resolve("data"), io.numacube.server.wal.WalOptions.defaults())
                    : null;
            WriteService writes = new WriteService(cube, store == null ? WriteService.BatchLog.NONE : store.batchLog());
            if (store != null) store.checkpoint(writes);
            try (NumacubeServer server = NumacubeServer.start(ServerOptions.defaults("test").withPorts(0, 0), writes, new ServerMetrics());
                 Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.pgAddress().getPort() + "/numacube?user=test")) {
                Random r = new Random(1);
                for (int round = 0; round < rounds; round++) {
                    com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
                    long c0 = os.getProcessCpuTime();
                    long t0 = System.nanoTime();
                    try (PreparedStatement u = c.prepareStatement("UPDATE t SET qty = qty + ? WHERE id = ?")) {
                        for (int i = 0; i < 2000; i++) { u.setDouble(1, 1); u.setLong(2, r.nextInt(10_000)); u.addBatch(); }
                        int[] n = u.executeBatch();
                        if (Arrays.stream(n).sum() != 2000) throw new AssertionError();
                    }
                    long t1 = System.nanoTime();
                    long c1 = os.getProcessCpuTime();
                    c.setAutoCommit(false);
                    try (Statement s = c.createStatement()) {
                        for (int i = 0; i < 200; i++) {
                            if (s.executeUpdate("UPDATE t SET qty = qty * 2 WHERE id = " + r.nextInt(10_000)) != 1) throw new AssertionError();
                        }
                    }
                    c.commit();
                    c.setAutoCommit(true);
                    long t2 = System.nanoTime();
                    long c2 = os.getProcessCpuTime();
                    System.out.printf("%s round=%d batch2000_ms=%.0f cpu=%.0f block200_ms=%.0f cpu=%.0f%n", label, round, (t1 - t0) / 1e6, (c1 - c0) / 1e6, (t2 - t1) / 1e6, (c2 - c1) / 1e6);
                }
            }
        }
    }
}
