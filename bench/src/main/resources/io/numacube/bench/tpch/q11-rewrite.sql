-- Rewrite of Q11: the FROM list's comma joins written as explicit JOIN ... ON (the same join predicates, moved out
-- of WHERE and qualified by table; the fact table first), in the query and in its uncorrelated subquery.
select
    ps_partkey,
    sum(ps_supplycost * ps_availqty) as value
from
    partsupp
    join supplier on partsupp.ps_suppkey = supplier.s_suppkey
    join nation on supplier.s_nationkey = nation.n_nationkey
where
    n_name = 'GERMANY'
group by
    ps_partkey
having
    sum(ps_supplycost * ps_availqty) > (
        select sum(ps_supplycost * ps_availqty) * 0.0001
        from partsupp
            join supplier on partsupp.ps_suppkey = supplier.s_suppkey
            join nation on supplier.s_nationkey = nation.n_nationkey
        where n_name = 'GERMANY'
    )
order by
    value desc
