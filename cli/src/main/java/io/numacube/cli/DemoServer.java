package io.numacube.cli;

import io.numacube.engine.Cube;
import io.numacube.engine.FollowOptions;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.query.ServerMetrics;
import io.numacube.server.write.WriteService;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * {@code numacube demo --serve}: the demo's cube, its tables as generated and placed, served over HTTP (the pivot page
 * at {@code /}, the placement view at {@code /placement.html}) and the PostgreSQL protocol on loopback, without users,
 * until SIGTERM or Ctrl-C. Prints the page's URL and then, last, the ready line {@code serve} prints, so that scripts
 * wait for one line as they do for {@code serve}. Like {@code serve} it follows the machine (on real nodes: a change
 * of the bindings re-pins the workers and moves partitions, one line on stderr and an entry of the placement view's
 * history). Not durable: the data lives as long as the process.
 *
 * <p>Owns the cube from {@link #serveUntilStopped} on: the shutdown hook stops the front ends, closes the cube and
 * halts with status 0.
 */
final class DemoServer {

    private DemoServer() {}

    /** Serves {@code cube} on the given ports (0: free ones) until the process is stopped; never returns normally. */
    static void serveUntilStopped(Cube cube, int httpPort, int pgPort, PrintWriter out, PrintWriter err)
            throws IOException, InterruptedException {
        ServerOptions options = ServerOptions.defaults(Main.VERSION).withPorts(httpPort, pgPort);
        ServerMetrics metrics = new ServerMetrics();
        follow(cube, metrics, err);
        NumacubeServer server = NumacubeServer.start(cube, options, WriteService.BatchLog.NONE, metrics);
        out.println();
        out.println("serving the demo's cube (" + String.join(", ", cube.tables()) + ") until Ctrl-C:");
        out.println("  pivot page:  " + server.httpUrl() + "/");
        out.println("  placement:   " + server.httpUrl() + "/placement.html");
        out.println("  psql:        psql -h " + server.pgAddress().getAddress().getHostAddress() + " -p "
                + server.pgAddress().getPort() + " numacube");
        out.println(server.readyLine());
        out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(server, cube, err), "numacube-demo-shutdown"));
        new CountDownLatch(1).await();
    }

    /** As {@code serve}'s default: bindings re-read every second, moves at 256 MiB/s at most; not on simulated nodes. */
    private static void follow(Cube cube, ServerMetrics metrics, PrintWriter err) {
        if (cube.options().simulatedNodes() > 0) {
            return;
        }
        cube.followMachine(FollowOptions.defaults(), c -> {
            metrics.placementChange(c);
            err.println("-- " + c.logLine());
            err.flush();
        });
    }

    private static void stop(NumacubeServer server, Cube cube, PrintWriter err) {
        boolean drained = server.shutdown(Duration.ofSeconds(5));
        if (drained) {
            cube.close();
        }
        err.println("-- demo stopped");
        err.flush();
        Runtime.getRuntime().halt(0);
    }
}
