package io.numacube.cli;

import io.numacube.cli.cube.ProgressBar;
import io.numacube.cli.cube.RowCount;
import io.numacube.cli.cube.TradesCsv;
import io.numacube.cli.output.OutputFile;
import io.numacube.cli.output.Units;
import io.numacube.engine.gen.Books;
import io.numacube.engine.gen.TradesGenerator;
import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code numacube generate}: writes the deterministic trades data set and its fx and books tables as CSV files. */
@Command(
        name = "generate",
        mixinStandardHelpOptions = true,
        description = {
            "Writes DIR/trades.csv (the seeded trades data set: trade_id, desk, book, currency, trade_date, "
                    + "counterparty, pnl, notional), DIR/fx.csv (currency, rate_to_usd) and DIR/books.csv (book, "
                    + "desk, region, legal_entity, trader).",
            "The same --rows and --seed always give the same files, and the same data as query --generate."
        })
final class GenerateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--rows",
            required = true,
            paramLabel = "N",
            converter = RowCount.class,
            description = "Number of trades, e.g. 1000000 or 10M.")
    long rows;

    @Option(
            names = "--seed",
            paramLabel = "S",
            defaultValue = "42",
            description = "Generator seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Directory to write into (created).")
    Path out;

    @Override
    public Integer call() throws IOException {
        TradesGenerator gen = new TradesGenerator(seed, rows);
        boolean existed = Files.isDirectory(out);
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "cannot create the output directory: dir=" + out + " error="
                            + io.numacube.numa.base.IoReason.of(e));
        }
        try {
            checkFreeSpace(out, rows);
        } catch (NumacubeException e) {
            if (!existed) {
                // a refused run leaves nothing behind, not even the directory it made
                Files.deleteIfExists(out);
            }
            throw e;
        }
        PrintWriter stdout = spec.commandLine().getOut();
        long start = System.nanoTime();
        Path trades = out.resolve("trades.csv");
        ProgressBar bar = ProgressBar.on(spec.commandLine().getErr(), "writing " + trades.getFileName());
        try {
            OutputFile.writeAtomically(trades, o -> TradesCsv.writeTrades(gen, o, bar));
        } catch (RuntimeException e) {
            bar.abandon();
            throw e;
        }
        bar.close();
        double seconds = (System.nanoTime() - start) / 1e9;
        Path fx = out.resolve("fx.csv");
        OutputFile.writeAtomically(fx, TradesCsv::writeFx);
        Path books = out.resolve("books.csv");
        OutputFile.writeAtomically(books, TradesCsv::writeBooks);
        stdout.println(String.format(
                Locale.ROOT,
                "wrote %s: %,d trades, %s in %.2f s (seed %d)",
                trades,
                rows,
                Units.bytes(Files.size(trades)),
                seconds,
                seed));
        stdout.println(String.format(Locale.ROOT, "wrote %s: %d currencies", fx, TradesGenerator.CURRENCIES.size()));
        stdout.println(String.format(Locale.ROOT, "wrote %s: %d books", books, Books.rows()));
        stdout.flush();
        return 0;
    }

    /** A generous bound on the CSV bytes of one trade (the longest rows are about 70 bytes). */
    static final long BYTES_PER_ROW = 80;

    private static void checkFreeSpace(Path dir, long rows) {
        long need = rows * BYTES_PER_ROW;
        try {
            long free = Files.getFileStore(dir).getUsableSpace();
            if (free < need) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "not enough free space for "
                                + String.format(Locale.ROOT, "%,d", rows) + " trades: dir=" + dir + " free="
                                + Units.bytes(free)
                                + " need=about " + Units.bytes(need)
                                + " — write elsewhere (--out) or generate fewer --rows");
            }
        } catch (IOException e) {
            // the store cannot be asked: the write itself will say if the disk fills up
        }
    }
}
