package io.numacube.engine;

/**
 * One change to one table, as part of an atomic write ({@link Cube#write}): rows appended ({@link TableBatch}), rows
 * deleted ({@link TableDelete}) or rows changed ({@link TableUpdate}).
 */
public sealed interface TableWrite permits TableBatch, TableDelete, TableUpdate {}
