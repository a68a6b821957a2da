# integer overflow / division
SELECT 9223372036854775807 + 1
SELECT -9223372036854775808, -9223372036854775807 - 1
SELECT 9223372036854775808
SELECT 4611686018427387904 * 2
SELECT 3037000500 * 3037000500
SELECT -(-9223372036854775807 - 1)
SELECT abs(-9223372036854775807 - 1)
SELECT (-9223372036854775807 - 1) / -1, (-9223372036854775807 - 1) % -1
SELECT 7 / 2, -7 / 2, 7 / -2, -7 / -2, 7 % 2, -7 % 2, 7 % -2, -7 % -2
SELECT mod(-7, 2), mod(7, -2), mod(-7.5, 2), -7.5 % 2, 7.5 % -2
SELECT 7.0 / 2, 7 / 2.0, 1 / 3, 2 / 3.0, 10 / 4
SELECT 1 / 0
SELECT 1 % 0
SELECT 1.0 / 0
SELECT 1.0 % 0
SELECT 1e0 / 0, -1e0 / 0, 0e0 / 0
SELECT 5e0 % 0
SELECT -7e0 % 2, 7e0 % -2, -7.5e0 % 2
SELECT id, i / 2, i % 2, -i % 3, i % -3 FROM t ORDER BY id
SELECT id, b % 7, b % -7, mod(b, 10) FROM t ORDER BY id
SELECT id, d % 1, d % -0.3, mod(d, 2) FROM t ORDER BY id
SELECT id, x % 2, x % -0.3 FROM t ORDER BY id
SELECT id, i / i FROM t WHERE i <> 0 ORDER BY id
SELECT id, i / 0 FROM t ORDER BY id
SELECT id, i % 0 FROM t WHERE i IS NOT NULL ORDER BY id
SELECT id, d / 0 FROM t ORDER BY id
SELECT id, x / 0 FROM t ORDER BY id
SELECT id FROM t WHERE i / 2 = 3.5 ORDER BY id
SELECT id FROM t WHERE i / 2 > 1 ORDER BY id
SELECT i / 2 AS h, COUNT(*) FROM t GROUP BY h ORDER BY h NULLS FIRST
SELECT i % 3 AS h, COUNT(*) FROM t GROUP BY h ORDER BY h NULLS FIRST
SELECT id, b * 2 FROM t ORDER BY id
SELECT id, b + b FROM t WHERE id IN (3, 4) ORDER BY id
SELECT id, b + 1 FROM t WHERE id = 3
SELECT id, b - 1 FROM t WHERE id = 2
SELECT id, b - 2 FROM t WHERE id = 2
SELECT id, -b, abs(b) FROM t ORDER BY id
SELECT id, i * i FROM t ORDER BY id
SELECT id, i * i * i FROM t ORDER BY id
SELECT id, b * i FROM t WHERE id IN (8, 10, 13) ORDER BY id
SELECT SUM(b) FROM t WHERE id IN (2, 3)
SELECT SUM(b * 2) FROM t WHERE id IN (13, 14)
SELECT SUM(i * 4294967296) FROM t
SELECT MAX(b) + 1 FROM t
SELECT MIN(b) - 2 FROM t
SELECT id FROM t WHERE b + 1 > 0 ORDER BY id
SELECT id FROM t WHERE b * 2 > 0 ORDER BY id
SELECT id FROM t WHERE i * 4294967296 * 4294967296 > 0 ORDER BY id
SELECT id, CASE WHEN id = 3 THEN b + 1 ELSE 0 END FROM t ORDER BY id
SELECT id, CASE WHEN id <> 3 THEN b + 1 ELSE 0 END FROM t ORDER BY id
SELECT id, b + 1 FROM t WHERE id <> 3 ORDER BY id
SELECT COUNT(*) FROM t WHERE id <> 3 AND b + 1 > 0
SELECT SUM(b + 1) FROM t WHERE id = 8
SELECT SUM(b + 1) FILTER (WHERE id <> 3) FROM t
SELECT id, d * 100000000000000 FROM t ORDER BY id
SELECT id, d * d * d * d FROM t ORDER BY id
SELECT id, i + 0.5, b + 0.5 FROM t WHERE id IN (1, 8) ORDER BY id
SELECT id, b / 3, b / 3.0 FROM t ORDER BY id
SELECT id, i / 3 * 3, (i / 3) * 3 = i FROM t WHERE id IN (3, 19) ORDER BY id
SELECT CAST(i AS BIGINT) / CAST(2 AS BIGINT) FROM t WHERE id = 3
SELECT 2147483647 + 1, -2147483648 - 1, 2147483647 * 2
SELECT CAST(2147483647 AS INTEGER) + CAST(1 AS INTEGER)
SELECT 5 // 2
SELECT div(7, 2), div(-7, 2)
SELECT 10 - 2 - 3, 2 * 3 % 4, 2 + 3 * 4, -2 ^ 2, 2 ^ 3 ^ 2
SELECT 1 - -1, - - 1, 1 + +1
SELECT id, i >> 1, i << 1, i & 1, i | 1 FROM t ORDER BY id
SELECT round(-2.5), round(2.5), round(-0.5), round(0.5), round(-2.5e0), round(2.5e0), round(0.5e0)
SELECT round(1.2345, 2), round(-1.2355, 3), round(123.45, -1), round(125, -1), round(-125, -1)
SELECT trunc(-2.7), trunc(2.7), ceil(-2.5), floor(-2.5), ceil(-0.5), sign(-0.0)
