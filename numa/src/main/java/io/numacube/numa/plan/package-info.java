/** The placement plan: which nodes hold data and run workers, how memory is placed, and a human reason for each
 *  decision. Pure functions of topology, binding and policy support. */
package io.numacube.numa.plan;
