package io.numacube.server.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class DateTextsTest {

    @Test
    void writesWhatLocalDateWritesAlsoForDaysSharingACacheSlot() {
        for (long day : new long[] {0, 20_090, 20_090 + 4096, -1, -719_162, 2_932_896, 20_090}) {
            assertEquals(LocalDate.ofEpochDay(day).toString(), DateTexts.iso(day), "day " + day);
        }
    }
}
