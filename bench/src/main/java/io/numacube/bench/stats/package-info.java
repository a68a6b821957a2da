/** Summary statistics of repeated measurements (min, median, max, mean, coefficient of variation). No dependencies. */
package io.numacube.bench.stats;
