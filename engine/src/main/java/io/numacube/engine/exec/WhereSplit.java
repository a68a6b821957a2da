package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A WHERE clause split into its conjuncts as both the aggregation plan and the projection executor use it: constant
 * conjuncts decide {@code nothingPasses}; a conjunct of one coded fact column (or of joined columns hanging from one)
 * becomes a code mask, ANDed per column with the others and with the inner joins' masks; the rest stays in {@code
 * residual}, in WHERE order, for the caller to evaluate its own way (batch predicates, or row by row). Immutable once
 * built.
 *
 * @param masks         per fact column, the codes that pass
 * @param residual      the conjuncts that are no code mask
 * @param nothingPasses a constant conjunct is not TRUE
 */
record WhereSplit(Map<Integer, boolean[]> masks, List<Expr> residual, boolean nothingPasses) {

    static WhereSplit of(Expr where, BatchCompiler kernels, LookupIndex lookup) {
        Map<Integer, List<boolean[]>> masks = new LinkedHashMap<>();
        List<Expr> residual = new ArrayList<>();
        boolean nothingPasses = false;
        List<Expr> conjuncts = new ArrayList<>();
        if (where != null) {
            flattenAnd(where, conjuncts);
        }
        for (Expr c : conjuncts) {
            BatchCompiler.Sources s = kernels.sources(c);
            boolean[] mask = !s.measures() && s.dims().size() == 1
                    ? kernels.maskUnlessFailing(c, s.dims().first())
                    : null;
            if (!s.measures() && s.dims().isEmpty()) {
                nothingPasses |= !Boolean.TRUE.equals(ScalarEvaluator.eval(c, e -> null));
            } else if (mask != null) {
                masks.computeIfAbsent(s.dims().first(), k -> new ArrayList<>()).add(mask);
            } else {
                residual.add(c);
            }
        }
        if (lookup != null) {
            lookup.innerMasks()
                    .forEach((col, mask) ->
                            masks.computeIfAbsent(col, k -> new ArrayList<>()).add(mask));
        }
        Map<Integer, boolean[]> anded = new LinkedHashMap<>();
        masks.forEach((col, list) -> anded.put(col, and(list)));
        return new WhereSplit(anded, residual, nothingPasses);
    }

    /** The AND of masks of one column, changing none of them (masks are shared between queries). */
    private static boolean[] and(List<boolean[]> masks) {
        if (masks.size() == 1) {
            return masks.get(0);
        }
        boolean[] all = masks.get(0).clone();
        for (int i = 1; i < masks.size(); i++) {
            boolean[] m = masks.get(i);
            for (int c = 0; c < all.length; c++) {
                all[c] &= m[c];
            }
        }
        return all;
    }

    private static void flattenAnd(Expr e, List<Expr> out) {
        if (e instanceof Expr.And a) {
            a.terms().forEach(t -> flattenAnd(t, out));
        } else {
            out.add(e);
        }
    }
}
