-- value edges through INSERT then read back
INSERT INTO t (id, s) VALUES (300, 'é☃😀'), (301, ' lead '), (302, 'NULL'), (303, '\N'), (304, 'a\b');
INSERT INTO t (id, d) VALUES (305, 0.005), (306, -0.005), (307, 0.004999), (308, 9999999999.995);
INSERT INTO t (id, d) VALUES (309, '1e2'), (310, 'NaN');
INSERT INTO t (id, f) VALUES (311, 'NaN'), (312, 'Infinity'), (313, 1e400);
INSERT INTO t (id, f) VALUES (314, 1.7976931348623157e308), (315, 4.9e-324), (316, 0.1);
INSERT INTO t (id, dt) VALUES (317, '0001-01-01'), (318, '9999-12-31'), (319, '10000-01-01'), (320, 'today'), (321, 'epoch');
INSERT INTO t (id, dt) VALUES (322, '2024-1-5'), (323, '20240105'), (324, 'Jan 5 2024');
INSERT INTO t (id, dt) VALUES (325, TIMESTAMP '2024-01-05 10:00:00');
INSERT INTO t (id, v) VALUES (326, 1.4999999999999999), (327, 0.5), (328, -0.5), (329, 1e18), (330, 1e19);
INSERT INTO t (id, v) VALUES (331, '0x1F');
INSERT INTO t (id, b) VALUES (332, 1);
INSERT INTO t (id, b) VALUES (333, 'maybe');
INSERT INTO t (id, s) VALUES (334, 'x'::text), (335, CAST('y' AS VARCHAR(1))), (336, 'zzz'::varchar(2));
INSERT INTO t (id, d) VALUES (337, 1.5::numeric), (338, CAST(2.345 AS DECIMAL(12,2))), (339, 2.345::numeric(12,3));
INSERT INTO t (id, v) VALUES (340, 2.5::bigint), (341, '7'::int), (342, 7::smallint);
INSERT INTO t (id, f) VALUES (343, 1::float8), (344, '2.5'::real);
SELECT id, v, s, d, dt, b, f FROM t WHERE id >= 300 ORDER BY id;
