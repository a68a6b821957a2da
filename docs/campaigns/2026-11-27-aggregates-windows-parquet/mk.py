import random, csv
random.seed(9)
I=2**31-1; B=2**63-1
rows=[]
texts=['a','b','Äb','straße','日本','😀x','','zz',None]
for n in range(1,61):
    k = random.choice(['x','y','z',None])
    k2 = random.choice([1,2,3,None])
    i = random.choice([I, I-1, -I-1, 7, None]) if n<=40 else random.choice([1,2,None])
    b = random.choice([B//4, B//4+1, -(B//4), 5, None])
    d = random.choice(['9999999999999999.99','-9999999999999999.99','0.01','123.45', None])
    d2 = random.choice(['1.10','2.25','-3.33', None])
    x = random.choice([0.1, 2.5, -1.25, 1e10, None])
    s = random.choice(texts)
    dt = random.choice(['2024-02-29','0001-01-01','9999-12-31','2000-01-01', None])
    ts = random.choice(['2024-02-29 12:34:56.123456','1970-01-01 00:00:00','2000-01-01 23:59:59', None])
    f = random.choice(['true','false',None])
    allnull = None
    rows.append([n,k,k2,i,b,d,d2,x,s,dt,ts,f,allnull])
hdr=['id','k','k2','i','b','d','d2','x','s','dt','ts','f','nn']
def w(path, rs):
    with open(path,'w',newline='') as fh:
        wr=csv.writer(fh)
        wr.writerow(hdr)
        for r in rs:
            fh.write(','.join('' if v is None else ('""' if v=='' else (('"'+v+'"') if isinstance(v,str) and (',' in v) else str(v))) for v in r)+'\n')
w('/tmp/h9/g.csv', rows)
