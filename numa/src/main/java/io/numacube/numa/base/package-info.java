/**
 * The bottom of the runtime: {@link io.numacube.numa.base.NumacubeException}, numacube's one exception family (every
 * module throws it), and {@link io.numacube.numa.base.IoReason}, which words an I/O failure for a user. Depends on
 * nothing; every other package may use it.
 */
package io.numacube.numa.base;
