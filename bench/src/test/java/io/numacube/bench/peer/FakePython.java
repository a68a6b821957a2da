package io.numacube.bench.peer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** Writes a bash script that stands in for Python: it answers the peers' line protocol with canned replies. */
public final class FakePython {

    private FakePython() {}

    /**
     * A fake interpreter in {@code dir} that answers a load with {@code loadReply} and every query with {@code
     * queryReply}, and ends at quit; {@code $POLARS_MAX_THREADS} in a reply is replaced by the variable's value.
     */
    public static Path write(Path dir, String loadReply, String queryReply) throws IOException {
        Path script = dir.resolve("fake-python");
        Files.writeString(script, """
                #!/usr/bin/env bash
                while IFS= read -r line; do
                  case "$line" in
                    *'"op":"load"'*) echo "%s";;
                    *'"op":"query"'*) echo "%s";;
                    *'"op": "quit"'*) exit 0;;
                  esac
                done
                """.formatted(escape(loadReply), escape(queryReply)));
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

    private static String escape(String reply) {
        return reply.replace("\"", "\\\"");
    }
}
