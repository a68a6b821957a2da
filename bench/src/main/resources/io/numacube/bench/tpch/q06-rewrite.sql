-- Rewrite of Q6: date arithmetic on literals folded to the date it gives (date '1994-01-01' + interval '1' year =
-- date '1995-01-01'), and 0.06 - 0.01 and
-- 0.06 + 0.01 written as 0.05 and 0.07, as DuckDB's own TPC-H text does.
select
    sum(l_extendedprice * l_discount) as revenue
from
    lineitem
where
    l_shipdate >= date '1994-01-01'
    and l_shipdate < date '1995-01-01'
    and l_discount between 0.05 and 0.07
    and l_quantity < 24
