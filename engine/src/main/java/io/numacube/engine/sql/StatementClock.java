package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.unsupported;

import io.numacube.engine.schema.Timestamps;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;

/**
 * The clock of one statement, read once when it is parsed: DuckDB's {@code current_date} and {@code today()} (a DATE),
 * {@code localtimestamp} and {@code current_localtimestamp()} (a TIMESTAMP), and {@code now()}, {@code
 * current_timestamp}, {@code get_current_timestamp()} and {@code transaction_timestamp()} become literals, so every
 * clause and subquery of the statement sees the same instant, to the microsecond.
 *
 * <p>numacube has no TIMESTAMP WITH TIME ZONE: {@code now()} and its synonyms, DuckDB's TIMESTAMPTZ, are the TIMESTAMP
 * of the JVM's time zone's wall clock ({@code user.timezone}, else the system's), which is the value DuckDB compares a
 * TIMESTAMP column with when its TimeZone setting is that zone ({@code ts >= now() - INTERVAL 1 DAY} answers alike);
 * the dates are that wall clock's. What depends on the time zone's offset is refused rather than answered differently:
 * {@code now()} cast to text (DuckDB writes the offset, {@code +00}) and {@code epoch(now())} (DuckDB counts from
 * 1970 UTC). {@code current_time} and {@code localtime} are refused too (numacube has no TIME type). A select item
 * that is the clock alone is named as DuckDB names it ({@code now()}, {@code current_date}). A statement parsed with
 * a given reading ({@link #at}: a write's, {@code io.numacube.engine.TableUpdate#clock}) sees that instant instead of
 * the clock's. Immutable; a fresh instance per statement.
 */
public final class StatementClock {

    /** The functions of no argument that read the clock as a TIMESTAMP WITH TIME ZONE in DuckDB. */
    private static final Set<String> ZONED =
            Set.of("now", "current_timestamp", "get_current_timestamp", "transaction_timestamp");

    private static final Set<String> LOCAL = Set.of("localtimestamp", "current_localtimestamp");

    private static final Set<String> DATES = Set.of("current_date", "today");

    private static final Set<String> TIMES = Set.of("current_time", "localtime", "get_current_time");

    /** PostgreSQL's clocks that are not the transaction's: refused rather than read as it. */
    private static final Set<String> OTHER_CLOCKS = Set.of("statement_timestamp", "clock_timestamp", "timeofday");

    private final LocalDateTime wallClock;

    private StatementClock(LocalDateTime wallClock) {
        this.wallClock = wallClock.truncatedTo(ChronoUnit.MICROS);
    }

    /**
     * The clock read as {@code wallClock} (to the microsecond): a statement run again later (a write replayed from a
     * log, a transaction block's write tried and then committed) sees the instant it saw first.
     */
    static StatementClock at(LocalDateTime wallClock) {
        return new StatementClock(java.util.Objects.requireNonNull(wallClock, "wallClock must not be null"));
    }

    /** The JVM's wall clock now, in its time zone, to the microsecond: what a statement parsed now reads. */
    public static LocalDateTime wallClockNow() {
        return LocalDateTime.now(Clock.systemDefaultZone()).truncatedTo(ChronoUnit.MICROS);
    }

    /** {@code root} with the clock's functions replaced by this reading ({@code root} itself where it has none). */
    SqlNode replaceIn(SqlNode root) {
        SqlNode out = root.accept(new Replacer());
        return out == null ? root : out;
    }

    /** The clock function {@code node} is (its lower-case name), or null. */
    private static String clockName(SqlNode node) {
        String name;
        if (node instanceof SqlIdentifier id && id.isSimple() && !id.isComponentQuoted(0)) {
            name = id.getSimple();
        } else if (node instanceof SqlCall call
                && !(call instanceof SqlSelect)
                && call.operandCount() == 0
                && call.getOperator().getName() != null) {
            name = call.getOperator().getName();
        } else {
            return null;
        }
        name = name.toLowerCase(Locale.ROOT);
        return isClockFunction(name) ? name : null;
    }

    /** Whether {@code name} (any case) is one of the functions of no argument read here as the statement's clock. */
    public static boolean isClockFunction(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return ZONED.contains(n)
                || LOCAL.contains(n)
                || DATES.contains(n)
                || TIMES.contains(n)
                || OTHER_CLOCKS.contains(n);
    }

    private SqlNode literal(SqlNode node, String name) {
        if (OTHER_CLOCKS.contains(name)) {
            throw unsupported(
                    node,
                    name + "(): numacube reads one clock per statement or transaction (now(), current_timestamp, "
                            + "transaction_timestamp()), not the statement's arrival or the running clock");
        }
        if (TIMES.contains(name)) {
            throw unsupported(node, name + ": numacube has no TIME type (current_date, now() and localtimestamp are)");
        }
        if (DATES.contains(name)) {
            return SqlLiteral.createDate(
                    DateString.fromDaysSinceEpoch((int) wallClock.toLocalDate().toEpochDay()),
                    node.getParserPosition());
        }
        long micros = Timestamps.ofLocalDateTime(wallClock);
        return SqlLiteral.createTimestamp(new TimestampString(Timestamps.format(micros)), 6, node.getParserPosition());
    }

    /**
     * Refuses what the time zone's offset decides: {@code now()} as text, and its epoch ({@code epoch(now())}, {@code
     * EXTRACT(EPOCH FROM now())}, {@code date_part('epoch', now())}: PostgreSQL counts the instant's seconds, where the
     * wall clock's would be off by the session's offset).
     */
    private static void checkZoned(SqlCall call) {
        boolean epochField = epochField(call);
        int at = epochField ? 1 : 0;
        if (call.operandCount() <= at || !ZONED.contains(String.valueOf(clockName(call.operand(at))))) {
            return;
        }
        SqlNode clock = call.operand(at);
        String shown = clock instanceof SqlIdentifier id ? id.getSimple() : clockName(clock) + "()";
        boolean asText = call.getKind() == SqlKind.CAST
                && call.operandCount() == 2
                && call.operand(1) instanceof SqlDataTypeSpec type
                && Set.of("varchar", "char", "text", "string", "character")
                        .contains(type.getTypeName().getSimple().toLowerCase(Locale.ROOT));
        boolean epoch = epochField || call.getOperator().getName().equalsIgnoreCase("epoch");
        if (asText || epoch) {
            throw unsupported(
                    clock,
                    (asText ? "a TIMESTAMP WITH TIME ZONE as text" : "epoch of a TIMESTAMP WITH TIME ZONE")
                            + ": numacube has no time zones, its " + shown
                            + " is the local wall clock as a TIMESTAMP (write CAST(" + shown
                            + " AS TIMESTAMP) for that)");
        }
    }

    /** Whether {@code call} is {@code EXTRACT(EPOCH FROM x)} or {@code date_part('epoch', x)}. */
    private static boolean epochField(SqlCall call) {
        if (call.operandCount() != 2) {
            return false;
        }
        String name = call.getOperator().getName();
        boolean extract = call.getKind() == SqlKind.EXTRACT || name.equalsIgnoreCase("extract");
        boolean datePart = name.equalsIgnoreCase("date_part") || name.equalsIgnoreCase("datepart");
        if (!extract && !datePart) {
            return false;
        }
        SqlNode field = call.operand(0);
        String text = field instanceof SqlLiteral l && l.getValue() instanceof org.apache.calcite.util.NlsString ns
                ? ns.getValue()
                : field.toString();
        return text.strip().replace("'", "").equalsIgnoreCase("epoch");
    }

    private final class Replacer extends SqlShuttle {

        @Override
        public SqlNode visit(SqlIdentifier id) {
            String name = clockName(id);
            return name == null ? id : literal(id, name);
        }

        @Override
        public SqlNode visit(SqlCall call) {
            if (call instanceof SqlSelect select) {
                nameItems(select.getSelectList());
            }
            String name = clockName(call);
            if (name != null) {
                return literal(call, name);
            }
            checkZoned(call);
            if (call.getKind() == SqlKind.AS) {
                // the alias (and a derived table's column names) are names, not clock functions
                SqlNode value = call.operand(0).accept(this);
                call.setOperand(0, value == null ? call.operand(0) : value);
                return call;
            }
            return super.visit(call);
        }

        /** A select item that is the clock alone gets DuckDB's name for it. */
        private void nameItems(SqlNodeList items) {
            for (int i = 0; i < items.size(); i++) {
                SqlNode item = items.get(i);
                String name = clockName(item);
                if (name != null) {
                    String alias = item instanceof SqlIdentifier id ? id.getSimple() : name + "()";
                    items.set(
                            i,
                            SqlStdOperatorTable.AS.createCall(
                                    item.getParserPosition(),
                                    literal(item, name),
                                    new SqlIdentifier(alias, item.getParserPosition())));
                }
            }
        }
    }
}
