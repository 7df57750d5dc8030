package org.chainfilter.testvectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import org.chainfilter.testvectors.peer.Web3jSuites;
import org.junit.jupiter.api.Test;

/** The published vectors run on the peer libraries; each departure from the reference behaviour is pinned here. */
class PeerReportTest {
    private static List<VectorFile> bundledOf(ConformanceRunner runner) {
        return Suites.bundled().stream().filter(f -> runner.suites().contains(f.suite())).toList();
    }

    private static String failures(ConformanceReport report) {
        return report.failures().stream().map(VectorResult::describe).collect(Collectors.joining("\n"));
    }

    @Test
    void web3jReproducesEveryBloomVector() {
        ConformanceRunner runner = Web3jSuites.runner();
        ConformanceReport report = runner.run(bundledOf(runner));
        assertEquals(0, report.failed(), failures(report));
        assertTrue(report.passed() > 90, report.summaryLine());
    }
}
