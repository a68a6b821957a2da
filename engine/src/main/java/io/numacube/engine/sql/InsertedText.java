package io.numacube.engine.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * A statement's text with words inserted for Calcite's parser (a placeholder FROM clause, parentheses around an infix
 * cast), and the way back: a position in the edited text as a position in the user's, and a parsed tree copied with
 * every node's position moved back, so that errors name the place the user sees. Insertions hold no line break, so
 * only columns move; a position inside an inserted word is the position of the user's character it stands before.
 * Immutable; thread-safe.
 */
final class InsertedText {

    private final String text;

    /**
     * Per line (0-based): for each 1-based column of the edited line where an insertion starts, its length and the
     * length of the insertions before it on the line.
     */
    private final List<TreeMap<Integer, int[]>> insertedAt;

    private InsertedText(String text, List<TreeMap<Integer, int[]>> insertedAt) {
        this.text = text;
        this.insertedAt = insertedAt;
    }

    /**
     * {@code sql} with {@code insertions} (offset in {@code sql} to the text inserted before the character there, or
     * at the end for {@code sql.length()}); none of them may hold a line break.
     */
    static InsertedText of(String sql, Map<Integer, String> insertions) {
        TreeMap<Integer, String> sorted = new TreeMap<>(insertions);
        StringBuilder out = new StringBuilder(sql.length() + 16 * sorted.size());
        List<TreeMap<Integer, int[]>> at = new ArrayList<>();
        at.add(new TreeMap<>());
        int column = 1;
        int before = 0;
        for (int i = 0; i <= sql.length(); i++) {
            String inserted = sorted.get(i);
            if (inserted != null) {
                if (inserted.indexOf('\n') >= 0) {
                    throw new IllegalArgumentException("an insertion holds a line break: " + inserted);
                }
                at.getLast().put(column, new int[] {inserted.length(), before});
                out.append(inserted);
                column += inserted.length();
                before += inserted.length();
            }
            if (i == sql.length()) {
                break;
            }
            char c = sql.charAt(i);
            out.append(c);
            column++;
            if (c == '\n') {
                at.add(new TreeMap<>());
                column = 1;
                before = 0;
            }
        }
        return new InsertedText(out.toString(), at);
    }

    /** The edited text, for the parser. */
    String text() {
        return text;
    }

    /** The 1-based {@code column} of the edited text's line {@code line} as a column of the user's line. */
    int column(int line, int column) {
        if (line < 1 || line > insertedAt.size()) {
            return column;
        }
        Map.Entry<Integer, int[]> last = insertedAt.get(line - 1).floorEntry(column);
        if (last == null) {
            return column;
        }
        int start = last.getKey();
        int length = last.getValue()[0];
        int shift = last.getValue()[1] + Math.min(length, column - start);
        return Math.max(1, column - shift);
    }

    /** {@code pos} of the edited text as a position in the user's text. */
    SqlParserPos original(SqlParserPos pos) {
        if (pos == null || pos.getLineNum() < 1) {
            return pos;
        }
        return new SqlParserPos(
                        pos.getLineNum(),
                        column(pos.getLineNum(), pos.getColumnNum()),
                        pos.getEndLineNum(),
                        column(pos.getEndLineNum(), pos.getEndColumnNum()))
                .withQuoting(pos.isQuoted());
    }

    /** A copy of {@code node}, parsed from the edited text, with every position the user's. */
    SqlNode restore(SqlNode node) {
        if (node == null) {
            return null;
        }
        SqlParserPos pos = original(node.getParserPosition());
        if (node instanceof SqlNodeList list) {
            List<SqlNode> items = new ArrayList<>(list.size());
            list.forEach(item -> items.add(restore(item)));
            return new SqlNodeList(items, pos);
        }
        if (node instanceof SqlIdentifier id) {
            List<SqlParserPos> parts = new ArrayList<>(id.names.size());
            for (int i = 0; i < id.names.size(); i++) {
                parts.add(original(id.getComponentParserPosition(i)));
            }
            return new SqlIdentifier(id.names, id.getCollation(), pos, parts);
        }
        if (node instanceof SqlCall call) {
            List<SqlNode> operands = call.getOperandList();
            SqlNode[] copied = new SqlNode[operands.size()];
            for (int i = 0; i < copied.length; i++) {
                copied[i] = restore(operands.get(i));
            }
            return call.getOperator().createCall(call.getFunctionQuantifier(), pos, copied);
        }
        return node.clone(pos);
    }
}
