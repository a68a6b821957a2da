/**
 * The durable log of {@code serve --data-dir DIR}: a write-ahead log of opaque records
 * ({@link io.numacube.server.wal.WriteAheadLog}, {@link io.numacube.server.wal.WalRecord}) and the data directory
 * that holds it, locked against a second server and written atomically for checkpoints
 * ({@link io.numacube.server.wal.DataDirectory}). Self-contained: it knows neither tables nor SQL, and depends on
 * nothing of numacube but the exception family ({@code numa.base}); the write paths above it put a table name and a
 * row batch in a payload and replay them into the engine.
 *
 * <p>Guarantees: an append returns only after its record is written and fsynced ({@code force(false)}, and a force
 * of the directory for a new segment file); fsyncs are shared by concurrent appenders (group commit); a failed write
 * or fsync fails the log closed, so nothing is acknowledged after it. Opening recovers: a torn tail is cut (with a
 * warning naming file and offset), any other damage is a {@link io.numacube.server.wal.WalCorruptionException}
 * naming file and offset, never a partial replay. The layout is in {@code WalFormat}.
 *
 * <p>Choices beyond the first design, and why:
 * <ul>
 *   <li>Each record carries its <em>synced LSN</em>, the highest LSN durable when it was written. "A bad record
 *       followed by good ones is corruption" is right after {@code kill -9}, where the page cache keeps write order,
 *       but wrong after power loss: the disk may have kept a later page of an unacknowledged batch and lost an
 *       earlier one, and the server would then refuse to start over records nobody was told were stored. With the
 *       synced LSN, recovery calls a bad record corruption exactly when a record written after it had become durable
 *       follows it (then it was acknowledged), and otherwise cuts it and its batch as a torn tail. Finding records
 *       after a bad one does not trust the bad one's length: it checks every later byte offset for an intact record
 *       (length in bounds, LSN in range, checksum), which is rare work, done only on a damaged tail.</li>
 *   <li>A dedicated flusher thread instead of a leader among the appenders: an interrupt of a thread blocked in a
 *       {@code FileChannel} closes the channel, and request threads do get interrupted; the flusher is never.</li>
 *   <li>Opening checks every record of every segment, and replay checks them again as it reads: a damaged log
 *       stops the server at start, not halfway through replay, at the cost of reading the log twice then.</li>
 *   <li>Segment files are not preallocated: every fsync also writes the new file size, but the end of the file is
 *       the end of the log, which keeps torn-tail detection simple.</li>
 * </ul>
 */
package io.numacube.server.wal;
