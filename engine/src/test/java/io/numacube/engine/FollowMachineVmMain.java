package io.numacube.engine;

import io.numacube.engine.storage.ProgressListener;
import io.numacube.numa.NumaRuntime;
import io.numacube.numa.topology.CpuSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The real-kernel check of issue 13, run inside the multi-node VM by {@code tools/numa-vm/guest-follow.sh} (check
 * {@code follow} of the two-node configuration), in a cgroup v2 whose cpuset allows nodes 0 and 1:
 * opens a cube that follows the machine, generates trades on both nodes, runs a query loop, writes {@code
 * DIR/follow.ready}; the script then narrows the cgroup to node 1 (cpus and mems) and writes the time into {@code
 * DIR/follow.narrowed} (for the host). This sees the narrowing in its own {@code Mems_allowed_list}, waits (60 s at
 * most) until every partition is on node 1 with at least 99 % of its pages there and every worker thread may run only
 * on node 1's CPUs, keeps querying 2 s more, and prints one JSON object on stdout: the partitions, the workers' CPUs,
 * when it saw the narrowing and when it converged (epoch ms), the seconds between, the queries run (each of
 * the three counts) and those that ended between the narrowing and convergence, failures and changed answers, and the log lines. It asserts nothing: the host's {@code
 * FollowMachineInVmTest} does. {@code java ... FollowMachineVmMain DIR [ROWS]}.
 */
public final class FollowMachineVmMain {

    private static final List<String> QUERIES = List.of(
            "SELECT desk, SUM(pnl), COUNT(*), MIN(notional), MAX(notional) FROM trades GROUP BY desk ORDER BY desk",
            "SELECT currency, AVG(pnl) FROM trades WHERE notional > 500000 GROUP BY currency ORDER BY currency",
            "SELECT COUNT(*), SUM(trade_id) FROM trades");

    private FollowMachineVmMain() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        long rows = args.length > 1 ? Long.parseLong(args[1]) : 2_000_000;
        long t0 = System.nanoTime();
        CpuSet node1 = NumaRuntime.detect().topology().node(1).orElseThrow().cpus();
        List<String> logLines = new ArrayList<>();
        try (Cube cube = Cube.open(CubeOptions.defaults())) {
            cube.followMachine(new FollowOptions(java.time.Duration.ofSeconds(1), 32L << 20), c -> {
                System.err.println("-- " + c.logLine());
                synchronized (logLines) {
                    logLines.add(c.logLine());
                }
            });
            cube.generateTrades(rows, 13, ProgressListener.NONE);
            List<PartitionInfo> before = cube.placement();
            List<String> expected = answers(cube);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong ran = new AtomicLong();
            ConcurrentLinkedQueue<Long> endTimes = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            AtomicLong changed = new AtomicLong();
            Thread loop = Thread.ofPlatform().name("query-loop").start(() -> {
                while (!stop.get()) {
                    for (int q = 0; q < QUERIES.size() && !stop.get(); q++) {
                        try {
                            if (!cube.query(QUERIES.get(q)).toString().equals(expected.get(q))) {
                                changed.incrementAndGet();
                            }
                            ran.incrementAndGet();
                            endTimes.add(System.currentTimeMillis());
                        } catch (RuntimeException e) {
                            failures.add(String.valueOf(e));
                        }
                    }
                }
            });
            while (ran.get() < 2 * QUERIES.size() && failures.isEmpty()) {
                Thread.sleep(50);
            }
            long ranBefore = ran.get();
            String memsAtStart = memsAllowed();
            Files.writeString(dir.resolve("follow.ready"), "ready\n");
            long readyAt = System.currentTimeMillis();
            long narrowedAt = 0;
            long convergedAt = 0;
            String lastState = "";
            // the narrowing is seen in this process's own status, not in a file the script writes: a lookup of a file
            // that does not exist yet on the 9p share is remembered, and the file then never appears to this process
            while (System.currentTimeMillis() - readyAt < 60_000) {
                Thread.sleep(250);
                if (narrowedAt == 0) {
                    if (memsAllowed().equals(memsAtStart)) {
                        continue;
                    }
                    narrowedAt = System.currentTimeMillis();
                }
                lastState = state(cube, node1);
                if (lastState.isEmpty()) {
                    convergedAt = System.currentTimeMillis();
                    break;
                }
            }
            Thread.sleep(2000);
            stop.set(true);
            loop.join();
            List<PartitionInfo> after = cube.placement();
            StringBuilder json = new StringBuilder("{");
            field(json, "rows", rows).append(',');
            field(json, "node1_cpus", '"' + node1.toList() + '"').append(',');
            field(json, "narrowed", narrowedAt > 0).append(',');
            field(json, "converged", convergedAt > 0).append(',');
            field(json, "not_converged_because", quote(lastState)).append(',');
            field(json, "narrowed_seen_at_ms", narrowedAt).append(',');
            field(json, "converged_at_ms", convergedAt).append(',');
            field(json, "seconds_to_converge", convergedAt > 0 ? secs(convergedAt - narrowedAt) : "null")
                    .append(',');
            field(json, "queries_run", ran.get()).append(',');
            field(json, "queries_before_narrowing", ranBefore).append(',');
            long lo = narrowedAt;
            long hi = convergedAt > 0 ? convergedAt : Long.MAX_VALUE;
            field(
                            json,
                            "queries_during_move",
                            endTimes.stream().filter(t -> t >= lo && t <= hi).count())
                    .append(',');
            field(json, "query_failures", failures.size()).append(',');
            field(json, "first_failure", quote(failures.isEmpty() ? "" : failures.peek()))
                    .append(',');
            field(json, "answers_changed", changed.get()).append(',');
            json.append("\"partitions_before\":").append(partitions(before)).append(',');
            json.append("\"partitions\":").append(partitions(after)).append(',');
            json.append("\"workers\":").append(workers()).append(',');
            synchronized (logLines) {
                json.append("\"log\":[");
                for (int i = 0; i < logLines.size(); i++) {
                    json.append(i == 0 ? "" : ",").append(quote(logLines.get(i)));
                }
                json.append("],");
            }
            field(json, "seconds_total", secs((System.nanoTime() - t0) / 1_000_000));
            System.out.println(json.append('}'));
        }
    }

    private static List<String> answers(Cube cube) {
        List<String> out = new ArrayList<>();
        for (String q : QUERIES) {
            out.add(cube.query(q).toString());
        }
        return out;
    }

    /** Why the cube has not converged on node 1 yet; empty when it has. */
    private static String state(Cube cube, CpuSet node1) throws IOException {
        for (PartitionInfo p : cube.placement()) {
            if (p.memoryNode() != 1 || !(p.pagesOnNodePct() >= 99.0)) {
                return "partition " + p.partitionId() + " memory_node=" + p.memoryNode() + " pct=" + p.pagesOnNodePct();
            }
        }
        for (String[] w : workerCpus()) {
            if (!node1.containsAll(CpuSet.parse(w[1]))) {
                return "worker " + w[0] + " cpus=" + w[1];
            }
        }
        return "";
    }

    /** Each numacube worker thread's name and Cpus_allowed_list, from /proc/self/task. */
    private static List<String[]> workerCpus() throws IOException {
        List<String[]> out = new ArrayList<>();
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : tasks.toList()) {
                try {
                    String name = Files.readString(t.resolve("comm")).strip();
                    if (!name.startsWith("numacube-n")) {
                        continue;
                    }
                    for (String line : Files.readAllLines(t.resolve("status"))) {
                        if (line.startsWith("Cpus_allowed_list:")) {
                            out.add(new String[] {
                                name, line.substring(line.indexOf(':') + 1).strip()
                            });
                        }
                    }
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            }
        }
        return out;
    }

    private static String workers() throws IOException {
        StringBuilder b = new StringBuilder("[");
        List<String[]> ws = workerCpus();
        for (int i = 0; i < ws.size(); i++) {
            b.append(i == 0 ? "" : ",")
                    .append("{\"name\":")
                    .append(quote(ws.get(i)[0]))
                    .append(",\"cpus\":")
                    .append(quote(ws.get(i)[1]))
                    .append('}');
        }
        return b.append(']').toString();
    }

    private static String partitions(List<PartitionInfo> ps) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < ps.size(); i++) {
            PartitionInfo p = ps.get(i);
            b.append(i == 0 ? "" : ",")
                    .append(String.format(
                            Locale.ROOT,
                            "{\"table\":%s,\"id\":%d,\"home_node\":%d,\"memory_node\":%d,\"bytes\":%d,"
                                    + "\"pages_on_node_pct\":%s}",
                            quote(p.table()),
                            p.partitionId(),
                            p.homeNode(),
                            p.memoryNode(),
                            p.bytes(),
                            Double.isNaN(p.pagesOnNodePct()) ? "null" : String.valueOf(p.pagesOnNodePct())));
        }
        return b.append(']').toString();
    }

    /** This process's Mems_allowed_list (the cgroup's effective mems), from /proc/self/status. */
    private static String memsAllowed() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("Mems_allowed_list:")) {
                return line.substring(line.indexOf(':') + 1).strip();
            }
        }
        return "";
    }

    private static String secs(long millis) {
        return String.format(Locale.ROOT, "%.2f", millis / 1000.0);
    }

    private static StringBuilder field(StringBuilder b, String name, Object value) {
        return b.append('"').append(name).append("\":").append(value);
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> {
                    if (ch < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
