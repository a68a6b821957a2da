import random
random.seed(5)
def w(name, header, rows):
    with open(f'/tmp/h5/{name}.csv','w') as f:
        f.write(','.join(header)+'\n')
        for r in rows:
            f.write(','.join('' if v is None else str(v) for v in r)+'\n')
def maybe(v, p=0.15):
    return None if random.random() < p else v
# fact table a
rows=[]
for i in range(1, 3001):
    k = maybe(random.randint(-5, 60))
    g = maybe(random.choice(['x','y','z','w','']), 0.1)
    if g == '': g = 'e'
    v = maybe(random.randint(-1000, 1000))
    d = maybe('%d.%02d' % (random.randint(-500, 500), random.randint(0,99)))
    x = maybe(round(random.uniform(-100, 100), 3))
    dt = maybe('20%02d-%02d-%02d' % (random.randint(0,30), random.randint(1,12), random.randint(1,28)))
    m = maybe(random.randint(-7, 7))
    rows.append((i, k, g, v, d, x, dt, m))
w('a', ['id','k','g','v','d','x','dt','m'], rows)
# dimension b: keys 0..49 with some NULL keys, some missing
rows=[]
for k in range(0, 50):
    if k % 7 == 3: continue
    rows.append((k, maybe('n%d' % (k % 9)), maybe(random.randint(0, 20)), maybe('%d.%03d' % (random.randint(0,99), random.randint(0,999)))))
rows.append((None, 'nullkey', 5, '1.000'))
rows.append((None, 'nullkey2', 6, '2.000'))
w('b', ['k','name','w','d2'], rows)
# c: many integer keys with NULLs, duplicates
rows=[]
for i in range(0, 1500):
    rows.append((maybe(random.randint(0, 3000), 0.02), random.randint(0, 3)))
w('c', ['ck','cat'], rows)
# cn: many integer keys, no NULLs
rows=[(random.randint(0, 3000), random.randint(0, 3)) for i in range(800)]
w('cn', ['ck','cat'], rows)
# e: empty table (header only) with typed columns
w('e', ['ek','ev'], [])
