-- Rewrite of Q17: the FROM list's comma joins written as explicit JOIN ... ON (the same join predicates, moved out
-- of WHERE and qualified by table; the fact table first). The correlated scalar subquery is unchanged.
select
    sum(l_extendedprice) / 7.0 as avg_yearly
from
    lineitem
    join part on part.p_partkey = lineitem.l_partkey
where
    p_brand = 'Brand#23'
    and p_container = 'MED BOX'
    and l_quantity < (select 0.2 * avg(l_quantity) from lineitem where l_partkey = p_partkey)
