-- Rewrite of Q18: the FROM list's comma joins written as explicit JOIN ... ON (the same join predicates, moved out
-- of WHERE and qualified by table; the fact table first).
select
    c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice, sum(l_quantity)
from
    lineitem
    join orders on orders.o_orderkey = lineitem.l_orderkey
    join customer on customer.c_custkey = orders.o_custkey
where
    o_orderkey in (
        select l_orderkey from lineitem group by l_orderkey having sum(l_quantity) > 300
    )
group by
    c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice
order by
    o_totalprice desc, o_orderdate
limit 100
