-- COPY FROM STDIN, text and csv
COPY t FROM STDIN;
200	1	tab	1.25	2024-05-01	t	0.25
201	\N	\N	\N	\N	\N	\N
202	2	back\\slash	2	2024-05-02	false	2
203	3	new\nline	3	2024-05-03	f	3
204	4	esc\ttab\x41\101	4	2024-05-04	true	4
\.
COPY t (id, s) FROM STDIN WITH (FORMAT csv);
210,"quoted, comma"
211,
212,""
213,"say ""hi"""
\.
COPY t (id, s) FROM STDIN WITH (FORMAT csv, HEADER);
id,s
220,h
\.
COPY t (id, v) FROM STDIN WITH (FORMAT csv);
230,1
231,x
\.
COPY t (s, id) FROM STDIN (FORMAT csv);
rev,240
\.
COPY t (id, v) FROM STDIN WITH (FORMAT csv, DELIMITER ';');
250;5
\.
COPY t (id, v) FROM STDIN WITH (FORMAT csv, NULL 'NA');
260,NA
261,
\.
COPY t (id, v) FROM STDIN;
270	1	2
\.
COPY t (id, v) FROM STDIN;
271
\.
COPY t (id, s) FROM STDIN WITH CSV;
280,old
\.
COPY t (id, s) FROM STDIN WITH CSV HEADER;
id,s
281,oldh
\.
COPY t (id, v) FROM STDIN WITH (FORMAT text, NULL 'nil');
290	nil
291	\N
\.
COPY t (id, v) FROM STDIN WITH (FORMAT csv, QUOTE '''');
292,'7'
\.
COPY t (id, b) FROM STDIN;
293	yes
294	0
\.
COPY t (id, v) FROM STDIN WITH (FORMAT binary);
\.
COPY nosuch FROM STDIN;
\.
COPY t (nosuch) FROM STDIN;
\.
COPY t FROM '/etc/passwd';
COPY t (id, v) FROM STDIN WITH (FORMAT csv, FREEZE);
295,1
\.
SELECT id, v, s, d, dt, b, f FROM t WHERE id >= 200 ORDER BY id;
SELECT id, length(s) FROM t WHERE id >= 200 AND s IS NOT NULL ORDER BY id;
