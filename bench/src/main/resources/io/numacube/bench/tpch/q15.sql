-- TPC-H Q15, top supplier; validation parameter DATE = 1996-01-01. Official text, except that the spec's
-- CREATE VIEW revenue0 / query / DROP VIEW is one statement with the view as a WITH clause (the bench runs single
-- statements; the view's text is unchanged), as DuckDB's own TPC-H text does.
with revenue0 (supplier_no, total_revenue) as (
    select
        l_suppkey,
        sum(l_extendedprice * (1 - l_discount))
    from
        lineitem
    where
        l_shipdate >= date '1996-01-01'
        and l_shipdate < date '1996-01-01' + interval '3' month
    group by
        l_suppkey
)
select
    s_suppkey,
    s_name,
    s_address,
    s_phone,
    total_revenue
from
    supplier,
    revenue0
where
    s_suppkey = supplier_no
    and total_revenue = (
        select
            max(total_revenue)
        from
            revenue0
    )
order by
    s_suppkey
