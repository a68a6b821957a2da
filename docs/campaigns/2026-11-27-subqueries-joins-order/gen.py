"""Generates differential queries (one a line; 'O|' prefix = ordered comparison) over TPC-H SF 0.01 and the
handmade tables a, b, c, cn, e (NULLs in every column). Usage: gen.py SEED N"""
import random, sys

rnd = random.Random(int(sys.argv[1]))
N = int(sys.argv[2])
ch = rnd.choice
NATIONS = ['FRANCE', 'GERMANY', 'SAUDI ARABIA', 'BRAZIL', 'CHINA', 'JAPAN', 'PERU']
AGG_A = ['COUNT(*)', 'COUNT(v)', 'SUM(v)', 'SUM(d)', 'MIN(x)', 'MAX(dt)', 'AVG(v)', 'COUNT(DISTINCT k)',
         'SUM(DISTINCT v)', 'AVG(d)', 'COUNT(DISTINCT g)', 'MIN(g)']
FILT_A = ['v > 0', 'k < 30', 'g = \'x\'', 'd IS NULL', 'x > 10', 'dt >= DATE \'2015-01-01\'', 'm <> 0',
          'k IS NOT NULL', 'v BETWEEN -100 AND 300', 'g IN (\'y\', \'z\')', 'id % 7 = 3']

def q_exists_small():
    neg = ch(['', 'NOT '])
    extra = ch(['', ' AND b.w > %d' % rnd.randint(0, 20), ' AND b.name IS NOT NULL', ' AND b.w < a.v',
                ' AND b.k <> a.m', ' AND b.d2 > a.d'])
    where = ch(['', ' AND ' + ch(FILT_A)])
    aggs = ', '.join(rnd.sample(AGG_A, 2))
    return f"SELECT g, {aggs} FROM a WHERE {neg}EXISTS (SELECT * FROM b WHERE b.k = a.k{extra}){where} GROUP BY g"

def q_exists_tpch():
    neg = ch(['', 'NOT '])
    extra = ch(['', ' AND l_commitdate < l_receiptdate', ' AND l_quantity > %d' % rnd.randint(10, 49),
                " AND l_shipmode = 'AIR'", ' AND l_discount > o_totalprice / 10000000'])
    y = rnd.randint(1992, 1998)
    return (f"SELECT o_orderpriority, COUNT(*) AS n, SUM(o_totalprice) FROM orders WHERE o_orderdate >= DATE '{y}-01-01'"
            f" AND o_orderdate < DATE '{y}-07-01' AND {neg}EXISTS (SELECT * FROM lineitem WHERE l_orderkey = o_orderkey{extra})"
            f" GROUP BY o_orderpriority")

def q_q21():
    n = ch(NATIONS)
    e1 = ch(['EXISTS', 'NOT EXISTS'])
    e2 = ch(['EXISTS', 'NOT EXISTS'])
    status = ch(["'F'", "'O'", "'P'"])
    return (f"SELECT s_name, COUNT(*) AS numwait FROM supplier, lineitem l1, orders, nation WHERE s_suppkey = l1.l_suppkey"
            f" AND o_orderkey = l1.l_orderkey AND o_orderstatus = {status} AND l1.l_receiptdate > l1.l_commitdate"
            f" AND {e1} (SELECT * FROM lineitem l2 WHERE l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey)"
            f" AND {e2} (SELECT * FROM lineitem l3 WHERE l3.l_orderkey = l1.l_orderkey AND l3.l_suppkey <> l1.l_suppkey"
            f" AND l3.l_receiptdate > l3.l_commitdate) AND s_nationkey = n_nationkey AND n_name = '{n}' GROUP BY s_name")

def q_q22():
    codes = rnd.sample(['13', '31', '23', '29', '30', '18', '17', '25', '11'], rnd.randint(1, 7))
    lst = ', '.join(f"'{c}'" for c in codes)
    neg = ch(['NOT ', ''])
    return (f"SELECT cntrycode, COUNT(*) AS numcust, SUM(c_acctbal) AS totacctbal FROM (SELECT substring(c_phone, 1, 2) AS cntrycode, c_acctbal"
            f" FROM customer WHERE substring(c_phone, 1, 2) IN ({lst}) AND c_acctbal > (SELECT AVG(c_acctbal) FROM customer"
            f" WHERE c_acctbal > 0.00 AND substring(c_phone, 1, 2) IN ({lst})) AND {neg}EXISTS (SELECT * FROM orders WHERE o_custkey = c_custkey))"
            f" AS custsale GROUP BY cntrycode")

def q_in_small():
    neg = ch(['', 'NOT '])
    sub = ch([f"SELECT k FROM b WHERE w > {rnd.randint(0, 20)}", "SELECT k FROM b", "SELECT k FROM b WHERE k IS NOT NULL",
              f"SELECT ck FROM c WHERE cat = {rnd.randint(0, 3)}", f"SELECT ck FROM c WHERE cat <> {rnd.randint(0, 3)} AND ck IS NOT NULL",
              f"SELECT ck FROM cn WHERE cat <= {rnd.randint(0, 3)}", "SELECT ek FROM e", "SELECT k FROM b WHERE k < 0",
              f"SELECT id FROM a WHERE v > {rnd.randint(-500, 500)}", "SELECT m FROM a"])
    col = ch(['k', 'id', 'v', 'm', 'id - 1000'])
    aggs = ', '.join(rnd.sample(AGG_A, 2))
    if rnd.random() < 0.4:
        return f"SELECT g, {col} {neg}IN ({sub}) AS t, COUNT(*) FROM a GROUP BY g, t"
    if rnd.random() < 0.3:
        return f"SELECT g, SUM(CASE WHEN {col} {neg}IN ({sub}) THEN v ELSE 0 END), COUNT(*) FROM a GROUP BY g"
    return f"SELECT g, {aggs} FROM a WHERE {col} {neg}IN ({sub}) GROUP BY g"

def q_in_tpch():
    neg = ch(['', 'NOT '])
    sub = ch([f"SELECT o_orderkey FROM orders WHERE o_orderdate < DATE '199{rnd.randint(2, 8)}-03-01'",
              f"SELECT o_orderkey FROM orders WHERE o_custkey % {rnd.randint(2, 9)} = 0",
              f"SELECT c_custkey FROM customer WHERE c_nationkey = {rnd.randint(0, 24)}",
              f"SELECT ps_partkey FROM partsupp WHERE ps_availqty < {rnd.randint(100, 9000)}"])
    if 'o_orderkey' in sub:
        return f"SELECT l_returnflag, COUNT(*), SUM(l_quantity) FROM lineitem WHERE l_orderkey {neg}IN ({sub}) GROUP BY l_returnflag"
    if 'c_custkey' in sub:
        return f"SELECT o_orderstatus, COUNT(*), SUM(o_totalprice) FROM orders WHERE o_custkey {neg}IN ({sub}) GROUP BY o_orderstatus"
    return f"SELECT p_mfgr, COUNT(*) FROM part WHERE p_partkey {neg}IN ({sub}) GROUP BY p_mfgr"

def q_scalar():
    r = rnd.random()
    if r < 0.25:
        b = rnd.randint(1, 5); c = ch(['SM CASE', 'MED BOX', 'LG PKG', 'WRAP BAG', 'JUMBO JAR'])
        f = ch(['0.2', '0.5', '1', '1.2'])
        return (f"SELECT SUM(l_extendedprice) / 7.0 AS avg_yearly FROM lineitem, part WHERE p_partkey = l_partkey AND p_brand = 'Brand#{b}{rnd.randint(1, 5)}'"
                f" AND p_container = '{c}' AND l_quantity < (SELECT {f} * AVG(l_quantity) FROM lineitem WHERE l_partkey = p_partkey)")
    if r < 0.5:
        agg = ch(['AVG(v)', 'MAX(v)', 'MIN(v)', 'SUM(v)', 'AVG(d)'])
        op = ch(['>', '<', '>=', '='])
        return f"SELECT g, COUNT(*), SUM(v) FROM a WHERE v {op} (SELECT {agg} FROM a a2 WHERE a2.k = a.k) GROUP BY g"
    if r < 0.7:
        sc = ch(['(SELECT MAX(w) FROM b)', '(SELECT w FROM b WHERE k = -99)', '(SELECT AVG(v) FROM a)', '(SELECT COUNT(*) FROM e)',
                 '(SELECT SUM(ev) FROM e)', '(SELECT MIN(d2) FROM b WHERE w > 100)'])
        return ch([f"SELECT g, SUM(v), {sc} FROM a GROUP BY g",
                   f"SELECT g, SUM(v) FROM a GROUP BY g HAVING SUM(v) > {sc}",
                   f"SELECT g, SUM(CASE WHEN v > {sc} THEN 1 ELSE 0 END) FROM a GROUP BY g",
                   f"SELECT COUNT(*), COALESCE({sc}, -1) FROM a",
                   f"SELECT g, {sc} + COUNT(*) FROM a WHERE k < {rnd.randint(0, 60)} GROUP BY g"])
    if r < 0.85:
        return (f"SELECT b.name, (SELECT COUNT(*) FROM a WHERE a.k = b.k) AS n FROM b WHERE b.w > {rnd.randint(0, 15)}")
    return (f"SELECT g, SUM(v) FROM a WHERE v > (SELECT AVG(v) FROM a WHERE k < {rnd.randint(-5, 60)}) AND v < (SELECT AVG(v) FROM a WHERE k < {rnd.randint(-5, 60)}) + 500 GROUP BY g")

def q_join():
    jt = ch(['JOIN', 'LEFT JOIN'])
    aggs = ', '.join(rnd.sample(['COUNT(*)', 'COUNT(b.w)', 'SUM(a.v)', 'COUNT(DISTINCT a.g)', 'COUNT(DISTINCT b.name)',
                                 'SUM(b.w)', 'AVG(b.d2)', 'SUM(a.d * b.d2)', 'MAX(b.name)', 'SUM(DISTINCT b.w)', 'COUNT(b.k)'], 3))
    grp = ch(['b.name', 'a.g', 'b.w', 'a.g, b.name'])
    where = ch(['', ' WHERE ' + ch(['a.v > 0', 'b.w > 5', 'b.name IS NULL', 'a.k > 40', 'b.k IS NULL'])])
    return f"SELECT {grp}, {aggs} FROM a {jt} b ON a.k = b.k{where} GROUP BY {grp}"

def q_join_tpch():
    aggs = ', '.join(rnd.sample(['COUNT(*)', 'COUNT(DISTINCT c_custkey)', 'SUM(o_totalprice)', 'COUNT(DISTINCT o_orderstatus)',
                                 'COUNT(o_orderkey)', 'MAX(o_orderdate)', 'COUNT(DISTINCT n_regionkey)'], 3))
    return (f"SELECT n_name, {aggs} FROM customer JOIN nation ON c_nationkey = n_nationkey LEFT JOIN orders ON o_custkey = c_custkey"
            f" AND o_orderdate < DATE '199{rnd.randint(2, 8)}-01-01' GROUP BY n_name")

def q_order():
    d1 = ch(['ASC', 'DESC']); n1 = ch(['NULLS FIRST', 'NULLS LAST'])
    d2 = ch(['ASC', 'DESC']); n2 = ch(['NULLS FIRST', 'NULLS LAST'])
    lim = ch(['', f' LIMIT {rnd.randint(0, 50)}', f' LIMIT {rnd.randint(1, 20)} OFFSET {rnd.randint(0, 3100)}',
              ' LIMIT 1000000000', f' OFFSET {rnd.randint(2990, 3010)}', ' LIMIT 9223372036854775807'])
    r = rnd.random()
    if r < 0.5:
        key = ch(['k', 'g', 'v', 'd', 'x', 'dt', 'm', 'v % 7', 'k * 2 + m', 'COALESCE(v, k)', 'abs(m)'])
        key2 = ch(['v', 'd', 'g', 'dt'])
        return f"O|SELECT {key} AS s1, {key2} AS s2, id FROM a ORDER BY s1 {d1} {n1}, s2 {d2} {n2}, id{lim}"
    if r < 0.8:
        agg = ch(['SUM(v)', 'COUNT(*)', 'AVG(x)', 'MAX(d)', 'COUNT(DISTINCT g)', 'SUM(d)'])
        return f"O|SELECT k, {agg} AS s FROM a GROUP BY k ORDER BY s {d1} {n1}, k {d2} {n2}{lim}"
    return (f"O|SELECT l_orderkey, l_linenumber, l_extendedprice * (1 - l_discount) AS rev FROM lineitem WHERE l_shipdate > DATE '1995-0{rnd.randint(1, 9)}-01'"
            f" ORDER BY rev {d1}, l_orderkey {d2}, l_linenumber{ch([' LIMIT 10', ' LIMIT 100 OFFSET 50', ''])}")

def q_const():
    return ch([
        f"SELECT g, SUM(1+2), AVG(abs(-3)), COUNT(5), COUNT(NULL), MIN(7), MAX('q') FROM a WHERE {ch(FILT_A)} GROUP BY g",
        f"SELECT SUM(1+2), AVG(abs(-3)), COUNT(1), SUM(2.5), COUNT(NULL) FROM a WHERE {ch(FILT_A)}",
        "SELECT SUM(1), COUNT(*), AVG(3), MAX(1) FROM e",
        "SELECT k, SUM(1) FROM a WHERE k > 1000 GROUP BY k",
        f"SELECT g, SUM(2 * 3.5), COUNT(DISTINCT 1) FROM a GROUP BY g",
        "SELECT SUM(1) FROM a WHERE FALSE",
        "SELECT COUNT(*) FROM a WHERE 1 = 0",
    ])

def q_arith():
    e = ch(['v % m', 'm % 3', '-17 % m', 'v % -4', 'mod(v, m)', 'v / m', 'v // m', 'k % 0', 'd % 3',
            'd * d', 'd * 1.5', 'd / 3', 'd / 7.0', 'd * x', 'v * d', 'd + 0.001', 'd - k', 'CAST(d AS DECIMAL(12,4)) * 2',
            'v * 9223372036854775', 'v * v * v * v * v * v', 'v + 9223372036854775000', 'k * 4611686018427387904',
            'abs(v)', 'round(d, 1)', 'round(x, 2)', 'CAST(v AS DOUBLE) / 3', 'CASE WHEN v > 0 THEN d ELSE x END',
            'CASE WHEN v > 0 THEN d ELSE v END', 'COALESCE(v, d)', 'COALESCE(k, 1.5)', 'COALESCE(d, x, 0)',
            "CASE WHEN g = 'x' THEN 1 WHEN g = 'y' THEN 2.5 END", 'COALESCE(m, v)', 'greatest(v, k)', 'least(d, 0)',
            'EXTRACT(year FROM dt)', 'EXTRACT(month FROM dt)', 'EXTRACT(dow FROM dt)', 'EXTRACT(doy FROM dt)', "date_trunc('month', dt)",
            "date_trunc('year', dt)", "dt + INTERVAL 3 DAY", "dt - INTERVAL 1 MONTH", 'dt + 30', "dt - DATE '2000-01-01'",
            "EXTRACT(quarter FROM dt)", "date_trunc('quarter', dt)", "EXTRACT(week FROM dt)"])
    r = rnd.random()
    if r < 0.4:
        return f"SELECT id, {e} AS r FROM a WHERE id <= {rnd.randint(50, 3000)}"
    if r < 0.7:
        return f"SELECT g, SUM({e}), COUNT({e}), MIN({e}), MAX({e}) FROM a GROUP BY g"
    return f"SELECT {e} AS r, COUNT(*) FROM a GROUP BY r"

def q_tpch_decimal():
    return ch([
        "SELECT l_returnflag, SUM(l_extendedprice * (1 - l_discount) * (1 + l_tax)), AVG(l_discount), SUM(l_quantity * l_discount) FROM lineitem GROUP BY l_returnflag",
        "SELECT SUM(l_extendedprice * l_discount / l_quantity) FROM lineitem",
        "SELECT o_orderpriority, SUM(o_totalprice / 3), AVG(o_totalprice * 1.1) FROM orders GROUP BY o_orderpriority",
        "SELECT EXTRACT(year FROM o_orderdate) AS y, SUM(o_totalprice) FROM orders GROUP BY y",
        "SELECT date_trunc('month', l_shipdate) AS mth, COUNT(*) FROM lineitem WHERE l_shipdate >= DATE '1998-01-01' GROUP BY mth",
        "SELECT SUM(ps_supplycost * ps_availqty) FROM partsupp",
        "SELECT n_name, SUM(CASE WHEN c_acctbal > 0 THEN c_acctbal ELSE 0 END), SUM(COALESCE(c_acctbal, 0)) FROM customer JOIN nation ON c_nationkey = n_nationkey GROUP BY n_name",
        "SELECT l_shipmode, SUM(CASE WHEN o_orderpriority = '1-URGENT' OR o_orderpriority = '2-HIGH' THEN 1 ELSE 0 END) FROM orders, lineitem WHERE o_orderkey = l_orderkey AND l_shipmode IN ('MAIL', 'SHIP') GROUP BY l_shipmode",
        "SELECT 100.00 * SUM(CASE WHEN p_type LIKE 'PROMO%' THEN l_extendedprice * (1 - l_discount) ELSE 0 END) / SUM(l_extendedprice * (1 - l_discount)) FROM lineitem, part WHERE l_partkey = p_partkey",
    ])

def q_twice():
    sub = ch(["SELECT ck FROM cn WHERE cat < 2", "SELECT k FROM b WHERE w > 5", "SELECT ck FROM c WHERE cat = 1"])
    return ch([
        f"SELECT COUNT(*) FROM a WHERE id IN ({sub}) AND k IN ({sub})",
        f"SELECT (SELECT COUNT(*) FROM a WHERE id IN ({sub})), (SELECT COUNT(*) FROM a WHERE id NOT IN ({sub}))",
        f"SELECT g, SUM(CASE WHEN id IN ({sub}) THEN 1 ELSE 0 END), SUM(CASE WHEN id NOT IN ({sub}) THEN 1 ELSE 0 END) FROM a GROUP BY g",
        f"SELECT COUNT(*) FROM a WHERE EXISTS (SELECT * FROM b WHERE b.k = a.k) AND NOT EXISTS (SELECT * FROM b WHERE b.k = a.k AND b.w > 10)",
    ])

GENS = [(q_exists_small, 10), (q_exists_tpch, 5), (q_q21, 4), (q_q22, 3), (q_in_small, 12), (q_in_tpch, 5), (q_scalar, 10),
        (q_join, 8), (q_join_tpch, 3), (q_order, 12), (q_const, 5), (q_arith, 14), (q_tpch_decimal, 3), (q_twice, 4)]
pool = [g for g, w in GENS for _ in range(w)]
seen = set()
while len(seen) < N:
    q = ch(pool)()
    if q not in seen:
        seen.add(q)
        print(q)
