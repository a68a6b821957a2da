-- Rewrite of Q10: the FROM list's comma joins written as explicit JOIN ... ON (the same join predicates, moved out
-- of WHERE and qualified by table; the fact table first); and date arithmetic on literals folded to the date it
-- gives (date '1993-10-01' + interval '3' month = date '1994-01-01').
select
    c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) as revenue, c_acctbal, n_name, c_address, c_phone,
    c_comment
from
    lineitem
    join orders on lineitem.l_orderkey = orders.o_orderkey
    join customer on customer.c_custkey = orders.o_custkey
    join nation on customer.c_nationkey = nation.n_nationkey
where
    o_orderdate >= date '1993-10-01'
    and o_orderdate < date '1994-01-01'
    and l_returnflag = 'R'
group by
    c_custkey, c_name, c_acctbal, c_phone, n_name, c_address, c_comment
order by
    revenue desc
limit 20
