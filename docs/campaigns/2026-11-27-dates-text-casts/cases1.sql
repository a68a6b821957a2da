# text order: code point vs UTF-16
SELECT id, s FROM t ORDER BY s, id
SELECT id, s FROM t ORDER BY s DESC, id
SELECT id, s2 FROM t ORDER BY s2 NULLS FIRST, id
SELECT id, s2 FROM t ORDER BY s2 DESC NULLS LAST, id
SELECT MIN(s), MAX(s), MIN(s2), MAX(s2) FROM t
SELECT f, MIN(s), MAX(s) FROM t GROUP BY f ORDER BY f
SELECT id FROM t WHERE s < 'ｚ' ORDER BY id
SELECT id FROM t WHERE s > 'ｚ' ORDER BY id
SELECT id FROM t WHERE s >= '😀' ORDER BY id
SELECT id FROM t WHERE s < '😀' ORDER BY id
SELECT id FROM t WHERE s > '\ue000' ORDER BY id
SELECT id FROM t WHERE s BETWEEN 'a' AND 'ｚ' ORDER BY id
SELECT id FROM t WHERE s BETWEEN 'ｚ' AND '😀' ORDER BY id
SELECT id, s < s2, s > s2, s = s2 FROM t ORDER BY id
SELECT id FROM t WHERE s < s2 ORDER BY id
SELECT id FROM t WHERE s2 > s ORDER BY id
SELECT DISTINCT s FROM t ORDER BY s
SELECT s, COUNT(*) FROM t GROUP BY s ORDER BY s DESC
SELECT s2 FROM t GROUP BY s2 ORDER BY s2 LIMIT 3
SELECT s2 FROM t ORDER BY s2 DESC LIMIT 3
SELECT id FROM t ORDER BY s2, s LIMIT 5
SELECT id, s FROM t WHERE s IN ('ｚ', '😀', 'a') ORDER BY s
SELECT id FROM t WHERE s > 'a' AND s < 'b' ORDER BY id
SELECT id FROM t WHERE s >= 'a b' ORDER BY id
SELECT id, s FROM t WHERE s < 'a ' ORDER BY s
SELECT greatest(s, s2), least(s, s2) FROM t ORDER BY id
SELECT id, upper(s) FROM t ORDER BY upper(s), id
SELECT id, lower(s2) FROM t ORDER BY 2 DESC NULLS FIRST, 1
SELECT MAX(s || s2), MIN(s2 || s) FROM t
SELECT id FROM t ORDER BY s || 'x', id
SELECT id, CASE WHEN s < 'ｚ' THEN 'lt' ELSE 'ge' END FROM t ORDER BY id
SELECT COUNT(*) FILTER (WHERE s < '😀'), COUNT(*) FILTER (WHERE s > 'ｚ') FROM t
SELECT 'ｚ' < '😀', '\ue000' < '😀', 'a' < 'B', 'a ' > 'a'
SELECT id FROM t WHERE s LIKE 'ｚ%' OR s LIKE '😀%' ORDER BY id
SELECT s FROM t WHERE s IS NOT NULL ORDER BY s COLLATE "C"
# case mapping and length on non-ASCII
SELECT id, upper(s), lower(s), length(s) FROM t ORDER BY id
SELECT id, upper(s2), lower(s2), length(s2) FROM t ORDER BY id
SELECT upper('ﬁ'), upper('ŉ'), lower('İ'), upper('ǰ'), length(upper('ﬁ')), length(lower('İ'))
SELECT upper('𐐨'), lower('𐐀'), length('𐐨'), length('😀😀')
SELECT lower('ΣΑΣ'), upper('σας'), lower('Σ')
SELECT id FROM t WHERE upper(s) = upper(s2) ORDER BY id
SELECT id FROM t WHERE lower(s) = lower(s2) ORDER BY id
SELECT id FROM t WHERE s ILIKE s2 ORDER BY id
SELECT id FROM t WHERE s ILIKE 'fi' ORDER BY id
SELECT id FROM t WHERE s ILIKE 'i' ORDER BY id
SELECT id FROM t WHERE s ILIKE 'σας' ORDER BY id
SELECT id FROM t WHERE s ILIKE '𐐨X' ORDER BY id
SELECT id FROM t WHERE s ILIKE 'ss' ORDER BY id
SELECT id FROM t WHERE s2 ILIKE 'ß' ORDER BY id
# substring / position / strpos / left / right / reverse on non-BMP
SELECT id, strpos(s, 'x'), strpos(s2, 'a'), position('X' IN s2) FROM t ORDER BY id
SELECT strpos('😀x', 'x'), position('x' IN '😀😀x'), strpos('😀x', ''), strpos('', '')
SELECT substring('😀x😀y', 2, 2), substring('😀x😀y', 3), substring('😀x😀y' FROM 4 FOR 5)
SELECT left('😀x😀y', 1), right('😀x😀y', 1), left('😀x😀y', -1), right('😀x😀y', -1)
SELECT reverse('😀x'), reverse(s2) FROM t WHERE id = 5
SELECT lpad('x', 3, '😀'), rpad('😀', 3, 'ab'), lpad('😀😀😀', 2), rpad('😀😀😀', 1)
SELECT replace('😀x😀', '😀', 'y'), repeat('😀', 3), length(repeat('😀', 3))
SELECT btrim('😀a😀', '😀'), ltrim('😀😀a', '😀'), rtrim('a😀x😀', '😀x')
SELECT id, substring(s2, 1, 1), substring(s2, 2) FROM t ORDER BY id
SELECT id, left(s2, 1), right(s2, 1), reverse(s) FROM t ORDER BY id
SELECT id, lpad(s, 4, '*'), rpad(s2, 3, '😀') FROM t ORDER BY id
SELECT id, replace(s, 'a', '😀'), length(replace(s, 'a', '😀')) FROM t ORDER BY id
SELECT id, trim(s), ltrim(s), rtrim(s), length(rtrim(s)) FROM t ORDER BY id
SELECT id, concat_ws('|', s, s2), s || '|' || s2 FROM t ORDER BY id
SELECT id, quote_ident(s) FROM t ORDER BY id
SELECT initcap('hello wORLD'), split_part('a,b,c', ',', 2), ascii('😀'), chr(128512)
SELECT octet_length('😀'), bit_length('a'), char_length('😀x')
SELECT starts_with(s, 'a'), s ^@ 'a' FROM t WHERE id = 2
SELECT translate('abc', 'ab', 'xy'), md5('a')
