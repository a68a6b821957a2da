/** The placement plan: which nodes hold data and run workers, how memory is placed, and a human reason for each
 *  decision. Pure functions of topology, binding and policy support; and {@link io.numacube.numa.plan.MemoryRoom}, which
 *  data nodes are short of memory and where their new data goes meanwhile (a pure function of the readings). */
package io.numacube.numa.plan;
