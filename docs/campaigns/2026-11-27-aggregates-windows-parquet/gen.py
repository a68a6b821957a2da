"""Random aggregate queries over p_snappy (5,000 rows of every type, NULLs) and big (300,000 rows)."""
import random, sys
seed, n = int(sys.argv[1]), int(sys.argv[2])
r = random.Random(seed)
T = {
 'p_snappy': dict(
   keys=['s_dict','b_bool','t_tiny','u_tiny','d_date','s_text','dec4','all_null_int','all_null_text','t_small % 10','id % 100',
         'f_float','ts_s','year(d_date)','upper(s_dict)',"coalesce(s_dict, '?')","CASE WHEN t_int > 0 THEN 'p' END",'dec4 * 2',
         'length(s_text)','ts','u_small','t_int','dec18','month(ts)','id % 7 = 0'],
   meas=['t_int','t_small','u_int','f_double','f_float','dec4','dec9','dec18','dec10','all_null_int','u_small','t_tiny','id'],
   other=['s_text','d_date','ts','s_dict','ts_ns','b_bool','all_null_text','tstz'],
   conds=['t_int > 100000','s_dict = \'a\'','s_dict IS NULL','b_bool','NOT b_bool','d_date BETWEEN DATE \'2000-06-01\' AND DATE \'2030-01-01\'',
          'dec9 < 0','t_big IS NOT NULL','s_text LIKE \'v1%\'','id % 3 = 0','all_null_int IS NULL','u_tiny IN (1, 2, 3)','f_double > 500',
          'dec18 > 1000000000','ts < TIMESTAMP \'2020-01-10 00:00:00\'','s_text = \'\'','t_small BETWEEN -100 AND 20000','id < 0','s_dict <> \'b\'',
          'all_null_text IS NOT NULL', 'dec4 = 12.5', 'u_int > 200000000']),
 'big': dict(
   keys=['s_hi','dt','small','id % 1000','year(dt)','big % 10','dd','substring(s_hi, 1, 7)','id % 70000'],
   meas=['big','dd','small','id'],
   other=['s_hi','dt'],
   conds=['small = 3','dt > DATE \'2010-01-01\'','s_hi IS NULL','dd > 5','big % 2 = 0','id BETWEEN 1000 AND 200000','s_hi LIKE \'name-1%\'','dt IS NULL']),
}
def agg(t):
    m = r.choice(t['meas']); o = r.choice(t['other']); c = r.choice(t['conds'])
    k = r.choice(t['keys'] + t['other'])
    return r.choice([
        'COUNT(*)', f'COUNT({m})', f'SUM({m})', f'AVG({m})', f'MIN({m})', f'MAX({m})', f'COUNT(DISTINCT {k})',
        f'MIN({o})', f'MAX({o})', f'SUM({m}) FILTER (WHERE {c})', f'COUNT(*) FILTER (WHERE {c})',
        f'SUM(CASE WHEN {c} THEN {m} END)', f'SUM({m} * 2)', f'MAX({m}) - MIN({m})', f'COUNT(DISTINCT {m})',
        f'AVG({m}) FILTER (WHERE {c})', f'MIN({m}) FILTER (WHERE {c})', f'COUNT({o})', f'COUNT(DISTINCT {o})',
        f'SUM({m}) / COUNT(*)', f'COALESCE(SUM({m}), 0)', f'SUM(abs({m}))', f'MAX({o}) FILTER (WHERE {c})'])
for _ in range(n):
    tn = r.choice(['p_snappy', 'p_snappy', 'big'])
    t = T[tn]
    nk = r.choice([0, 1, 1, 1, 2, 2, 3])
    keys = r.sample(t['keys'], nk)
    aggs = [agg(t) for _ in range(r.randint(1, 4))]
    where = ''
    if r.random() < 0.5:
        where = ' WHERE ' + r.choice(t['conds'])
        if r.random() < 0.3:
            where += r.choice([' AND ', ' OR ']) + r.choice(t['conds'])
    sel = ', '.join(keys + aggs)
    q = f'SELECT {sel} FROM {tn}{where}'
    if keys:
        q += ' GROUP BY ' + (', '.join(str(i + 1) for i in range(nk)) if r.random() < 0.3 else ', '.join(keys))
    if r.random() < 0.25:
        q += ' HAVING ' + r.choice(['COUNT(*) > 3', f'SUM({r.choice(t["meas"])}) IS NOT NULL', f'MIN({r.choice(t["other"])}) IS NULL', 'COUNT(*) = 1'])
    if keys and r.random() < 0.3:
        q += ' ORDER BY ' + ', '.join(str(i + 1) for i in range(len(keys) + len(aggs))) + f' LIMIT {r.randint(0, 20)}'
        q = 'O|' + q
    print(q)
