import duckdb, pyarrow as pa, pyarrow.parquet as pq, datetime, decimal, random
con = duckdb.connect()
con.execute("""COPY (SELECT range AS id,
  CASE WHEN range % 13 = 0 THEN NULL ELSE 'name-' || (range * 7919 % 200003) || '-é' END AS s_hi,
  CASE WHEN range % 17 = 0 THEN NULL ELSE (range % 97)::DECIMAL(9,2) / 7 END AS dd,
  CASE WHEN range % 19 = 0 THEN NULL ELSE range * 1000003 END AS big,
  CASE WHEN range % 23 = 0 THEN NULL ELSE DATE '2000-01-01' + (range % 9000)::INTEGER END AS dt,
  (range % 5)::UTINYINT AS small
  FROM range(300000)) TO '/tmp/h9/pq/big.parquet' (FORMAT parquet)""")
print(con.execute("select row_group_id, path_in_schema, encodings, num_values, total_compressed_size from parquet_metadata('/tmp/h9/pq/big.parquet') where path_in_schema='s_hi'").fetchall())
# pyarrow: dictionary fallback inside one column chunk, small pages, data page v2, int96
n = 50000
rnd = random.Random(3)
s = [None if i % 11 == 0 else ('k%d' % (i % 50) if i < 20000 else 'u%d-%s' % (i, 'ß' * (i % 4))) for i in range(n)]
t = pa.table({
  'id': pa.array(range(n), pa.int64()),
  's': pa.array(s, pa.string()),
  'i32': pa.array([None if i % 7 == 0 else (i * 31337) % 2**31 - 2**30 for i in range(n)], pa.int32()),
  'ts': pa.array([None if i % 5 == 0 else datetime.datetime(2020,1,1) + datetime.timedelta(seconds=i*37, microseconds=i) for i in range(n)], pa.timestamp('us')),
  'dec': pa.array([None if i % 9 == 0 else decimal.Decimal(i) / 100 for i in range(n)], pa.decimal128(12, 2)),
  'f': pa.array([None if i % 3 == 0 else i % 2 == 0 for i in range(n)], pa.bool_()),
})
pq.write_table(t, '/tmp/h9/pq/pa_fallback.parquet', store_decimal_as_integer=True, dictionary_pagesize_limit=4096, data_page_size=8192, row_group_size=20000)
pq.write_table(t, '/tmp/h9/pq/pa_v2.parquet', store_decimal_as_integer=True, data_page_version='2.0', data_page_size=8192, row_group_size=15000, compression='zstd')
pq.write_table(t, '/tmp/h9/pq/pa_int96.parquet', store_decimal_as_integer=True, use_deprecated_int96_timestamps=True, use_dictionary=False, compression='gzip')
pq.write_table(t, '/tmp/h9/pq/pa_delta.parquet', store_decimal_as_integer=True, use_dictionary=False, column_encoding={'id': 'DELTA_BINARY_PACKED', 'i32': 'DELTA_BINARY_PACKED', 's': 'DELTA_BYTE_ARRAY'}, data_page_version='2.0')
pq.write_table(t, '/tmp/h9/pq/pa_bss.parquet', store_decimal_as_integer=True, use_dictionary=False, column_encoding={'i32': 'BYTE_STREAM_SPLIT', 's': 'DELTA_LENGTH_BYTE_ARRAY'})
for f in ['pa_fallback','pa_v2','pa_int96','pa_delta','pa_bss']:
    md = pq.ParquetFile(f'/tmp/h9/pq/{f}.parquet').metadata
    print(f, md.num_row_groups, [md.row_group(0).column(j).encodings for j in range(6)], md.row_group(0).column(4).physical_type)
