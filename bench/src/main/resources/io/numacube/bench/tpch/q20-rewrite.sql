-- Rewrite of Q20: date arithmetic on literals folded to the date it gives (date '1994-01-01' + interval '1' year =
-- date '1995-01-01'), and the comma join of
-- supplier and nation written as an explicit JOIN ... ON. The correlated scalar subquery is unchanged.
select
    s_name, s_address
from
    supplier
    join nation on supplier.s_nationkey = nation.n_nationkey
where
    s_suppkey in (
        select ps_suppkey
        from partsupp
        where
            ps_partkey in (select p_partkey from part where p_name like 'forest%')
            and ps_availqty > (
                select 0.5 * sum(l_quantity)
                from lineitem
                where
                    l_partkey = ps_partkey
                    and l_suppkey = ps_suppkey
                    and l_shipdate >= date '1994-01-01'
                    and l_shipdate < date '1995-01-01'
            )
    )
    and n_name = 'CANADA'
order by
    s_name
