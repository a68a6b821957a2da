"""Writes the hostile tables of campaign 13 into DIR (default /tmp/h13/data): CSV files for `numacube serve --table`.

x.csv: text values that are HTML/JS, quotes, bidi controls, a 10,000-character string, a column whose *name* is HTML,
BIGINT beyond 2^53, DECIMAL(18,4) at 18 digits, DOUBLE -0.0 / subnormal-ish / huge, timestamps at a DST gap and at
year 1, an all-NULL column. empty.csv: a header only. wide.csv: 3,000 distinct members x 12 measures.
"""
import csv
import os
import sys

DIR = sys.argv[1] if len(sys.argv) > 1 else "/tmp/h13/data"
os.makedirs(DIR, exist_ok=True)

XSS_COL = '<img src=x onerror="document.body.dataset.xss=\'col\'">'
NAMES = [
    '<img src=x onerror="document.body.dataset.xss=\'name\'">',
    '<b id="injected-b">bold</b>',
    '"double" and \'single\' quotes',
    '</script><script>document.body.dataset.xss="script"</script>',
    '<meta http-equiv="refresh" content="2;url=/v1/health">',
    '<a id="injected-a" href="https://evil.example/">click</a>',
    '\u202eRTL override',
    'x' * 10000,
    '&amp; &lt; entity',
    '',
    None,
    '日本語 😀',
]
rows = []
for i, name in enumerate(NAMES):
    rows.append({
        "id": i + 1,
        "name": name,
        XSS_COL: NAMES[(i + 1) % len(NAMES)],
        "d": ["99999999999999.9999", "0.0001", "-0.0049", "12.3456", "0.0050", "-99999999999999.9999",
              "1.0000", "0.0000", "2.5000", "", "0.0049", "3.1416"][i],
        "big": [9007199254740993, 1, 2, 9007199254740993, 3, -9007199254740993, 5, 6, 7, "", 8, 9][i],
        "f": ["-0.0", "1e-300", "1.5e300", "0.1", "0.2", "-1e-9", "0.004", "-0.004", "0.005", "", "1", "2"][i],
        "ts": ["2024-03-10 02:30:00", "0001-01-01 00:00:00", "9999-12-31 23:59:59.999999", "2024-10-27 02:30:00",
               "2024-02-29 12:00:00", "1970-01-01 00:00:00", "2024-01-01 00:00:00.5", "", "2024-06-30 23:59:59",
               "2024-12-31 23:59:59", "2000-01-01 00:00:00", "2024-03-31 01:00:00"][i],
        "dt": ["2024-03-10", "0001-01-01", "9999-12-31", "2024-10-27", "2024-02-29", "1970-01-01", "2024-01-01",
               "", "2024-06-30", "2024-12-31", "2000-01-01", "2024-03-31"][i],
        "allnull": None,
    })
with open(os.path.join(DIR, "x.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
    w.writeheader()
    for r in rows:
        w.writerow({k: ("" if v is None else v) for k, v in r.items()})

with open(os.path.join(DIR, "empty.csv"), "w") as f:
    f.write("k,v,n\n")

with open(os.path.join(DIR, "wide.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["member", "grp"] + [f"m{j}" for j in range(12)])
    for i in range(3000):
        w.writerow([f"member-{i:05d}", f"g{i % 7}"] + [i * (j + 1) for j in range(12)])
print("wrote", DIR)
