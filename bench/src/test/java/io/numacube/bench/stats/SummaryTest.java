package io.numacube.bench.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SummaryTest {

    @Test
    void medianOfOddCountIsTheMiddleSampleWhateverTheOrder() {
        Summary s = Summary.of(9, 1, 5);
        assertEquals(5, s.median());
        assertEquals(1, s.min());
        assertEquals(9, s.max());
    }

    @Test
    void medianOfEvenCountIsTheMeanOfTheTwoMiddleSamples() {
        assertEquals(2.5, Summary.of(4, 1, 3, 2).median());
    }

    @Test
    void coefficientOfVariationIsSampleStddevOverMean() {
        // mean 5, squared deviations 9+1+1+9 = 20, sample variance 20/3
        Summary s = Summary.of(2, 4, 6, 8);
        assertEquals(5, s.mean(), 1e-12);
        assertEquals(Math.sqrt(20.0 / 3), s.stddev(), 1e-12);
        assertEquals(Math.sqrt(20.0 / 3) / 5, s.cv(), 1e-12);
    }

    @Test
    void singleSampleHasNoSpread() {
        Summary s = Summary.of(3.5);
        assertEquals(0, s.stddev());
        assertEquals(0, s.cv());
        assertEquals(3.5, s.median());
    }

    @Test
    void identicalSamplesHaveZeroVariation() {
        assertEquals(0, Summary.of(0.25, 0.25, 0.25).cv());
    }

    @Test
    void refusesNoSamplesAndNonFiniteSamples() {
        assertThrows(IllegalArgumentException.class, Summary::of);
        assertThrows(IllegalArgumentException.class, () -> Summary.of(1, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> Summary.of(Double.POSITIVE_INFINITY));
    }

    @Test
    void doesNotReorderTheCallersArray() {
        double[] samples = {3, 1, 2};
        Summary.of(samples);
        assertEquals(3, samples[0]);
    }
}
