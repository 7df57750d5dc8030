package org.chainfilter.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.chainfilter.bip158.GcsFilter;
import org.chainfilter.bip158.GcsParams;
import org.chainfilter.bip37.Bip37BloomFilter;
import org.chainfilter.bip37.bitcoinj.BitcoinjAdapters;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.common.Hex;
import org.chainfilter.common.hash.Murmur3;
import org.chainfilter.ethbloom.LogsBloom;
import org.chainfilter.testvectors.ConformanceRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library jars as a user on the module path meets them: each names its module in its manifest
 * ({@code Automatic-Module-Name}, so the name does not hang on the jar's file name), and a module of the user's that
 * {@code requires} them by those names compiles with {@code javac} and runs in a module layer of its own, where
 * BIP37, BIP158 and logsBloom answer as on the class path.
 *
 * <p>It reads the packaged jars, which Maven hands to this module's tests in a build that packages the library
 * modules first ({@code mvn verify}, as CI runs it). Run where the libraries are class directories ({@code mvn test},
 * an IDE), it is skipped and says why.
 */
class ModulePathTest {
    /** Each library module's name and one of its classes. */
    private static final Map<String, Class<?>> LIBRARIES = new LinkedHashMap<>();

    static {
        LIBRARIES.put("org.chainfilter.common", Murmur3.class);
        LIBRARIES.put("org.chainfilter.btcwire", Transaction.class);
        LIBRARIES.put("org.chainfilter.bip37", Bip37BloomFilter.class);
        LIBRARIES.put("org.chainfilter.bip37.bitcoinj", BitcoinjAdapters.class);
        LIBRARIES.put("org.chainfilter.bip158", GcsFilter.class);
        LIBRARIES.put("org.chainfilter.ethbloom", LogsBloom.class);
        LIBRARIES.put("org.chainfilter.testvectors", ConformanceRunner.class);
    }

    /** Where each library's classes come from: its jar, or (outside a packaging build) a class directory. */
    private static final Map<String, Path> SOURCES = new LinkedHashMap<>();

    @BeforeAll
    static void locateTheLibraries() throws URISyntaxException {
        for (Map.Entry<String, Class<?>> library : LIBRARIES.entrySet()) {
            SOURCES.put(library.getKey(),
                    Path.of(library.getValue().getProtectionDomain().getCodeSource().getLocation().toURI()));
        }
    }

    private static void assumePackaged() {
        List<Path> directories = SOURCES.values().stream().filter(Files::isDirectory).toList();
        assumeTrue(directories.isEmpty(), () -> "the library modules are class directories here, not jars ("
                + directories.get(0) + "): this test reads the packaged jars, run it with mvn verify");
    }

    @Test
    void eachLibraryJarNamesItsModule() {
        assumePackaged();
        for (Map.Entry<String, Path> library : SOURCES.entrySet()) {
            Set<ModuleReference> found = ModuleFinder.of(library.getValue()).findAll();
            assertEquals(1, found.size(), library.getValue().toString());
            ModuleDescriptor descriptor = found.iterator().next().descriptor();
            assertEquals(library.getKey(), descriptor.name(), "the module name of " + library.getValue());
            assertTrue(descriptor.isAutomatic(), library.getKey());
            assertTrue(descriptor.packages().contains(LIBRARIES.get(library.getKey()).getPackageName()),
                    library.getKey() + " holds " + descriptor.packages());
        }
    }

    /**
     * A user's module, {@code requires org.chainfilter.bip37}, {@code bip158} and {@code ethbloom}, compiled against
     * the jars on the module path, then run in a layer of those modules: BIP37's published filter vector (Core's
     * bloom_create_insert_serialize: three inserts into a filter for 3 elements at 1 %, nTweak 0, BLOOM_UPDATE_ALL),
     * a GCS filter and a logsBloom, each equal to what the same code gives on the class path. The third-party
     * libraries stay on the class path, which automatic modules read.
     */
    @Test
    void aModuleRequiringTheLibrariesCompilesAndRuns(@TempDir Path dir) throws Exception {
        assumePackaged();
        Path source = dir.resolve("src");
        Path classes = dir.resolve("classes");
        write(source.resolve("module-info.java"), """
                module chainfilter.consumer {
                    requires org.chainfilter.bip37;
                    requires org.chainfilter.bip158;
                    requires org.chainfilter.ethbloom;
                    exports consumer;
                }
                """);
        write(source.resolve("consumer/Probe.java"), """
                package consumer;

                import java.util.List;
                import org.chainfilter.bip158.GcsFilter;
                import org.chainfilter.bip158.GcsParams;
                import org.chainfilter.bip37.Bip37BloomFilter;
                import org.chainfilter.common.Hex;
                import org.chainfilter.ethbloom.LogsBloom;

                public final class Probe implements java.util.function.Supplier<String> {
                    @Override
                    public String get() {
                        Bip37BloomFilter filter = Bip37BloomFilter.fromElementsAndRate(3, 0.01, 0, 1);
                        filter.insert(Hex.decode("99108ad8ed9bb6274d3980bab5a85c048f0950c8"));
                        filter.insert(Hex.decode("b5a2c786d9ef4658287ced5914b37a1b4aa32eee"));
                        filter.insert(Hex.decode("b9300670b4c5366e95b2699e8b18bc75e5f729c5"));
                        GcsFilter gcs = GcsFilter.build(GcsParams.of(new byte[16], 19, 784931),
                                List.of(Hex.decode("00"), Hex.decode("0102")));
                        LogsBloom bloom = LogsBloom.ofValue(Hex.decode("5fbdb2315678afecb367f032d93f642f64180aa3"));
                        return Hex.encode(filter.toFilterLoad()) + " " + Hex.encode(gcs.encoded()) + " "
                                + bloom.toHex() + " " + Bip37BloomFilter.class.getModule().getName();
                    }
                }
                """);
        List<Path> jars = new ArrayList<>(SOURCES.values());
        String modulePath = jars.stream().map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        List<String> options = List.of("--release", "17", "--module-path", modulePath, "-d", classes.toString());
        List<String> files = List.of(source.resolve("module-info.java").toString(),
                source.resolve("consumer/Probe.java").toString());
        boolean compiled = javac.getTask(diagnostics, null, null, options, null,
                javac.getStandardFileManager(null, null, StandardCharsets.UTF_8).getJavaFileObjectsFromStrings(files))
                .call();
        assertTrue(compiled, diagnostics.toString());

        List<Path> path = new ArrayList<>(jars);
        path.add(0, classes);
        Configuration configuration = ModuleLayer.boot().configuration()
                .resolve(ModuleFinder.of(path.toArray(Path[]::new)), ModuleFinder.of(), Set.of("chainfilter.consumer"));
        ModuleLayer layer = ModuleLayer.boot().defineModulesWithOneLoader(configuration,
                ModulePathTest.class.getClassLoader());
        Class<?> probe = layer.findLoader("chainfilter.consumer").loadClass("consumer.Probe");
        assertEquals("chainfilter.consumer", probe.getModule().getName());
        @SuppressWarnings("unchecked")
        Supplier<String> run = (Supplier<String>) probe.getDeclaredConstructor().newInstance();

        String[] answers = run.get().split(" ");
        assertEquals("03614e9b050000000000000001", answers[0], "BIP37's published filter, on the module path");
        GcsFilter gcs = GcsFilter.build(GcsParams.of(new byte[16], 19, 784931),
                List.of(Hex.decode("00"), Hex.decode("0102")));
        assertEquals(Hex.encode(gcs.encoded()), answers[1], "the GCS filter on the module path and on the class path");
        assertEquals(LogsBloom.ofValue(Hex.decode("5fbdb2315678afecb367f032d93f642f64180aa3")).toHex(), answers[2],
                "the logsBloom on the module path and on the class path");
        assertEquals("org.chainfilter.bip37", answers[3], "the consumer links to the layer's bip37 module");
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
