-- Rewrite of Q14: the FROM list's comma joins written as explicit JOIN ... ON (the same join predicates, moved out
-- of WHERE and qualified by table; the fact table first); and date arithmetic on literals folded to the date it
-- gives (date '1995-09-01' + interval '1' month = date '1995-10-01').
select
    100.00 * sum(case when p_type like 'PROMO%' then l_extendedprice * (1 - l_discount) else 0 end)
        / sum(l_extendedprice * (1 - l_discount)) as promo_revenue
from
    lineitem
    join part on lineitem.l_partkey = part.p_partkey
where
    l_shipdate >= date '1995-09-01'
    and l_shipdate < date '1995-10-01'
