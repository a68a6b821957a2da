-- INSERT ... SELECT, UPDATE FROM, upsert-like, odd statements
INSERT INTO u SELECT id, v, s FROM t WHERE id > 3;
INSERT INTO u (id, w) SELECT 9, 9;
INSERT INTO u VALUES (8, 800, 'w'), (DEFAULT, DEFAULT, DEFAULT);
INSERT INTO u (id, w, s) VALUES (NULL, NULL, NULL);
WITH x AS (SELECT 1) INSERT INTO u (id) VALUES (10);
INSERT INTO u (id) VALUES (11) , (12)  ;
INSERT   INTO   u(id,w)VALUES(13,14);
insert into U (ID) values (15);
INSERT INTO "u" (id) VALUES (16);
INSERT INTO "U" (id) VALUES (17);
INSERT INTO u (id) VALUES (18); -- trailing comment
/* leading */ INSERT INTO u (id) VALUES (19);
INSERT INTO u (id) VALUES (20) /* inner */ , (21);
INSERT INTO u (id, s) VALUES (22, '-- not a comment'), (23, '/* nor this */');
INSERT INTO u (id, s) VALUES (24, 'semi;colon');
UPDATE u SET s = 'semi;' WHERE id = 24;
DELETE FROM u WHERE s = '-- not a comment';
TRUNCATE u;
MERGE INTO u USING t ON u.id = t.id WHEN MATCHED THEN DELETE;
SELECT id, w, s FROM u ORDER BY id NULLS FIRST, w;
