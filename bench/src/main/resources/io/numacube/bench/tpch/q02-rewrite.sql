-- Rewrite of Q2: the FROM list's comma joins written as explicit JOIN ... ON (the same join predicates, moved out
-- of WHERE and qualified by table; the fact table first), in the query and in its correlated scalar subquery, whose
-- correlation (p_partkey = ps_partkey) stays in its WHERE.
select
    s_acctbal, s_name, n_name, p_partkey, p_mfgr, s_address, s_phone, s_comment
from
    partsupp
    join part on part.p_partkey = partsupp.ps_partkey
    join supplier on supplier.s_suppkey = partsupp.ps_suppkey
    join nation on supplier.s_nationkey = nation.n_nationkey
    join region on nation.n_regionkey = region.r_regionkey
where
    p_size = 15
    and p_type like '%BRASS'
    and r_name = 'EUROPE'
    and ps_supplycost = (
        select min(ps_supplycost)
        from partsupp
            join supplier on supplier.s_suppkey = partsupp.ps_suppkey
            join nation on supplier.s_nationkey = nation.n_nationkey
            join region on nation.n_regionkey = region.r_regionkey
        where p_partkey = ps_partkey and r_name = 'EUROPE'
    )
order by
    s_acctbal desc, n_name, s_name, p_partkey
limit 100
