package io.numacube.bench.serve;

/**
 * What the serve section asks of {@code numacube serve}'s HTTP API, whichever client asks it ({@link HttpSqlClient},
 * {@link PlainHttpClient}).
 */
interface HttpApi {

    /**
     * Runs {@code sql} ({@code POST /v1/query}) and returns the answer's body, received whole.
     *
     * @throws IllegalStateException for any answer but 200
     */
    byte[] query(String sql);

    /** Posts {@code csv} (a header row, then rows) to {@code table}; the table version that holds them. */
    long appendCsv(String table, byte[] csv);
}
