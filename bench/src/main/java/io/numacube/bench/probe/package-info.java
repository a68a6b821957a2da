/**
 * The limit: an in-process STREAM-like read-bandwidth probe over a large off-heap array, so that every query
 * result can be given as a fraction of what this machine's memory delivers to a Java loop.
 */
package io.numacube.bench.probe;
