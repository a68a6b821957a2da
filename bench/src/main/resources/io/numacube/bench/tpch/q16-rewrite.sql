-- Rewrite of Q16: the FROM list's comma joins written as explicit JOIN ... ON (the same join predicates, moved out
-- of WHERE and qualified by table; the fact table first).
select
    p_brand, p_type, p_size, count(distinct ps_suppkey) as supplier_cnt
from
    partsupp
    join part on part.p_partkey = partsupp.ps_partkey
where
    p_brand <> 'Brand#45'
    and p_type not like 'MEDIUM POLISHED%'
    and p_size in (49, 14, 23, 45, 19, 3, 36, 9)
    and ps_suppkey not in (
        select s_suppkey from supplier where s_comment like '%Customer%Complaints%'
    )
group by
    p_brand, p_type, p_size
order by
    supplier_cnt desc, p_brand, p_type, p_size
