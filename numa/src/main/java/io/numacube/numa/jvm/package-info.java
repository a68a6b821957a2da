/** What the JVM's own NUMA support ({@code -XX:+UseNUMA}) will do in this process, predicted from the topology and
 *  binding numacube read, with advice. Pure functions; depends on {@code topology}, {@code binding} and
 *  {@code memory.PolicySupport}. */
package io.numacube.numa.jvm;
