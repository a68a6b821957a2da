import random, csv
random.seed(6)
rows=[]
for i in range(1,61):
    def n(v): return '' if random.random()<0.12 else v
    rows.append([i, n(str(random.randint(-50,50))), n('%.2f'%(random.randint(-99999,99999)/100)), n('%.4f'%(random.randint(-10**9,10**9)/10**4)),
      n(repr(random.choice([0.1,1.5,-2.25,3.0,1e10,-0.0,2.5,7.125]))), n('2024-%02d-%02d'%(random.randint(1,12),random.randint(1,28))),
      n('2024-%02d-%02d %02d:%02d:%02d'%(random.randint(1,12),random.randint(1,28),random.randint(0,23),random.randint(0,59),random.randint(0,59))),
      n(random.choice(['a','b','10','2','1.5','x y',"o'k",'A','-3'])), n(random.choice(['true','false']))])
with open('p.csv','w',newline='') as f:
    w=csv.writer(f); w.writerow(['id','i','d','d3','x','dt','ts','s','b']); w.writerows(rows)
