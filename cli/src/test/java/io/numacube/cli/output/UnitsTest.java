package io.numacube.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class UnitsTest {

    @Test
    void bytesUseBinaryUnitsWithOneDecimal() {
        assertEquals("12 B", Units.bytes(12));
        assertEquals("1.0 KiB", Units.bytes(1024));
        assertEquals("1.5 GiB", Units.bytes(3L << 29));
        assertEquals("64.0 MiB", Units.bytes(64L << 20));
    }

    @Test
    void durationsPickAReadableUnit() {
        assertEquals("850 µs", Units.nanos(850_000));
        assertEquals("12.5 ms", Units.nanos(12_500_000));
        assertEquals("1.25 s", Units.nanos(1_250_000_000L));
    }
}
