/**
 * What a query returns: {@link io.numacube.engine.result.QueryResult} (typed columns) and
 * {@link io.numacube.engine.result.QueryStats} (time, morsels, where they ran). Built by {@code exec}, handed out by
 * the API. Depends on {@code schema} only.
 */
package io.numacube.engine.result;
