package io.numacube.engine.sql;

import io.numacube.engine.plan.InValues;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.NlsString;

/**
 * The right side of {@code x [NOT] IN keys} in a rewritten statement: the distinct integer keys a subquery gave, held
 * as a {@link InValues#ofKeys key set} rather than as one literal per key (a semi-join's million keys). Written as a
 * string literal of the set's name, which no two sets share, so a statement's text (and every key made from it) tells
 * sets apart; {@link ExpressionBinder} binds it to an {@link io.numacube.engine.plan.Expr.In} over the set where x is
 * an integer, and to the keys as literals otherwise. Immutable.
 */
public final class KeySetLiteral extends SqlLiteral {

    private final InValues keys;

    /** @param keys a key set ({@link InValues#ofKeys}) */
    public KeySetLiteral(InValues keys, SqlParserPos pos) {
        super(new NlsString(keys.toString(), null, null), SqlTypeName.CHAR, pos);
        if (!keys.isKeySet()) {
            throw new IllegalArgumentException("not a key set: " + keys);
        }
        this.keys = keys;
    }

    /** The key set. */
    public InValues keys() {
        return keys;
    }

    @Override
    public SqlLiteral clone(SqlParserPos pos) {
        return new KeySetLiteral(keys, pos);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.literal("'" + keys + "'");
    }
}
