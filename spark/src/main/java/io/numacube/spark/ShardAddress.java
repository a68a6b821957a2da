package io.numacube.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Where one {@code numacube serve} listens for HTTP: {@code host:port}. Immutable.
 *
 * @param host the host name or address, as given in the {@code shards} option
 * @param port the HTTP port
 */
record ShardAddress(String host, int port) implements Serializable {

    /** Reads the {@code shards} option: {@code host:port} entries separated by commas, at least one. */
    static List<ShardAddress> parseList(String option) {
        if (option == null || option.isBlank()) {
            throw new IllegalArgumentException(
                    "numacube: the shards option is missing — e.g. .option(\"shards\", \"h1:8080,h2:8080\")");
        }
        List<ShardAddress> out = new ArrayList<>();
        for (String part : option.split(",")) {
            String p = part.strip();
            int colon = p.lastIndexOf(':');
            int port = -1;
            try {
                port = colon > 0 ? Integer.parseInt(p.substring(colon + 1)) : -1;
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port <= 0 || port > 65535) {
                throw new IllegalArgumentException(
                        "numacube: a shard is host:port: shard=" + p + " shards=" + option + " — e.g. h1:8080,h2:8080");
            }
            out.add(new ShardAddress(p.substring(0, colon), port));
        }
        if (out.stream().distinct().count() != out.size()) {
            throw new IllegalArgumentException("numacube: a shard is listed twice: shards=" + option);
        }
        return List.copyOf(out);
    }

    String url() {
        return "http://" + host + ":" + port;
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
