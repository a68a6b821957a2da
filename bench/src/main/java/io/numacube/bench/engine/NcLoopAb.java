package io.numacube.bench.engine;

import io.numacube.bench.baseline.LoopCube;
import io.numacube.bench.data.GeneratedTrades;
import io.numacube.bench.peer.ReferenceQuery;
import io.numacube.bench.peer.ResultComparison;
import io.numacube.bench.peer.ResultTable;
import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.result.QueryStats;
import io.numacube.engine.storage.ProgressListener;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * numacube against the bench's plain loop ({@link LoopCube}) on the same generated trades in one process, query by
 * query, for the peers section's nc/loop ratio without its minutes apart: each round runs the loop, then numacube (once
 * per setting of the toggled properties), each {@code best} times, keeping its best; the order of the contenders
 * rotates by round. Prints, per query, the median over rounds of each contender's best, numacube's over the loop's, and
 * numacube's phases (parse and bind = wall - plan - scan - finish). With {@value #TOGGLE} naming engine boolean system
 * properties (comma-separated), numacube runs with them all {@code false} and all {@code true} in turn (an A/B in one
 * process), and the two answers are checked equal to the bit (same doubles, same order) before timing. Each numacube
 * answer is also checked equal to the loop's (sums within {@link ResultComparison#SUM_TOLERANCE}: the loop adds in
 * another order). Stdout only; exit status 1 when an answer differs. Not thread-safe: one run.
 *
 * <p>Usage: {@code NcLoopAb <rows> <threads> <rounds> <best> <query>...} (queries as Q1..Q6), e.g.
 * {@code java -Dncloop.toggle=numacube.fusedTwoKeys -cp 'bench/target/numacube-bench.jar:bench/target/lib/*'
 * io.numacube.bench.engine.NcLoopAb 20000000 2 9 5 Q2 Q3 Q4}.
 */
public final class NcLoopAb {

    /** The system property naming engine properties (comma-separated) to time off and on in turn. */
    public static final String TOGGLE = "ncloop.toggle";

    private static final long SEED = 42;

    private NcLoopAb() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: NcLoopAb <rows> <threads> <rounds> <best> <query>...");
            System.exit(2);
        }
        long rows = Long.parseLong(args[0]);
        int threads = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        int best = Integer.parseInt(args[3]);
        List<ReferenceQuery> queries = new ArrayList<>();
        for (int i = 4; i < args.length; i++) {
            queries.add(ReferenceQuery.valueOf(args[i]));
        }
        String toggle = System.getProperty(TOGGLE);
        String[] settings = toggle == null ? new String[] {null} : new String[] {"false", "true"};
        boolean same = true;
        try (LoopCube loop = new LoopCube(rows, SEED, threads);
                Cube cube = Cube.open(CubeOptions.defaults().withThreadsPerNode(threads))) {
            cube.generateTrades(new GeneratedTrades(rows, SEED).generator(), ProgressListener.NONE);
            System.out.printf(
                    Locale.ROOT,
                    "NcLoopAb rows=%,d threads=%d rounds=%d best-of=%d toggle=%s java=%s%n",
                    rows,
                    threads,
                    rounds,
                    best,
                    toggle,
                    Runtime.version());
            for (ReferenceQuery q : queries) {
                same &= run(q, loop, cube, toggle, settings, rounds, best);
            }
        }
        System.exit(same ? 0 : 1);
    }

    private static boolean run(
            ReferenceQuery q, LoopCube loop, Cube cube, String toggle, String[] settings, int rounds, int best) {
        String sql = q.sql(GeneratedTrades.q3Literals());
        ResultTable loopAnswer = loop.query(sql).table();
        ResultTable[] answers = new ResultTable[settings.length];
        for (int c = 0; c < settings.length; c++) {
            set(toggle, settings[c]);
            answers[c] = EngineCube.table(cube.query(sql));
            ResultComparison cmp =
                    ResultComparison.compare(loopAnswer, answers[c], q.ordered(), ResultComparison.SUM_TOLERANCE);
            if (!cmp.equal()) {
                System.out.println(q.name() + " numacube differs from the loop: " + cmp.difference());
                return false;
            }
        }
        if (settings.length == 2 && !answers[0].equals(answers[1])) {
            System.out.println(q.name() + " the two settings' answers are not equal to the bit");
            return false;
        }
        int contenders = settings.length + 1;
        double[][] bestSeconds = new double[contenders][rounds];
        double[][][] phases = new double[settings.length][4][rounds];
        for (int i = 0; i < rounds; i++) {
            for (int k = 0; k < contenders; k++) {
                int c = (i + k) % contenders;
                if (c == settings.length) {
                    bestSeconds[c][i] = bestOf(best, () -> loop.query(sql));
                } else {
                    set(toggle, settings[c]);
                    double[] b = bestEngine(best, cube, sql);
                    bestSeconds[c][i] = b[0];
                    for (int p = 0; p < 4; p++) {
                        phases[c][p][i] = b[p + 1];
                    }
                }
            }
        }
        report(q, toggle, settings, bestSeconds, phases);
        return true;
    }

    private static void set(String toggle, String value) {
        if (toggle == null) {
            return;
        }
        for (String p : toggle.split(",")) {
            System.setProperty(p.trim(), value);
        }
    }

    private static double bestOf(int times, Runnable body) {
        double best = Double.MAX_VALUE;
        for (int i = 0; i < times; i++) {
            long t0 = System.nanoTime();
            body.run();
            best = Math.min(best, (System.nanoTime() - t0) / 1e9);
        }
        return best;
    }

    /** The best wall time of {@code times} runs, with that run's parse-and-bind, plan, scan and finish seconds. */
    private static double[] bestEngine(int times, Cube cube, String sql) {
        double[] best = {Double.MAX_VALUE, 0, 0, 0, 0};
        for (int i = 0; i < times; i++) {
            long t0 = System.nanoTime();
            QueryResult r = cube.query(sql);
            double wall = (System.nanoTime() - t0) / 1e9;
            if (wall < best[0]) {
                QueryStats.Phases p = r.stats().phases();
                double inside = p.planSeconds() + p.scanSeconds() + p.finishSeconds();
                best = new double[] {wall, wall - inside, p.planSeconds(), p.scanSeconds(), p.finishSeconds()};
            }
        }
        return best;
    }

    private static void report(
            ReferenceQuery q, String toggle, String[] settings, double[][] bestSeconds, double[][][] phases) {
        double loopMs = median(bestSeconds[settings.length]) * 1e3;
        System.out.printf(Locale.ROOT, "%s loop %.2f ms%n", q.name(), loopMs);
        for (int c = 0; c < settings.length; c++) {
            double ms = median(bestSeconds[c]) * 1e3;
            System.out.printf(
                    Locale.ROOT,
                    "%s numacube%s %.2f ms nc/loop %.2f (per-round ratios %s); parse+bind %.2f plan %.2f scan %.2f"
                            + " finish %.2f ms (medians)%n",
                    q.name(),
                    toggle == null ? "" : " " + toggle + "=" + settings[c],
                    ms,
                    ms / loopMs,
                    ratios(bestSeconds[c], bestSeconds[settings.length]),
                    median(phases[c][0]) * 1e3,
                    median(phases[c][1]) * 1e3,
                    median(phases[c][2]) * 1e3,
                    median(phases[c][3]) * 1e3);
        }
    }

    private static String ratios(double[] a, double[] b) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < a.length; i++) {
            s.append(i == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.2f", a[i] / b[i]));
        }
        return s.toString();
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length == 0 ? 0 : sorted[sorted.length / 2];
    }
}
