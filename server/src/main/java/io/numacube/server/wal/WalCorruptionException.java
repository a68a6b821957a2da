package io.numacube.server.wal;

import io.numacube.numa.base.NumacubeException;
import java.nio.file.Path;

/**
 * A write-ahead log (or a file written for it) holds bytes that cannot be what numacube wrote there, at a place
 * where a crash cannot explain them: replaying past them would silently drop or garble acknowledged writes, so
 * nothing is replayed. SQLSTATE XX001 (data corrupted), kind {@link Kind#PLATFORM}. Carries the file and byte offset
 * as data; the message names them too. Immutable.
 */
public final class WalCorruptionException extends NumacubeException {

    /** PostgreSQL's SQLSTATE for data corrupted. */
    public static final String DATA_CORRUPTED = "XX001";

    private final transient Path file;
    private final long offset;

    /**
     * @param file   the damaged file
     * @param offset the byte offset in it where the damage starts (the start of the bad record or header)
     * @param reason what is wrong there, with its {@code name=value} facts
     */
    public WalCorruptionException(Path file, long offset, String reason) {
        super(
                Kind.PLATFORM,
                DATA_CORRUPTED,
                "WAL is corrupt: file=" + file + " offset=" + offset + " reason=" + reason
                        + " — not replaying a partial log; restore the data directory from a backup",
                null,
                null);
        this.file = file;
        this.offset = offset;
    }

    public Path file() {
        return file;
    }

    public long offset() {
        return offset;
    }
}
