/**
 * The numacube engine as the bench measures it: {@link io.numacube.bench.engine.EngineCube} adapts
 * {@link io.numacube.engine.Cube} to the bench's {@link io.numacube.bench.CubeUnderTest}. The only package of the
 * bench that calls the engine's query API.
 */
package io.numacube.bench.engine;
