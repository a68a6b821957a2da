package io.numacube.server;

import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;

/**
 * The cube the server tests query: 20,000 generated trades (tables trades, fx, books; seed 42) on two simulated nodes
 * of one thread each, and {@code kinds}, three rows with a column of every type and a row of NULLs. Opened once per
 * test JVM and shared (the server never changes it); closed when the JVM exits.
 */
public final class TestCube {

    public static final int TRADES = 20_000;

    private static Cube cube;

    private TestCube() {}

    public static synchronized Cube shared() {
        if (cube == null) {
            cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1));
            cube.generateTrades(TRADES, 42, null);
            cube.loadTable(kinds());
            Cube c = cube;
            Runtime.getRuntime().addShutdownHook(new Thread(c::close));
        }
        return cube;
    }

    /**
     * A cube of its own for a test that writes or needs users: table {@code t (id BIGINT, desk TEXT)}, ten rows, ids 0
     * to 9, desks D0, D1, D2 in turn, on two simulated nodes of one thread each. The caller closes it.
     */
    public static Cube tenDesks() {
        Cube c = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1));
        TableStaging t = new TableStaging(TableSchema.parse("t", "id:long,desk:string"));
        for (int i = 0; i < 10; i++) {
            t.setLong(0, i);
            t.setString(1, "D" + (i % 3));
            t.endRow();
        }
        c.loadTable(t);
        return c;
    }

    /** As tools' kinds.csv: id, name, price DECIMAL(15,2), ts, d, flag, x; the last row NULL but for id and name. */
    static TableStaging kinds() {
        TableStaging s = new TableStaging(TableSchema.parse(
                "kinds", "id:long,name:string,price:decimal(15,2),ts:timestamp,d:date,flag:boolean,x:double"));
        long[] ts = {1_700_000_000_000_000L, 1_700_000_001_250_000L};
        for (int i = 0; i < 3; i++) {
            s.setLong(0, i);
            s.setString(1, "n" + i);
            if (i < 2) {
                s.setLong(2, i == 0 ? 1 : 1051);
                s.setLong(3, ts[i]);
                s.setDate(4, 20_000 + i);
                s.setBoolean(5, i == 0);
                s.setDouble(6, i * 1.5e20);
            } else {
                for (int c = 2; c < 7; c++) {
                    s.setNull(c);
                }
            }
            s.endRow();
        }
        return s;
    }
}
