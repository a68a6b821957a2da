package io.numacube.cli;

import io.numacube.cli.cube.ProgressBar;
import io.numacube.cli.cube.RowCount;
import io.numacube.cli.cube.TradesCsv;
import io.numacube.cli.output.Units;
import io.numacube.engine.gen.TradesGenerator;
import io.numacube.numa.NumacubeException;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code numacube generate}: writes the deterministic trades data set and its fx table as CSV files. */
@Command(name = "generate", mixinStandardHelpOptions = true,
        description = {"Writes DIR/trades.csv (the seeded trades data set: trade_id, desk, book, currency, trade_date, "
                + "counterparty, pnl, notional) and DIR/fx.csv (currency, rate_to_usd).",
            "The same --rows and --seed always give the same files, and the same data as query --generate."})
final class GenerateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--rows", required = true, paramLabel = "N", converter = RowCount.class,
            description = "Number of trades, e.g. 1000000 or 10M.")
    long rows;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "42",
            description = "Generator seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Directory to write into (created).")
    Path out;

    @Override
    public Integer call() throws IOException {
        TradesGenerator gen = new TradesGenerator(seed, rows);
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            throw new NumacubeException(NumacubeException.Kind.INVALID_INPUT,
                    "cannot create the output directory: dir=" + out + " error=" + io.numacube.numa.IoReason.of(e));
        }
        PrintWriter stdout = spec.commandLine().getOut();
        long start = System.nanoTime();
        Path trades = out.resolve("trades.csv");
        ProgressBar bar = ProgressBar.on(spec.commandLine().getErr(), "writing " + trades.getFileName());
        try {
            writeAtomically(trades, o -> TradesCsv.writeTrades(gen, o, bar));
        } catch (IOException | RuntimeException e) {
            bar.abandon();
            throw e;
        }
        bar.close();
        double seconds = (System.nanoTime() - start) / 1e9;
        Path fx = out.resolve("fx.csv");
        writeAtomically(fx, TradesCsv::writeFx);
        stdout.println(String.format(Locale.ROOT, "wrote %s: %,d trades, %s in %.2f s (seed %d)", trades, rows,
                Units.bytes(Files.size(trades)), seconds, seed));
        stdout.println(String.format(Locale.ROOT, "wrote %s: %d currencies", fx, TradesGenerator.CURRENCIES.size()));
        stdout.flush();
        return 0;
    }

    /** Writes to a temporary file beside {@code target} and renames it, so a failed run leaves no partial file. */
    private static void writeAtomically(Path target, Body body) throws IOException {
        Path tmp = target.resolveSibling("." + target.getFileName() + ".tmp");
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
            body.write(o);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @FunctionalInterface
    private interface Body {
        void write(OutputStream out) throws IOException;
    }
}
