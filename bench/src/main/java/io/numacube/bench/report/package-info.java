/**
 * What a bench run reports: the machine, every figure as plain records (serialised to JSON with Jackson), the
 * terminal table and the PNG charts (XChart). No measuring happens here.
 */
package io.numacube.bench.report;
