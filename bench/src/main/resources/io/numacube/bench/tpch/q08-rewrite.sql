-- Rewrite of Q8: the FROM list's comma joins written as explicit JOIN ... ON (the same join predicates, moved out
-- of WHERE and qualified by table; the fact table first).
select
    o_year,
    sum(case when nation = 'BRAZIL' then volume else 0 end) / sum(volume) as mkt_share
from
    (
        select
            extract(year from o_orderdate) as o_year,
            l_extendedprice * (1 - l_discount) as volume,
            n2.n_name as nation
        from
            lineitem
            join part on part.p_partkey = lineitem.l_partkey
            join supplier on supplier.s_suppkey = lineitem.l_suppkey
            join orders on lineitem.l_orderkey = orders.o_orderkey
            join customer on orders.o_custkey = customer.c_custkey
            join nation n1 on customer.c_nationkey = n1.n_nationkey
            join region on n1.n_regionkey = region.r_regionkey
            join nation n2 on supplier.s_nationkey = n2.n_nationkey
        where
            r_name = 'AMERICA'
            and o_orderdate between date '1995-01-01' and date '1996-12-31'
            and p_type = 'ECONOMY ANODIZED STEEL'
    ) as all_nations
group by
    o_year
order by
    o_year
