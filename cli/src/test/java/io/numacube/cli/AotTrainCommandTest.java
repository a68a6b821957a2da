package io.numacube.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The launcher's training run: every step a first user takes succeeds, quietly, and users never see the command. */
class AotTrainCommandTest {

    @Test
    void theTrainingRunSucceedsPrintingOnlyItsSummary() {
        CliRun r = CliRun.of("aot-train", "--seconds", "1");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("", r.out());
        assertTrue(r.err().matches("(?s)aot-train: done in [0-9.]+ s\\R"), r.err());
    }

    @Test
    void theCommandIsHiddenFromTheHelp() {
        CliRun help = CliRun.of("--help");
        assertEquals(0, help.exitCode(), help.err());
        assertTrue(help.out().contains("query"), help.out());
        assertFalse(help.out().contains("aot-train"), help.out());
    }
}
