"""Campaign 13: which of Calcite's parser keywords (kw.txt: the tokens of SqlParserImplConstants in calcite-core 1.42)
break the page's statements when a column or table is named so, unquoted. usage: keywords.py HTTP_URL (serves `names`)"""
import json, sys, urllib.request
U = sys.argv[1]
def code(sql):
    req = urllib.request.Request(U + "/v1/query", data=sql.encode(), headers={"Content-Type": "text/plain"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return "ok"
    except urllib.error.HTTPError as e:
        return json.loads(e.read())["error"]["code"]
bad = []
for kw in open(__import__("os").path.join(__import__("os").path.dirname(__file__), "kw.txt")).read().split():
    k = kw.lower()
    if not k.isidentifier():
        continue
    shapes = [f"SELECT {k}, COUNT({k}) AS v FROM names WHERE ({k} = 'q' OR {k} IS NULL) GROUP BY {k} ORDER BY {k}",
              f"SELECT names.{k} FROM names LEFT JOIN names ON names.{k} = {k}.{k}",
              f"SELECT COUNT(*) FROM {k}", f"SELECT year({k}), strftime({k}, '%Y') FROM names",
              f"SELECT COUNT(DISTINCT {k}) FROM names"]
    codes = [code(s) for s in shapes]
    if any(c in ("42601", "XX000") for c in codes):
        bad.append((k, codes))
print(len(bad))
print(" ".join(k for k, _ in bad))
print([b for b in bad if "XX000" in b[1]][:5])
