package io.numacube.engine.exec;

import io.numacube.engine.storage.CodeWidth;
import io.numacube.numa.base.NumacubeException;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The value errors of an expression evaluated once per code of a column ({@code sqrt(x)} of a negative value, {@code
 * 100 % b} of a zero, {@code CAST(s AS INTEGER)} of a word): kept by code and raised only when a row of that code
 * reaches the expression, as PostgreSQL raises an error for the row it evaluates it on, so a value that only rows
 * the WHERE leaves out hold is no error. Filled by any number of threads (each code by one); read only once
 * {@link #table} has made the table.
 */
final class CodeErrors {

    private final ConcurrentHashMap<Integer, NumacubeException> byCode = new ConcurrentHashMap<>();

    /**
     * The value of {@code code}, or {@link #FAILED} after recording the value error {@code value} raised for it; any
     * other exception (a bug, an unsupported expression) is thrown.
     */
    Object evaluate(int code, java.util.function.IntFunction<Object> value) {
        try {
            return value.apply(code);
        } catch (NumacubeException e) {
            if (!isValueError(e)) {
                throw e;
            }
            byCode.put(code, e);
            return FAILED;
        }
    }

    /** The value {@link #evaluate} gives for a code whose value failed. */
    static final Object FAILED = new Object() {
        @Override
        public String toString() {
            return "FAILED";
        }
    };

    /** Whether {@code e} is an error of the values an expression was given (raised per row by PostgreSQL). */
    static boolean isValueError(NumacubeException e) {
        return e.kind() == NumacubeException.Kind.INVALID_INPUT;
    }

    /** Records {@code e} for {@code code}. */
    void record(int code, NumacubeException e) {
        byCode.put(code, e);
    }

    /** The errors by code ({@code codes} of them), or null where no code failed. */
    NumacubeException[] table(int codes) {
        if (byCode.isEmpty()) {
            return null;
        }
        NumacubeException[] t = new NumacubeException[Math.max(1, codes)];
        byCode.forEach((code, e) -> t[code] = e);
        return t;
    }

    /**
     * Throws the error of the first of the {@code n} rows ({@code b + k}, or {@code sel[k]}) whose code (column {@code
     * seg} of width {@code w}) failed (a copy of it); {@code reaches}, where not null, leaves out the positions k that are false
     * there (the expression is not evaluated for that row).
     */
    static void raise(
            NumacubeException[] errors, MemorySegment seg, CodeWidth w, int b, int n, int[] sel, boolean[] reaches) {
        for (int k = 0; k < n; k++) {
            int code = CodeKernels.code(seg, w, sel == null ? b + k : sel[k]);
            if (code < errors.length && errors[code] != null && (reaches == null || reaches[k])) {
                throw copy(errors[code]);
            }
        }
    }

    /** A new exception like {@code e}: the kept one is shared by queries and workers, so it is never thrown itself. */
    private static NumacubeException copy(NumacubeException e) {
        return new NumacubeException(
                e.kind(), e.code(), e.detail(), e.position().orElse(null), e.getCause());
    }
}
