package io.numacube.cli.cube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.numa.base.NumacubeException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RowCountTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = ';',
            value = {
                "1000;1000",
                "1_000_000;1000000",
                "'1,000';1000",
                "10M;10000000",
                "1.5K;1500",
                "2b;2000000000",
                "0;0",
                "1G;1000000000"
            })
    void readsPlainGroupedAndSuffixedCounts(String text, long expected) {
        assertEquals(expected, RowCount.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-5", "1.5", "1.0001K", "ten", "10X", "99999999999999999999"})
    void refusesWhatIsNotAWholeCount(String text) {
        NumacubeException e = assertThrows(NumacubeException.class, () -> RowCount.parse(text));
        assertEquals(NumacubeException.Kind.INVALID_INPUT, e.kind());
    }
}
