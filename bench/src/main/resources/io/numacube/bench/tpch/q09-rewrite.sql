-- Rewrite of Q9: the FROM list's comma joins written as explicit JOIN ... ON (the same join predicates, moved out
-- of WHERE and qualified by table; the fact table first) (partsupp joined on both of its key columns).
select
    nation, o_year, sum(amount) as sum_profit
from
    (
        select
            n_name as nation,
            extract(year from o_orderdate) as o_year,
            l_extendedprice * (1 - l_discount) - ps_supplycost * l_quantity as amount
        from
            lineitem
            join part on part.p_partkey = lineitem.l_partkey
            join supplier on supplier.s_suppkey = lineitem.l_suppkey
            join partsupp on partsupp.ps_suppkey = lineitem.l_suppkey and partsupp.ps_partkey = lineitem.l_partkey
            join orders on orders.o_orderkey = lineitem.l_orderkey
            join nation on supplier.s_nationkey = nation.n_nationkey
        where
            p_name like '%green%'
    ) as profit
group by
    nation, o_year
order by
    nation, o_year desc
