package io.numacube.server.wal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/** Collects what one class logs through {@link System.Logger} (backed by java.util.logging) while it is open. */
final class LogCapture extends Handler implements AutoCloseable {

    private final Logger logger;
    private final List<String> messages = new CopyOnWriteArrayList<>();
    private final SimpleFormatter formatter = new SimpleFormatter();

    LogCapture(Class<?> source) {
        logger = Logger.getLogger(source.getName());
        logger.addHandler(this);
    }

    /** The warnings logged so far, formatted. */
    List<String> warnings() {
        return List.copyOf(messages);
    }

    @Override
    public void publish(LogRecord record) {
        if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
            messages.add(formatter.formatMessage(record));
        }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
