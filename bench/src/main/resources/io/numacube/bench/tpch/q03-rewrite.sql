-- Rewrite of Q3: the FROM list's comma joins written as explicit JOIN ... ON (the same join predicates, moved out
-- of WHERE and qualified by table; the fact table first).
select
    l_orderkey,
    sum(l_extendedprice * (1 - l_discount)) as revenue,
    o_orderdate,
    o_shippriority
from
    lineitem
    join orders on lineitem.l_orderkey = orders.o_orderkey
    join customer on customer.c_custkey = orders.o_custkey
where
    c_mktsegment = 'BUILDING'
    and o_orderdate < date '1995-03-15'
    and l_shipdate > date '1995-03-15'
group by
    l_orderkey, o_orderdate, o_shippriority
order by
    revenue desc, o_orderdate
limit 10
