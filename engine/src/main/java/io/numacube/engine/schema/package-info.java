/**
 * Table schemas: column names and types. Depends on nothing else in the engine.
 */
package io.numacube.engine.schema;
