// node-postgres: every case of cases.json (text parameters, OID 0, never described) on PostgreSQL 15 and numacube.
'use strict';
const { Client } = require('pg');
const cases = require('/tmp/h6/cases.json');
function norm(v) {
  if (typeof v === 'string' && /^-?[0-9.]+(e-?[0-9]+)?$/.test(v)) return Number(Number(v).toPrecision(12));
  if (typeof v === 'number') return Number(v.toPrecision(12));
  return v;
}
async function run(c, sql, ps) {
  try { return JSON.stringify((await c.query(sql, ps)).rows.map(r => Object.values(r).map(norm))); }
  catch (e) { return 'ERR ' + e.code; }
}
(async () => {
  const pg = new Client({ host: '/tmp/h6pg', port: 55436, user: 'postgres', database: 'postgres' });
  const nc = new Client({ host: '127.0.0.1', port: +process.argv[2], user: 'me', database: 'numacube' });
  await pg.connect(); await nc.connect();
  let same = 0, both = 0, refused = 0;
  for (const [sql, ps] of cases) {
    const a = await run(pg, sql, ps), b = await run(nc, sql, ps);
    if (a.startsWith('ERR 42P01')) continue;
    if (a === b) { same++; continue; }
    if (a.startsWith('ERR') && b.startsWith('ERR')) { both++; continue; }
    if (b.startsWith('ERR')) { refused++; console.log('REFUSED', sql, JSON.stringify(ps), a.slice(0, 80), b); continue; }
    console.log('DIFF', sql, JSON.stringify(ps), '\n  pg', a.slice(0, 300), '\n  nc', b.slice(0, 300));
  }
  console.log(`cases ${cases.length} same ${same} both-errors ${both} refused ${refused}`);
  await pg.end(); await nc.end();
})();
