"""Writes Parquet files with DuckDB into /tmp/h9/pq: one base table of many types with NULLs, under several
codecs, row group sizes and Parquet versions; plus files numacube should refuse."""
import duckdb, os
os.chdir('/tmp/h9/pq')
con = duckdb.connect()
N = 5000
con.execute(f"""
CREATE TABLE base AS SELECT
  i::BIGINT AS id,
  CASE WHEN i % 7 = 0 THEN NULL ELSE (i % 2 = 0) END AS b_bool,
  CASE WHEN i % 7 = 1 THEN NULL ELSE ((i % 256) - 128)::TINYINT END AS t_tiny,
  CASE WHEN i % 7 = 2 THEN NULL ELSE ((i * 13 % 65536) - 32768)::SMALLINT END AS t_small,
  CASE WHEN i % 7 = 3 THEN NULL WHEN i = 5 THEN 2147483647 WHEN i = 6 THEN -2147483648 ELSE (i * 7919)::INTEGER END AS t_int,
  CASE WHEN i % 7 = 4 THEN NULL WHEN i = 8 THEN 9223372036854775807 WHEN i = 9 THEN -9223372036854775808 ELSE (i::BIGINT * 1000003 * 1000003) END AS t_big,
  CASE WHEN i % 11 = 0 THEN NULL ELSE (i % 256)::UTINYINT END AS u_tiny,
  CASE WHEN i % 11 = 1 THEN NULL ELSE (i * 17 % 65536)::USMALLINT END AS u_small,
  CASE WHEN i % 11 = 2 THEN NULL WHEN i = 13 THEN 4294967295 ELSE (i * 104729)::UINTEGER END AS u_int,
  CASE WHEN i % 7 = 5 THEN NULL ELSE (i::FLOAT / 8) END AS f_float,
  CASE WHEN i % 7 = 6 THEN NULL WHEN i = 10 THEN -0.0 WHEN i = 12 THEN 1e300 ELSE i / 3.0 END AS f_double,
  CASE WHEN i % 5 = 0 THEN NULL ELSE (i / 10.0)::DECIMAL(4,1) END AS dec4,
  CASE WHEN i % 5 = 1 THEN NULL ELSE (i * 1234.57 - 3000000)::DECIMAL(9,2) END AS dec9,
  CASE WHEN i % 5 = 2 THEN NULL WHEN i = 14 THEN 999999999999999.999 WHEN i = 15 THEN -999999999999999.999 ELSE (i * 1234567.891)::DECIMAL(18,3) END AS dec18,
  CASE WHEN i % 5 = 3 THEN NULL ELSE (i * 0.00001)::DECIMAL(10,5) END AS dec10,
  CASE WHEN i % 9 = 0 THEN NULL WHEN i = 1 THEN DATE '0001-01-01' WHEN i = 2 THEN DATE '9999-12-31' ELSE DATE '2000-01-01' + (i * 37 % 20000)::INTEGER END AS d_date,
  CASE WHEN i % 9 = 1 THEN NULL WHEN i = 3 THEN TIMESTAMP '1969-12-31 23:59:59.999999' ELSE TIMESTAMP '2020-01-01' + to_microseconds(i * 123456789) END AS ts,
  CASE WHEN i % 9 = 2 THEN NULL ELSE TIMESTAMPTZ '2020-03-29 00:30:00+00' + to_microseconds(i * 987654321) END AS tstz,
  CASE WHEN i % 9 = 3 THEN NULL ELSE (TIMESTAMP '2021-06-01' + to_microseconds(i * 1000))::TIMESTAMP_MS END AS ts_ms,
  CASE WHEN i % 9 = 4 THEN NULL ELSE (TIMESTAMP '2021-06-01 00:00:00.123456' + to_microseconds(i * 3))::TIMESTAMP_NS END AS ts_ns,
  CASE WHEN i % 9 = 5 THEN NULL ELSE (TIMESTAMP '2021-06-01' + to_seconds(i))::TIMESTAMP_S END AS ts_s,
  CASE WHEN i % 6 = 0 THEN NULL WHEN i % 6 = 1 THEN '' WHEN i % 6 = 2 THEN 'straße ' || (i % 10) WHEN i % 6 = 3 THEN '日本語😀' || (i % 3) ELSE 'v' || i END AS s_text,
  CASE WHEN i % 4 = 0 THEN NULL ELSE ['a','b','c'][(i % 3) + 1] END AS s_dict,
  NULL::INTEGER AS all_null_int,
  NULL::VARCHAR AS all_null_text
FROM range({N}) t(i)
""")
def w(name, opts, sql="SELECT * FROM base ORDER BY id"):
    con.execute(f"COPY ({sql}) TO '{name}' (FORMAT parquet{', ' + opts if opts else ''})")
for codec in ['snappy', 'zstd', 'gzip', 'uncompressed', 'lz4_raw', 'brotli']:
    w(f'all_{codec}.parquet', f"COMPRESSION {codec}")
w('all_rg.parquet', "ROW_GROUP_SIZE 700")
w('all_v2.parquet', "PARQUET_VERSION V2")
w('all_v2_rg.parquet', "PARQUET_VERSION V2, ROW_GROUP_SIZE 1000, COMPRESSION zstd")
w('all_nodict.parquet', "DICTIONARY_SIZE_LIMIT 1")
w('empty.parquet', "", "SELECT * FROM base WHERE false")
w('one.parquet', "", "SELECT * FROM base WHERE id = 0")
w('nulls_only.parquet', "", "SELECT NULL::BIGINT a, NULL::VARCHAR b, NULL::DATE c, NULL::DECIMAL(9,2) d, NULL::BOOLEAN e FROM range(100)")
# refused kinds
w('ubig.parquet', "", "SELECT (range * 1000)::UBIGINT AS u FROM range(10)")
w('ubig_big.parquet', "", "SELECT CASE WHEN range = 3 THEN 18446744073709551615 ELSE range END::UBIGINT AS u FROM range(10)")
w('huge.parquet', "", "SELECT range::HUGEINT * 3 AS h FROM range(10)")
w('dec38.parquet', "", "SELECT (range * 1.5)::DECIMAL(38,10) AS d FROM range(10)")
w('dec20.parquet', "", "SELECT (range * 1.5)::DECIMAL(20,2) AS d FROM range(10)")
w('time.parquet', "", "SELECT TIME '12:34:56' + to_seconds(range) AS t FROM range(10)")
w('interval.parquet', "", "SELECT to_days(range) AS iv FROM range(10)")
w('uuid.parquet', "", "SELECT uuid() AS u FROM range(10)")
w('blob.parquet', "", "SELECT 'ab\\x00c'::BLOB AS b FROM range(10)")
w('list.parquet', "", "SELECT range AS id, [range, range+1] AS l FROM range(10)")
w('struct.parquet', "", "SELECT range AS id, {'a': range, 'b': 'x'} AS st FROM range(10)")
w('map.parquet', "", "SELECT range AS id, MAP {'k': range} AS m FROM range(10)")
w('enum.parquet', "", "SELECT range AS id, (['x','y','z'][range % 3 + 1])::ENUM('x','y','z') AS e FROM range(10)")
w('nan.parquet', "", "SELECT range AS id, CASE WHEN range = 4 THEN 'nan'::DOUBLE ELSE range END AS x FROM range(10)")
w('inf.parquet', "", "SELECT range AS id, CASE WHEN range = 4 THEN 'inf'::DOUBLE ELSE range END AS x FROM range(10)")
w('float_nan.parquet', "", "SELECT range AS id, CASE WHEN range = 4 THEN 'nan'::FLOAT ELSE range END AS x FROM range(10)")
w('bigdate.parquet', "", "SELECT DATE '9999-12-31' + range::INTEGER AS d FROM range(3)")
w('bcdate.parquet', "", "SELECT DATE '0001-01-01' - (range::INTEGER + 1) AS d FROM range(3)")
w('dupcol.parquet', "", "SELECT 1 AS a, 2 AS \"A\"")
w('weirdname.parquet', "", "SELECT 1 AS \"a b\", 2 AS \"select\", 3 AS \"日本\"")
w('manyrg_small.parquet', "ROW_GROUP_SIZE 1", "SELECT range AS id, range % 3 AS k FROM range(50)")
w('longtext.parquet', "", "SELECT range AS id, repeat('x', 100000) || range AS s FROM range(20)")
# truncated / corrupt
data = open('all_snappy.parquet', 'rb').read()
open('trunc.parquet', 'wb').write(data[: len(data) // 2])
open('trunc_tail.parquet', 'wb').write(data[:-3])
bad = bytearray(data); mid = len(bad)//3
for j in range(mid, mid+200): bad[j] ^= 0x5A
open('corrupt_mid.parquet', 'wb').write(bytes(bad))
open('magic_only.parquet', 'wb').write(b'PAR1')
open('zero.parquet', 'wb').write(b'')
print(sorted(os.listdir('.')))
