package io.numacube.engine.ingest.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Values longer than the writer's 64 KiB buffer are written whole, whatever their characters. */
class CsvWriterTest {

    @Test
    void writesValuesLongerThanItsBuffer() throws Exception {
        String ascii = "a".repeat(200_000);
        String unicode = "é".repeat(100_000);
        String quoted = "x,\"y".repeat(30_000);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CsvWriter w = new CsvWriter(bytes);
        w.writeString(ascii);
        w.writeString(unicode);
        w.writeString(quoted);
        w.endRow();
        w.flush();
        assertEquals(
                ascii + "," + unicode + ",\"" + quoted.replace("\"", "\"\"") + "\"\n",
                bytes.toString(StandardCharsets.UTF_8));
    }
}
