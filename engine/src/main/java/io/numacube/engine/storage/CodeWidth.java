package io.numacube.engine.storage;

/**
 * How many bytes one dictionary code takes in storage. Codes are unsigned: BYTE holds 0..255, SHORT 0..65535.
 */
public enum CodeWidth {
    BYTE(1),
    SHORT(2),
    INT(4);

    private final int bytes;

    CodeWidth(int bytes) {
        this.bytes = bytes;
    }

    public int bytes() {
        return bytes;
    }

    /** The narrowest width for a dictionary of this many values. */
    public static CodeWidth forCardinality(int size) {
        return size <= 256 ? BYTE : size <= 65536 ? SHORT : INT;
    }
}
