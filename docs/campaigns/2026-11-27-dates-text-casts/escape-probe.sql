SELECT 'a_b' ILIKE 'aA_b' ESCAPE 'A', 'a_b' ILIKE 'aa_b' ESCAPE 'A', 'a_b' ILIKE 'Aa_B' ESCAPE 'a', 'x%' LIKE 'x%%' ESCAPE '%', 'xy' LIKE 'x%%' ESCAPE '%'
SELECT 'a%' LIKE 'a%%' ESCAPE '%', 'a_' LIKE 'a__' ESCAPE '_', 'ab' LIKE 'a__' ESCAPE '_', 'ax' LIKE 'a%x' ESCAPE '%', 'a%x' LIKE 'a%x' ESCAPE '%'
SELECT 'a%b' LIKE 'a!%b' ESCAPE '!', 'a!b' LIKE 'a!!b' ESCAPE '!', 'ab' LIKE 'a!b' ESCAPE '!', '%' LIKE '%%' ESCAPE '%', '' LIKE '%%' ESCAPE '%'
SELECT 'a' ILIKE 'A' ESCAPE 'a', 'A' ILIKE 'aA' ESCAPE 'a', 'İ' ILIKE 'i̇', 'K' ILIKE 'k', 'Ω' ILIKE 'ω'
