/**
 * The numacube NUMA runtime: this package holds the {@link io.numacube.numa.NumaRuntime} facade over its
 * sub-packages, and what following the machine decides from its readings ({@link io.numacube.numa.FollowPlan} for a
 * change of the bindings, {@link io.numacube.numa.MemoryRoom} for the nodes' free memory); the sub-packages: {@code base} (the exception family, at the bottom), {@code topology} (what the machine is), {@code binding} (what this
 * process may use), {@code plan} (which nodes numacube uses, and why), {@code memory} (placed off-heap memory and
 * its verification), {@code exec} (node-pinned workers), and {@code kernel}, the only package that makes native
 * calls. This module depends on nothing but the JDK.
 */
package io.numacube.numa;
