package org.chainfilter.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.chainfilter.testvectors.ConformanceReport;
import org.chainfilter.testvectors.ConformanceRunner;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.VectorFile;
import org.chainfilter.testvectors.VectorResult;
import org.chainfilter.testvectors.peer.BitcoinjSuites;
import org.chainfilter.testvectors.peer.Web3jSuites;
import org.chainfilter.testvectors.suites.ChainfilterSuites;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code chainfilter conformance FILE... | --bundled [--impl chainfilter|bitcoinj|web3j] | --list}: runs conformance
 * vector files (the schema of conformance/SCHEMA.md) and prints every failure with its first mismatch, a table of
 * vectors per suite, and the line {@code N passed, N failed}. Exit status 1 when anything failed or nothing ran.
 */
@Command(name = "conformance", mixinStandardHelpOptions = true,
        description = {"Run conformance vector files against chainfilter (or a peer library) and report.",
            "Prints each failure with its first mismatch and ends with 'N passed, N failed'; exit status 1 on any "
                + "failure, or when no vector ran (every file of a suite the implementation does not run)."})
final class ConformanceCommand implements Callable<Integer> {
    /** The implementations a run can check. */
    enum Impl { chainfilter, bitcoinj, web3j }

    @Spec
    private CommandSpec spec;

    @Option(names = "--bundled", description = "Run every vector file shipped with chainfilter.")
    private boolean bundled;

    @Option(names = "--impl", paramLabel = "IMPL", defaultValue = "chainfilter",
            description = {"Implementation under test: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).",
                "bitcoinj runs the BIP37 suites on bitcoinj 0.17 and lists where it departs from Bitcoin Core;",
                "web3j runs eth-bloom and eth-bloom-contains on org.web3j.utils.Bloom."})
    private Impl impl;

    @Option(names = {"-v", "--verbose"}, description = "Also print every passed vector.")
    private boolean verbose;

    @Option(names = "--list", description = "List the bundled vector files (suite, vectors, source) and run nothing.")
    private boolean list;

    @Parameters(paramLabel = "FILE", arity = "0..*", description = "Vector files to run.")
    private List<Path> files = new ArrayList<>();

    @Override
    public Integer call() {
        if (list) {
            boolean implGiven = spec.commandLine().getParseResult().hasMatchedOption("--impl");
            if (bundled || !files.isEmpty() || verbose || implGiven) {
                throw new ParameterException(spec.commandLine(),
                        "--list lists the bundled files and runs nothing; give it alone");
            }
            listBundled(spec.commandLine().getOut());
            return 0;
        }
        if (!bundled && files.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "give vector FILEs or --bundled");
        }
        List<VectorFile> toRun = new ArrayList<>();
        if (bundled) {
            toRun.addAll(Suites.bundled());
        }
        for (Path file : files) {
            toRun.add(VectorFile.read(file));
        }
        PrintWriter out = spec.commandLine().getOut();
        // The schema lets a runner ignore fields it does not give a suite, so a misspelt field checks nothing: say so.
        // On stderr, so the report on stdout keeps the schema's shape.
        PrintWriter err = spec.commandLine().getErr();
        toRun.forEach(file -> file.warnings().forEach(warning -> err.println("WARNING " + warning)));
        ConformanceRunner runner = runner(impl);
        List<VectorFile> runnable = toRun;
        if (impl != Impl.chainfilter) {
            runnable = toRun.stream().filter(f -> runner.suites().contains(f.suite())).toList();
            Map<String, Integer> notRun = new LinkedHashMap<>();
            toRun.stream().filter(f -> !runner.suites().contains(f.suite()))
                    .forEach(f -> notRun.merge(f.suite(), f.vectors().size(), Integer::sum));
            out.println("Implementation under test: " + peerName(impl) + " (the vectors state the reference "
                    + "behaviour; every failure below but a malformed vector's is a departure from it).");
            if (!notRun.isEmpty()) {
                out.println("Not run on " + impl + " (suites it does not implement): " + notRun);
            }
        }
        String failurePrefix = impl == Impl.bitcoinj ? "departs from Bitcoin Core: "
                : impl == Impl.web3j ? "departs from go-ethereum: " : "";
        ConformanceReport report = runner.run(runnable, result -> {
            if (result.outcome() == VectorResult.Outcome.FAILED) {
                // A malformed vector is the file's fault, not a departure of the peer's.
                out.println((result.malformed() ? "" : failurePrefix) + result.describe());
            } else if (verbose || result.outcome() == VectorResult.Outcome.SKIPPED) {
                // A skip says why a vector was not (fully) checked: never passed over in silence.
                out.println(result.describe());
            }
        });
        printTable(out, report);
        out.println(report.summaryLine());
        out.flush();
        if (report.passed() + report.failed() == 0) {
            // A misspelt suite name or an --impl that runs none of the files would otherwise pass in silence.
            // Every vector given was left out: skipped by the runner (an unknown suite, or a vector the
            // implementation cannot check) or not handed to a peer (a suite it does not implement).
            long notRun = toRun.stream().mapToLong(f -> f.vectors().size()).sum();
            boolean someUncheckable = report.results().stream()
                    .anyMatch(r -> r.outcome() == VectorResult.Outcome.SKIPPED && runner.suites().contains(r.suite()));
            spec.commandLine().getErr().println(notRun == 0
                    ? "chainfilter: no vector was run: the files hold no vectors"
                    : "chainfilter: no vector was run (" + notRun + " skipped): " + (someUncheckable
                            ? impl + " cannot check the vectors of the suites it runs (the reasons are above)"
                            : "no file is of a suite that " + impl + " runs"));
            return ErrorHandler.FAILURE;
        }
        return report.succeeded() ? 0 : ErrorHandler.FAILURE;
    }

    static ConformanceRunner runner(Impl impl) {
        if (impl == Impl.bitcoinj && System.getProperty("slf4j.internal.verbosity") == null) {
            // bitcoinj logs through SLF4J, and with no binding on the class path SLF4J warns on stderr at first use;
            // the report is the output here, so only SLF4J's errors may interleave with it.
            System.setProperty("slf4j.internal.verbosity", "ERROR");
        }
        return switch (impl) {
            case chainfilter -> ChainfilterSuites.runner();
            case bitcoinj -> BitcoinjSuites.runner();
            case web3j -> Web3jSuites.runner();
        };
    }

    private static String peerName(Impl impl) {
        return impl == Impl.bitcoinj ? "bitcoinj 0.17.1 (org.bitcoinj.core.BloomFilter, FilteredBlock)"
                : "web3j 4.13.0 (org.web3j.utils.Bloom)";
    }

    /** One line per bundled file: name, suite, vector count; then its source, indented. */
    private static void listBundled(PrintWriter out) {
        List<VectorFile> bundledFiles = Suites.bundled();
        for (VectorFile file : bundledFiles) {
            out.printf(Locale.ROOT, "%-40s %-26s %4d%n    %s%n", file.origin(), file.suite(), file.vectors().size(),
                    file.source());
        }
        out.println(bundledFiles.size() + " files, " + bundledFiles.stream().mapToInt(f -> f.vectors().size()).sum()
                + " vectors, in " + Suites.RESOURCE_DIRECTORY + " of chainfilter-testvectors");
        out.flush();
    }

    /** Vectors and passes per suite, aligned. */
    static void printTable(PrintWriter out, ConformanceReport report) {
        Map<String, Integer> run = report.vectorsPerSuite();
        if (run.isEmpty()) {
            return;
        }
        Map<String, Integer> passed = report.passedPerSuite();
        out.printf(Locale.ROOT, "%-26s %8s %8s%n", "suite", "vectors", "passed");
        for (Map.Entry<String, Integer> e : run.entrySet()) {
            out.printf(Locale.ROOT, "%-26s %8d %8d%n", e.getKey(), e.getValue(), passed.getOrDefault(e.getKey(), 0));
        }
    }
}
