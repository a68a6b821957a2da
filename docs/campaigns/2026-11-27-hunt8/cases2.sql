# strings
SELECT id, length(s), upper(s), lower(s) FROM e ORDER BY id
SELECT id, substring(s, 2, 2), substring(s, 0, 2), substring(s, -1, 3), substring(s, 5) FROM e ORDER BY id
SELECT id, substring(s FROM 2 FOR 2) FROM e ORDER BY id
SELECT id, substr(s, 2), substr(s, 100, 2) FROM e ORDER BY id
SELECT id, s || 'x', s || NULL, 'a' || id FROM e ORDER BY id
SELECT id, concat(s, 'x', NULL) FROM e ORDER BY id
SELECT id FROM e WHERE s LIKE '_' ORDER BY id
SELECT id FROM e WHERE s LIKE '__' ORDER BY id
SELECT id FROM e WHERE s LIKE '%ß%' ORDER BY id
SELECT id FROM e WHERE s LIKE 'a\_b%' ESCAPE '\' ORDER BY id
SELECT id FROM e WHERE s LIKE 'a#_b#%c' ESCAPE '#' ORDER BY id
SELECT id FROM e WHERE s LIKE 'a_b%' ORDER BY id
SELECT id FROM e WHERE s NOT LIKE 'a%' ORDER BY id
SELECT id FROM e WHERE s ILIKE 'ä%' ORDER BY id
SELECT id FROM e WHERE upper(s) = 'STRASSE' ORDER BY id
SELECT id, trim(s), ltrim(s), rtrim(s) FROM e ORDER BY id
SELECT id, replace(s, 'a', 'zz') FROM e ORDER BY id
SELECT id, reverse(s) FROM e ORDER BY id
SELECT id, left(s, 2), right(s, 2) FROM e ORDER BY id
SELECT id, position('b' IN s), strpos(s, 'b') FROM e ORDER BY id
SELECT id, starts_with(s, 'a') FROM e ORDER BY id
SELECT id FROM e ORDER BY s, id
SELECT id FROM e ORDER BY s DESC, id
SELECT id FROM e ORDER BY s NULLS FIRST, id
SELECT id FROM e ORDER BY s DESC NULLS LAST, id
SELECT s, COUNT(*) FROM e GROUP BY s ORDER BY s
SELECT MIN(s), MAX(s) FROM e WHERE id < 9
SELECT id FROM e WHERE s < 'b' ORDER BY id
SELECT id FROM e WHERE s > 'Z' ORDER BY id
SELECT id, s = 'a', s <> 'a' FROM e ORDER BY id
SELECT id, lpad(s, 5, '*'), rpad(s, 5, '*') FROM e ORDER BY id
SELECT id, repeat(s, 2) FROM e ORDER BY id
SELECT 'abc' || 1 || 2.50 || NULL
SELECT length(''), length(NULL), upper(NULL)
SELECT id, CAST(i AS VARCHAR), CAST(d AS VARCHAR), CAST(x AS VARCHAR) FROM e ORDER BY id
SELECT id, CAST(dt AS VARCHAR), CAST(ts AS VARCHAR) FROM e ORDER BY id
SELECT CAST('  12 ' AS BIGINT), CAST('1e3' AS DOUBLE), CAST('-0' AS BIGINT)
SELECT CAST('abc' AS BIGINT)
SELECT CAST('9223372036854775808' AS BIGINT)
SELECT CAST('2024-02-30' AS DATE)
# dates
SELECT id, EXTRACT(year FROM dt), EXTRACT(month FROM dt), EXTRACT(day FROM dt), EXTRACT(dow FROM dt), EXTRACT(doy FROM dt) FROM e ORDER BY id
SELECT id, EXTRACT(week FROM dt), EXTRACT(isodow FROM dt), EXTRACT(quarter FROM dt) FROM e ORDER BY id
SELECT id, EXTRACT(isoyear FROM dt) FROM e ORDER BY id
SELECT id, EXTRACT(hour FROM ts), EXTRACT(minute FROM ts), EXTRACT(second FROM ts) FROM e ORDER BY id
SELECT id, date_trunc('month', dt), date_trunc('year', dt), date_trunc('week', dt), date_trunc('quarter', dt) FROM e ORDER BY id
SELECT id, date_trunc('day', ts), date_trunc('hour', ts), date_trunc('month', ts) FROM e ORDER BY id
SELECT id, dt + 1, dt - 1 FROM e ORDER BY id
SELECT id, dt + INTERVAL 1 MONTH, dt - INTERVAL 1 YEAR FROM e ORDER BY id
SELECT id, dt + INTERVAL '-1' DAY FROM e ORDER BY id
SELECT id, ts + INTERVAL 1 SECOND, ts - INTERVAL 1 HOUR FROM e ORDER BY id
SELECT id, dt - DATE '2000-01-01' FROM e ORDER BY id
SELECT id, ts - TIMESTAMP '2000-01-01 00:00:00' FROM e ORDER BY id
SELECT id FROM e WHERE dt = ts ORDER BY id
SELECT id FROM e WHERE dt < ts ORDER BY id
SELECT id FROM e WHERE dt = TIMESTAMP '2000-01-01 00:00:00' ORDER BY id
SELECT id FROM e WHERE ts >= DATE '2024-01-01' ORDER BY id
SELECT id, CAST(ts AS DATE), CAST(dt AS TIMESTAMP) FROM e ORDER BY id
SELECT DATE '2024-02-29' + INTERVAL 1 YEAR, DATE '2024-01-31' + INTERVAL 1 MONTH, DATE '2023-03-31' - INTERVAL 1 MONTH
SELECT DATE '9999-12-31' + 1
SELECT DATE '0001-01-01' - 1
SELECT DATE '2024-01-01' + INTERVAL 10000 YEAR
SELECT TIMESTAMP '2024-01-01 00:00:00' - INTERVAL 1 MICROSECOND
SELECT EXTRACT(year FROM DATE '0001-01-01'), EXTRACT(dow FROM DATE '0001-01-01'), EXTRACT(week FROM DATE '2021-01-03')
SELECT date_trunc('week', DATE '0001-01-01')
SELECT id, year(dt), month(dt), day(dt) FROM e ORDER BY id
SELECT id, dayofweek(dt), dayofyear(dt) FROM e ORDER BY id
SELECT id, date_part('year', dt), date_part('epoch', ts) FROM e ORDER BY id
SELECT id, EXTRACT(epoch FROM ts) FROM e ORDER BY id
SELECT id, EXTRACT(millisecond FROM ts), EXTRACT(microsecond FROM ts) FROM e ORDER BY id
