"""Writes /tmp/hunt10/r.csv: 300 random short texts over an alphabet of LIKE metacharacters, case pairs,
surrogate pairs and code points that sort differently by UTF-16 and by code point; random timestamps 1600..2400
with fractions (many before 1970); random BIGINTs near the overflow edges."""
import random
R = random.Random(10)
ALPHA = ['a', 'b', 'A', 'B', '%', '_', '\\', '😀', 'ß', ' ', 'é', 'ｚ', '\ue000', '!', 'İ', 'i', 'σ', 'Σ', 'ς', '𐐀', '𐐨']
def text():
    return ''.join(R.choice(ALPHA) for _ in range(R.choice([0, 1, 1, 2, 2, 3, 3, 4, 5, 7])))
def ts():
    y = R.choice([R.randint(1600, 2400), R.randint(1965, 1975), 1969, 1970])
    frac = R.choice(['', '', '.5', '.000001', '.999999', f'.{R.randint(0, 999999):06d}'])
    return f'{y:04d}-{R.randint(1, 12):02d}-{R.randint(1, 28):02d} {R.randint(0, 23):02d}:{R.randint(0, 59):02d}:{R.randint(0, 59):02d}{frac}'
def big():
    return R.choice([R.randint(-10**6, 10**6), 2**63 - 1 - R.randint(0, 5), -2**63 + R.randint(0, 5), 2**62 + R.randint(-9, 9),
                     -(2**62) + R.randint(-9, 9), 2**31 + R.randint(-3, 3), -(2**31) + R.randint(-3, 3), 0, -1, 1])
def q(v):
    return '"' + v.replace('"', '""') + '"'
with open('/tmp/hunt10/r.csv', 'w') as f:
    f.write('id,s,ts,b,n\n')
    for i in range(300):
        s = '' if R.random() < 0.05 else q(text())
        t = '' if R.random() < 0.05 else ts()
        b = '' if R.random() < 0.05 else str(big())
        n = '' if R.random() < 0.05 else str(R.randint(-9, 9))
        f.write(f'{i},{s},{t},{b},{n}\n')
