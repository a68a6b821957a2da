package io.numacube.engine.sqltest;

/** A {@code .test} file that does not follow the format: the message names {@code file:line} and what is wrong. */
final class SqlTestParseException extends RuntimeException {

    SqlTestParseException(String file, int line, String problem) {
        super(file + ":" + line + ": " + problem);
    }
}
