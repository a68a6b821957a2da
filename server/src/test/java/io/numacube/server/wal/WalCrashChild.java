package io.numacube.server.wal;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The process {@link WalCrashTest} kills: opens a data directory and its WAL, then appends from several threads as
 * fast as it can, printing {@code LSN RUN THREAD SEQ .} to stdout (flushed) after each append returns, until killed.
 * Arguments: data directory, run id, threads, segment size in bytes.
 */
public final class WalCrashChild {

    private WalCrashChild() {}

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        long run = Long.parseLong(args[1]);
        int threads = Integer.parseInt(args[2]);
        WalOptions options = WalOptions.defaults().withSegmentSizeBytes(Long.parseLong(args[3]));
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true);
        DataDirectory data = DataDirectory.open(dir);
        WriteAheadLog wal = WriteAheadLog.open(data.walDirectory(), options);
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread.ofPlatform().start(() -> {
                for (long seq = 0; ; seq++) {
                    long lsn = wal.append((byte) thread, new CrashPayload(run, thread, seq).bytes());
                    out.println(lsn + " " + run + " " + thread + " " + seq + " .");
                }
            });
        }
    }
}
