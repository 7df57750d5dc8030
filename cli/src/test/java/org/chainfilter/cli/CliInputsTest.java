package org.chainfilter.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.chainfilter.common.Hex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliInputsTest {

    private static List<String> lines(String text, int maxChars) throws IOException {
        CliInputs.BoundedLines lines = new CliInputs.BoundedLines(new StringReader(text), maxChars, "test");
        List<String> read = new ArrayList<>();
        for (String line; (line = lines.next()) != null; ) {
            read.add(line);
            assertEquals(read.size(), lines.lineNumber());
        }
        return read;
    }

    /** The lines BufferedReader.readLine gives for \n-ended text, with a \r kept for the caller's strip. */
    @Test
    void boundedLinesSplitAtLineBreaks() throws IOException {
        assertEquals(List.of(), lines("", 10));
        assertEquals(List.of(""), lines("\n", 10));
        assertEquals(List.of("a", "", "b"), lines("a\n\nb\n", 10));
        assertEquals(List.of("a", "b"), lines("a\nb", 10));
        assertEquals(List.of("a\r", "b\r"), lines("a\r\nb\r\n", 10));
        String across = "x".repeat(20_000);
        assertEquals(List.of("y", across, "z"), lines("y\n" + across + "\nz", 20_000));
    }

    @Test
    void boundedLinesRefuseALineOverTheLimit() throws IOException {
        assertEquals(List.of("0123456789"), lines("0123456789\n", 10));
        var e = assertThrows(IllegalArgumentException.class, () -> lines("ok\n0123456789A\n", 10));
        assertEquals("line 2 of test is longer than 10 characters, the most a line may hold", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> lines("z".repeat(100_000), 10_000));
        assertEquals("line 1 of test is longer than 10000 characters, the most a line may hold", e.getMessage());
    }

    /** Spent-script lists decode as Files.readAllLines did: stripped lines, none for a final line break. */
    @Test
    void hexLinesDecodeAsBefore(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("s.hex"), "00 \r\n\nabcd\n");
        List<byte[]> decoded = CliInputs.decodeHexLines(file, "--spent-file");
        assertEquals(3, decoded.size());
        assertEquals("00", Hex.encode(decoded.get(0)));
        assertEquals("", Hex.encode(decoded.get(1)));
        assertEquals("abcd", Hex.encode(decoded.get(2)));
        assertEquals(0, CliInputs.decodeHexLines(Files.writeString(dir.resolve("e.hex"), ""), "--spent-file").size());
    }

    /**
     * A refusal quotes the value when it has at most 80 characters (stripped), and names the option alone for a longer
     * one (a block or a filter would bury the reason).
     */
    @Test
    void aRefusalQuotesValuesOfUpTo80Characters() {
        String eighty = "0".repeat(79) + "z";
        var e = assertThrows(IllegalArgumentException.class, () -> CliInputs.hex("--tx", " " + eighty + "\n"));
        assertEquals("--tx '" + eighty + "': " + e.getCause().getMessage(), e.getMessage());
        String eightyOne = "0".repeat(80) + "z";
        e = assertThrows(IllegalArgumentException.class, () -> CliInputs.hex("--tx", eightyOne));
        assertEquals("--tx: " + e.getCause().getMessage(), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> CliInputs.hex("--topic", eightyOne, 32, "topic"));
        assertEquals("--topic: " + e.getCause().getMessage(), e.getMessage());
    }
}
