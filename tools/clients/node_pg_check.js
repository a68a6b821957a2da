// node-postgres (pg) against a running `numacube serve` (part of tools/serve-check).
//
// Usage: node node_pg_check.js HOST PORT   (with NODE_PATH holding the pinned pg package)
//
// node-postgres sends every parameter as text with no type (OID 0) and never describes a statement before binding it,
// so the server must type each parameter by where it stands (`trade_id > $1` reads '5000' as a bigint), as PostgreSQL
// does. Each answer is compared with the same query written with literals, sent without parameters (the simple
// query protocol); writes use trade ids from 992001 and are read back. Exits 0 when every check passes, 1 otherwise.
'use strict';
const { Client } = require('pg');

const QUERIES = [
  ['SELECT desk, COUNT(*) AS n FROM trades WHERE trade_id > $1 GROUP BY desk ORDER BY desk', [50000],
    'SELECT desk, COUNT(*) AS n FROM trades WHERE trade_id > 50000 GROUP BY desk ORDER BY desk'],
  ['SELECT COUNT(*) AS n, SUM(pnl) AS s FROM trades WHERE pnl > $1 AND desk = $2', [1.5, 'DESK-07'],
    "SELECT COUNT(*) AS n, SUM(pnl) AS s FROM trades WHERE pnl > 1.5 AND desk = 'DESK-07'"],
  ['SELECT COUNT(*) AS n FROM trades WHERE trade_date >= $1', ['2024-06-01'],
    "SELECT COUNT(*) AS n FROM trades WHERE trade_date >= DATE '2024-06-01'"],
  ['SELECT trade_id FROM trades ORDER BY trade_id LIMIT $1 OFFSET $2', [3, 10],
    'SELECT trade_id FROM trades ORDER BY trade_id LIMIT 3 OFFSET 10'],
  ['SELECT COUNT(*) AS n FROM trades WHERE trade_id IN ($1, $2) OR notional BETWEEN $3 AND $4', [1, 2, 100, 2000],
    'SELECT COUNT(*) AS n FROM trades WHERE trade_id IN (1, 2) OR notional BETWEEN 100 AND 2000'],
];

function fail(what) {
  console.error(`node-postgres: FAILED: ${what}`);
  process.exit(1);
}

async function main(host, port) {
  const c = new Client({ host, port, user: 'numacube', database: 'numacube' });
  await c.connect();
  try {
    for (const [sql, args, literal] of QUERIES) {
      const got = JSON.stringify((await c.query(sql, args)).rows);
      const want = JSON.stringify((await c.query(literal)).rows);
      if (got !== want) fail(`${sql} ${JSON.stringify(args)}: ${got.slice(0, 200)} but ${literal}: ${want.slice(0, 200)}`);
    }
    await c.query('INSERT INTO trades (trade_id, desk, pnl) VALUES ($1, $2, $3), ($4, $5, $6)',
      [992001, 'NODE', 2.5, 992002, null, null]);
    await c.query('UPDATE trades SET pnl = $1 WHERE trade_id = $2', [4.25, 992002]);
    const rows = JSON.stringify((await c.query(
      'SELECT trade_id, desk, pnl FROM trades WHERE trade_id > $1 ORDER BY trade_id', [992000])).rows);
    const expected = JSON.stringify([{ trade_id: '992001', desk: 'NODE', pnl: 2.5 },
      { trade_id: '992002', desk: null, pnl: 4.25 }]);
    if (rows !== expected) fail(`rows written and read back: ${rows}`);
    try {
      await c.query('SELECT COUNT(*) FROM trades WHERE trade_id > $1', ['not a number']);
      fail('a text value for a bigint parameter gave no error');
    } catch (e) {
      if (e.code !== '22P02') fail(`a text value for a bigint parameter: ${e.code} ${e.message}`);
    }
    await c.query('DELETE FROM trades WHERE trade_id > $1', [992000]);
  } finally {
    await c.end();
  }
  console.log(`node-postgres: OK: ${QUERIES.length} queries with untyped text parameters equal to their literal forms`
    + ' (bigint, double, text, date, LIMIT/OFFSET, IN, BETWEEN), INSERT with NULLs, UPDATE, DELETE, 22P02 for bad input');
}

main(process.argv[2], Number(process.argv[3])).catch((e) => fail(e.stack || String(e)));
