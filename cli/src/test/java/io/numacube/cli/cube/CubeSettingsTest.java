package io.numacube.cli.cube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.engine.CubeOptions;
import io.numacube.engine.storage.Partitioning;
import io.numacube.engine.storage.Placement;
import io.numacube.numa.base.NumacubeException;
import org.junit.jupiter.api.Test;

class CubeSettingsTest {

    @Test
    void defaultsToTheCubeDefaults() {
        assertEquals(CubeOptions.defaults(), new CubeSettings().toOptions());
    }

    @Test
    void mapsEveryOption() {
        CubeSettings s = new CubeSettings();
        s.placement = "one_node:1";
        s.partitionBy = "desk";
        s.partitions = 8;
        s.threadsPerNode = 3;
        s.noStealing = true;
        s.morselRows = 1024;
        CubeOptions o = s.toOptions();
        assertEquals(Placement.oneNode(1), o.placement());
        assertEquals(Partitioning.byDimension("desk", 8), o.partitioning());
        assertEquals(3, o.threadsPerNode());
        assertFalse(o.workStealing());
        assertEquals(1024, o.morselRows());
    }

    @Test
    void cutsByRowRangesWhenOnlyACountIsGiven() {
        CubeSettings s = new CubeSettings();
        s.partitions = 5;
        assertEquals(Partitioning.rowRanges(5), s.toOptions().partitioning());
    }

    @Test
    void refusesANegativePartitionCount() {
        CubeSettings s = new CubeSettings();
        s.partitions = -1;
        assertEquals(
                NumacubeException.Kind.INVALID_INPUT,
                assertThrows(NumacubeException.class, s::toOptions).kind());
    }
}
