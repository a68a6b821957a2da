-- Rewrite of Q5: the FROM list's comma joins written as explicit JOIN ... ON (the same join predicates, moved out
-- of WHERE and qualified by table; the fact table first), except c_nationkey = s_nationkey, which joins no new
-- table and stays in WHERE; and
-- date arithmetic on literals folded to the date it gives (date '1994-01-01' + interval '1' year = date
-- '1995-01-01').
select
    n_name,
    sum(l_extendedprice * (1 - l_discount)) as revenue
from
    lineitem
    join orders on lineitem.l_orderkey = orders.o_orderkey
    join customer on customer.c_custkey = orders.o_custkey
    join supplier on lineitem.l_suppkey = supplier.s_suppkey
    join nation on supplier.s_nationkey = nation.n_nationkey
    join region on nation.n_regionkey = region.r_regionkey
where
    c_nationkey = s_nationkey
    and r_name = 'ASIA'
    and o_orderdate >= date '1994-01-01'
    and o_orderdate < date '1995-01-01'
group by
    n_name
order by
    revenue desc
