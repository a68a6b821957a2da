/**
 * Durability for {@code serve --data-dir DIR}: writes logged in the write-ahead log before they are acknowledged
 * ({@link io.numacube.server.durable.WriteRecord}, one record per write), checkpoints of every table as CSV files with
 * a manifest written last ({@link io.numacube.server.durable.CheckpointManifest}), and recovery from both at start
 * ({@link io.numacube.server.durable.DurableStore}, which states the invariant that makes checkpoint plus WAL exact),
 * with checkpoints while the server runs ({@link io.numacube.server.durable.CheckpointSchedule}).
 *
 * <p>Depends on the WAL ({@code server.wal}), the write path ({@code server.write}: its batches, its replay and its
 * quiesced moment) and the engine's snapshot export and CSV reading and writing; the server facade and the front ends
 * do not know it: {@code numacube serve} puts it together.
 *
 * <p>The data directory:
 * <pre>
 *   DIR/LOCK                                   held by the running server (DataDirectory)
 *   DIR/wal/wal-&lt;first LSN&gt;.log                the WAL's segments: writes after the checkpoint's LSN
 *   DIR/SHARD                                  the shard of a split table the data is (serve --shard), if any
 *   DIR/MANIFEST                               the current checkpoint: its LSN, and per table file, rows, SHA-256
 *   DIR/checkpoint-&lt;generation&gt;-&lt;i&gt;-&lt;t&gt;.csv   the checkpoint's tables, a header row and every row
 * </pre>
 */
package io.numacube.server.durable;
