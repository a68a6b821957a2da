/**
 * The built-in deterministic data set: trades (the fact table of the P&amp;L queries), the fx lookup table and the
 * reference queries over them. Depends on {@code schema} only.
 */
package io.numacube.engine.gen;
