import random, datetime, sys
r = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
base = datetime.date(1994, 1, 1)
with open('/tmp/h7/mask/m.csv', 'w') as f:
    f.write('id,dt,dc,q,s,p\n')
    for i in range(6000):
        def nul(x, pr=0.03): return '' if r.random() < pr else x
        dt = nul(str(base + datetime.timedelta(days=r.randint(0, 399))))
        dc = nul(f"{r.randint(0, 10) / 100:.2f}")
        q = nul(str(r.randint(1, 50) if r.random() < 0.7 else r.randint(1, 400)))
        s = nul(f"s{r.randint(0, 299):03d}")
        p = nul(f"{r.randint(100, 999999) / 100:.2f}")
        f.write(f"{i},{dt},{dc},{q},{s},{p}\n")
