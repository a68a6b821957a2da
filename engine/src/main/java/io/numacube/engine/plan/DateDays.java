package io.numacube.engine.plan;

import io.numacube.engine.schema.Timestamps;

/**
 * The text of a DATE moved by whole days ({@code d - 30}), which the binder builds as the date of {@code
 * add_interval(d, 0, n days)}: the name an answer's column gets, as the user wrote it. Stateless.
 */
final class DateDays {

    private DateDays() {}

    /** {@code d + n} or {@code d - n} where {@code e} is {@code add_interval(d, 0, n days)}; null otherwise. */
    static String of(Expr e) {
        if (e instanceof Expr.Call c
                && c.name().equals("add_interval")
                && c.args().get(1) instanceof Expr.Literal months
                && Long.valueOf(0).equals(months.value())
                && c.args().get(2) instanceof Expr.Literal micros
                && micros.value() instanceof Long m
                && m % Timestamps.MICROS_PER_DAY == 0) {
            long days = m / Timestamps.MICROS_PER_DAY;
            return c.args().get(0).text() + (days < 0 ? " - " + -days : " + " + days);
        }
        return null;
    }
}
