package io.numacube.bench.tpch;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.TableSchema;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The eight TPC-H tables with the specification's column types (clause 1.4): identifiers BIGINT, the other integers
 * INTEGER, money and quantities DECIMAL(15,2), dates DATE, flags and text VARCHAR. Both engines load the files with
 * these types, so they hold the same values: numacube through {@link #numacube()}, DuckDB through
 * {@link #duckDbColumns()}. Columns are in the specification's order, which is also the order of the CSV files and of
 * Trino's generator. Immutable.
 *
 * @param name    the table name, lower case ({@code lineitem})
 * @param columns its columns, in order
 */
public record TpchSchema(String name, List<Column> columns) {

    /** The SQL types TPC-H columns have. */
    public enum Type {
        BIGINT,
        INTEGER,
        /** DECIMAL(15,2). */
        DECIMAL,
        DATE,
        VARCHAR;

        /** The type as SQL writes it, in both engines. */
        public String sql() {
            return this == DECIMAL ? "DECIMAL(15,2)" : name();
        }
    }

    /** One column: name and type. */
    public record Column(String name, Type type) {}

    public TpchSchema {
        columns = List.copyOf(columns);
    }

    /** Every TPC-H table, the small ones first. */
    public static final List<TpchSchema> TABLES = List.of(
            table("region", "r_regionkey BIGINT, r_name VARCHAR, r_comment VARCHAR"),
            table("nation", "n_nationkey BIGINT, n_name VARCHAR, n_regionkey BIGINT, n_comment VARCHAR"),
            table(
                    "supplier",
                    "s_suppkey BIGINT, s_name VARCHAR, s_address VARCHAR, s_nationkey BIGINT, s_phone VARCHAR,"
                            + " s_acctbal DECIMAL, s_comment VARCHAR"),
            table(
                    "customer",
                    "c_custkey BIGINT, c_name VARCHAR, c_address VARCHAR, c_nationkey BIGINT, c_phone VARCHAR,"
                            + " c_acctbal DECIMAL, c_mktsegment VARCHAR, c_comment VARCHAR"),
            table(
                    "part",
                    "p_partkey BIGINT, p_name VARCHAR, p_mfgr VARCHAR, p_brand VARCHAR, p_type VARCHAR,"
                            + " p_size INTEGER, p_container VARCHAR, p_retailprice DECIMAL, p_comment VARCHAR"),
            table(
                    "partsupp",
                    "ps_partkey BIGINT, ps_suppkey BIGINT, ps_availqty INTEGER, ps_supplycost DECIMAL,"
                            + " ps_comment VARCHAR"),
            table(
                    "orders",
                    "o_orderkey BIGINT, o_custkey BIGINT, o_orderstatus VARCHAR, o_totalprice DECIMAL,"
                            + " o_orderdate DATE, o_orderpriority VARCHAR, o_clerk VARCHAR, o_shippriority INTEGER,"
                            + " o_comment VARCHAR"),
            table(
                    "lineitem",
                    "l_orderkey BIGINT, l_partkey BIGINT, l_suppkey BIGINT, l_linenumber INTEGER,"
                            + " l_quantity DECIMAL, l_extendedprice DECIMAL, l_discount DECIMAL, l_tax DECIMAL,"
                            + " l_returnflag VARCHAR, l_linestatus VARCHAR, l_shipdate DATE, l_commitdate DATE,"
                            + " l_receiptdate DATE, l_shipinstruct VARCHAR, l_shipmode VARCHAR, l_comment VARCHAR"));

    /**
     * The specification's foreign keys (its clause 1.4.2), each as a join a server can prepare ahead ({@code serve
     * --prepare-join}): the referencing table first.
     */
    public static final List<String> FOREIGN_KEYS = List.of(
            "lineitem.l_orderkey=orders.o_orderkey",
            "lineitem.l_partkey+l_suppkey=partsupp.ps_partkey+ps_suppkey",
            "lineitem.l_partkey=part.p_partkey",
            "lineitem.l_suppkey=supplier.s_suppkey",
            "orders.o_custkey=customer.c_custkey",
            "partsupp.ps_partkey=part.p_partkey",
            "partsupp.ps_suppkey=supplier.s_suppkey",
            "customer.c_nationkey=nation.n_nationkey",
            "supplier.s_nationkey=nation.n_nationkey",
            "nation.n_regionkey=region.r_regionkey");

    /** The table named {@code name}. */
    public static TpchSchema of(String name) {
        return TABLES.stream()
                .filter(t -> t.name.equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no TPC-H table of that name: table=" + name));
    }

    /** The schema numacube loads the table with: BIGINT and INTEGER as integers, DECIMAL(15,2) exactly. */
    public TableSchema numacube() {
        return new TableSchema(
                name,
                columns.stream()
                        .map(c -> ColumnSpec.parse(c.name(), c.type().sql().toLowerCase(Locale.ROOT)))
                        .toList());
    }

    /** DuckDB's {@code columns} argument of {@code read_csv}: {@code {'r_regionkey': 'BIGINT', ...}}. */
    public String duckDbColumns() {
        return columns.stream()
                .map(c -> "'" + c.name() + "': '" + c.type().sql() + "'")
                .collect(Collectors.joining(", ", "{", "}"));
    }

    private static TpchSchema table(String name, String declaration) {
        return new TpchSchema(
                name,
                java.util.Arrays.stream(declaration.split(","))
                        .map(String::strip)
                        .map(c -> new Column(
                                c.substring(0, c.indexOf(' ')), Type.valueOf(c.substring(c.indexOf(' ') + 1))))
                        .toList());
    }
}
