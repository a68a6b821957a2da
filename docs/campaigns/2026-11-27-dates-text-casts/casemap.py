"""upper() and lower() of every code point U+0020..U+1FFFF (surrogates and U+FFFE/FFFF left out), in chunks of 400,
as constants: numacube (HTTP) against DuckDB; prints the code points mapped differently."""
import sys, json, urllib.request, duckdb
url = sys.argv[1]
d = duckdb.connect()
cps = [c for c in range(0x20, 0x20000) if not (0xD800 <= c <= 0xDFFF) and c not in (0xFFFE, 0xFFFF) and chr(c) != "'"]
diffs = {}
def numa(sql):
    req = urllib.request.Request(url + "/v1/query", data=json.dumps({"sql": sql}).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())["rows"][0]
for i in range(0, len(cps), 400):
    chunk = cps[i:i + 400]
    s = "".join(chr(c) for c in chunk)
    sql = f"SELECT upper('{s}'), lower('{s}')"
    nu, nl = numa(sql)
    du, dl = d.execute(sql).fetchone()
    for name, a, b in (("upper", nu, du), ("lower", nl, dl)):
        if a != b:
            if len(a) != len(b):
                diffs[(name, chunk[0])] = f"lengths {len(a)} vs {len(b)}"
            else:
                for c, x, y in zip(chunk, a, b):
                    if x != y:
                        diffs[(name, c)] = f"U+{c:04X} {chr(c)}: numa U+{ord(x):04X} {x}  duck U+{ord(y):04X} {y}"
for k, v in sorted(diffs.items()):
    print(k[0], v)
print(f"{len(cps)} code points, {len(diffs)} mapped differently", file=sys.stderr)
