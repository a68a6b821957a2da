package io.numacube.engine;

/**
 * One change to one table, as part of an atomic write ({@link Cube#write}): rows appended ({@link TableBatch}) or rows
 * deleted ({@link TableDelete}).
 */
public sealed interface TableWrite permits TableBatch, TableDelete {}
