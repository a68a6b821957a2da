#!/bin/bash
# run.sh: each query of queries.sql (label|sql) against PostgreSQL 15, printed as psql -A does (NULL as NULL)
while IFS='|' read -r label sql; do
  echo "=== $label"; echo "$sql"; echo "--- postgresql 15"
  psql -h /tmp/scpg -p 55461 -U postgres -d numacube -X -A -P null=NULL -P footer=off -c "$sql" 2>&1 | sed 's/^psql:.*ERROR: /ERROR: /'
  echo
done < queries.sql
