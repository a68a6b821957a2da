-- Rewrite of Q13: the LEFT JOIN's extra condition on orders alone (o_comment not like ...) moved into a derived
-- table of the orders it keeps, which a left join gives the same answer for.
select
    c_count,
    count(*) as custdist
from
    (
        select
            c_custkey,
            count(o_orderkey)
        from
            customer left outer join (
                select o_orderkey, o_custkey from orders where o_comment not like '%special%requests%'
            ) as o on customer.c_custkey = o.o_custkey
        group by
            c_custkey
    ) as c_orders (c_custkey, c_count)
group by
    c_count
order by
    custdist desc,
    c_count desc
