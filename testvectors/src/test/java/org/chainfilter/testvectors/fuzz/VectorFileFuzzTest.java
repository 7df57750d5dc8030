package org.chainfilter.testvectors.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.chainfilter.testkit.ParserContract;
import org.chainfilter.testvectors.ConformanceReport;
import org.chainfilter.testvectors.VectorFile;
import org.chainfilter.testvectors.VectorFormatException;
import org.chainfilter.testvectors.VectorResult;
import org.chainfilter.testvectors.suites.ChainfilterSuites;

/**
 * Fuzzes what {@code chainfilter conformance FILE} does with a user's file: {@link VectorFile#parse} refuses anything
 * not in the schema with a {@link VectorFormatException}, and running a parsed file through every chainfilter suite
 * turns each vector into a result. A vector may fail, but only with a mismatch, a malformed field, or a refusal of
 * chainfilter's own (an {@link IllegalArgumentException}); any other exception a suite provokes in chainfilter
 * (an index out of bounds, a null pointer, a stack overflow) is a finding. Seeds: small bundled files.
 */
class VectorFileFuzzTest {
    private static final ParserContract<VectorFile> FILE =
            ParserContract.refusing("VectorFile.parse", VectorFormatException.class);
    /** The refusals of chainfilter's parsers: IllegalArgumentException and its subclasses. */
    private static final Set<String> REFUSALS = Set.of("IllegalArgumentException", "WireFormatException",
            "InvalidMerkleBlockException", "IndexFormatException", "NumberFormatException");

    @FuzzTest(maxDuration = "5m")
    void parseAndRun(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        Optional<VectorFile> file = FILE.parse(text.length(), () -> VectorFile.parse("fuzz.json", text));
        if (file.isEmpty()) {
            return;
        }
        ConformanceReport report = ChainfilterSuites.runner().run(List.of(file.get()));
        for (VectorResult result : report.results()) {
            String detail = result.detail();
            if (detail.startsWith("threw ")) {
                String type = detail.substring("threw ".length(), detail.indexOf(':'));
                if (!REFUSALS.contains(type)) {
                    throw new AssertionError("vector '" + result.vector() + "' crashed chainfilter: " + detail);
                }
            }
        }
    }
}
