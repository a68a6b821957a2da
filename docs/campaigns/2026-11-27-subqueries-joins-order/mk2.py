import random
random.seed(9)
# f: outer with keys of several types; keys 0..999 with NULLs
with open('/tmp/h5/f.csv','w') as f:
    f.write('fk,fi,fd,fx,fs,grp\n')
    for i in range(2000):
        k = random.randint(-10, 1200)
        nul = random.random() < 0.1
        f.write(','.join(['' if nul else str(k), '' if nul else str(k), '' if nul else '%d.%02d' % (k, random.choice([0,0,0,50])),
                          '' if nul else str(k + random.choice([0.0, 0.0, 0.5])), '' if nul else 'k%d' % k, 'g%d' % (i % 5)]) + '\n')
# s: inner keys, >= 256 distinct, with NULLs and a second column
with open('/tmp/h5/s.csv','w') as f:
    f.write('sk,sv,sd\n')
    for i in range(3000):
        k = random.randint(0, 1000)
        f.write(('' if random.random() < 0.03 else str(k)) + ',' + str(random.randint(0, 9)) + ',' + '%d.%02d' % (k, random.choice([0, 0, 25])) + '\n')
