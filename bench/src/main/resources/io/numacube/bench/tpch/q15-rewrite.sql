-- Rewrite of Q15: (the view is already a WITH clause) the FROM list's comma joins written as explicit JOIN ... ON
-- (the same join predicates, moved out of WHERE and qualified by table; the fact table first); and date arithmetic
-- on literals folded to the date it gives
-- (date '1996-01-01' + interval '3' month = date '1996-04-01').
with revenue0 (supplier_no, total_revenue) as (
    select
        l_suppkey,
        sum(l_extendedprice * (1 - l_discount))
    from
        lineitem
    where
        l_shipdate >= date '1996-01-01'
        and l_shipdate < date '1996-04-01'
    group by
        l_suppkey
)
select
    s_suppkey, s_name, s_address, s_phone, total_revenue
from
    supplier
    join revenue0 on supplier.s_suppkey = revenue0.supplier_no
where
    total_revenue = (select max(total_revenue) from revenue0)
order by
    s_suppkey
