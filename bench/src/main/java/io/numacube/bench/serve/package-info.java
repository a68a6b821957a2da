/**
 * The serve section (issue 11): a durable {@code numacube serve} server in the bench's process, its P&amp;L queries
 * timed embedded and through both front ends, readers idle and beside a writer, and the time from a write's
 * acknowledgement to its visibility ({@link io.numacube.bench.serve.ServeBench}). Depends on the engine, the server,
 * pgjdbc, HdrHistogram and the bench's peer, stats and report packages; nothing depends on it but the bench runner.
 */
package io.numacube.bench.serve;
