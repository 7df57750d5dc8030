package org.chainfilter.ethbloom.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.chainfilter.ethbloom.LogFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileCheckpointStoreTest {
    private static final String HASH = "0x" + "1f".repeat(32);
    private static final String FINGERPRINT = Checkpoint.fingerprint(LogFilter.matchAll());

    @TempDir
    Path dir;

    /**
     * Savers at once (scans sharing one scanner and its store) never leave a torn checkpoint for a reader: each save
     * writes a temporary file of its own. With one shared temporary name a second saver truncated the first's file
     * just before it was renamed into place: saves failed and readers found no checkpoint (found by a review).
     */
    @Test
    void concurrentSavesNeverLeaveATornCheckpoint() throws Exception {
        FileCheckpointStore store = new FileCheckpointStore(dir.resolve("shared.checkpoint"));
        store.save(new Checkpoint(1, HASH, FINGERPRINT));
        java.util.concurrent.atomic.AtomicInteger failures = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean saving = new java.util.concurrent.atomic.AtomicBoolean(true);
        List<Thread> savers = new java.util.ArrayList<>();
        for (int t = 0; t < 2; t++) {
            int base = 1000 * (t + 1);
            savers.add(new Thread(() -> {
                for (int i = 0; i < 200; i++) {
                    try {
                        store.save(new Checkpoint(base + i, HASH, FINGERPRINT));
                    } catch (RuntimeException e) {
                        failures.incrementAndGet();
                    }
                }
            }));
        }
        Thread reader = new Thread(() -> {
            while (saving.get()) {
                try {
                    if (store.load().isEmpty()) {
                        failures.incrementAndGet();
                    }
                } catch (RuntimeException e) {
                    failures.incrementAndGet();
                }
            }
        });
        reader.start();
        savers.forEach(Thread::start);
        for (Thread saver : savers) {
            saver.join();
        }
        saving.set(false);
        reader.join();
        assertEquals(0, failures.get(), "failed saves and loads that found no or a torn checkpoint");
        try (var files = Files.list(dir)) {
            assertEquals(List.of(store.file()), files.toList());
        }
    }

    @Test
    void savesAndLoadsAndReplacesAtomically() throws IOException {
        FileCheckpointStore store = new FileCheckpointStore(dir.resolve("scan.checkpoint"));
        assertEquals(Optional.empty(), store.load());
        store.save(new Checkpoint(17, HASH, FINGERPRINT));
        assertEquals(Optional.of(new Checkpoint(17, HASH, FINGERPRINT)), store.load());
        store.save(new Checkpoint(18_000_000_000L, HASH, FINGERPRINT));
        assertEquals(18_000_000_000L, new FileCheckpointStore(store.file()).load().orElseThrow().nextBlock());
        try (var files = Files.list(dir)) {
            assertEquals(List.of(store.file()), files.toList(), "the temporary files are renamed away");
        }
        // Golden form: a change of the format must fail here.
        assertEquals("chainfilter-eth-scan-checkpoint=1\nnextBlock=18000000000\nlastBlockHash=" + HASH + "\nfilter="
                + FINGERPRINT + "\n", Files.readString(store.file(), StandardCharsets.US_ASCII));
    }

    /** A file made beforehand for the checkpoint ({@code mktemp}, {@code touch}) holds none yet, and is written. */
    @Test
    void anEmptyFileIsNoCheckpointYet() throws IOException {
        Path file = Files.createFile(dir.resolve("made-by-mktemp"));
        FileCheckpointStore store = new FileCheckpointStore(file);
        assertEquals(Optional.empty(), store.load());
        Checkpoint checkpoint = new Checkpoint(8, "0x" + "ab".repeat(32), FINGERPRINT);
        store.save(checkpoint);
        assertEquals(Optional.of(checkpoint), store.load());
    }

    @Test
    void refusesFilesThatAreNotCheckpoints() throws IOException {
        Path file = dir.resolve("bad.checkpoint");
        FileCheckpointStore store = new FileCheckpointStore(file);

        Files.write(file, new byte[FileCheckpointStore.MAX_FILE_BYTES + 1]);
        assertEquals("checkpoint " + file + " is 4097 bytes; a checkpoint is at most 4096",
                assertThrows(ScanException.class, store::load).getMessage());

        Files.writeString(file, "nextBlock=5\n");
        assertEquals("checkpoint " + file + " is not a version-1 chainfilter eth scan checkpoint (it has no line"
                + " chainfilter-eth-scan-checkpoint=1)", assertThrows(ScanException.class, store::load).getMessage());

        Files.writeString(file, "chainfilter-eth-scan-checkpoint=2\nnextBlock=5\n");
        assertEquals("checkpoint " + file + " is not a version-1 chainfilter eth scan checkpoint"
                + " (chainfilter-eth-scan-checkpoint=2)", assertThrows(ScanException.class, store::load).getMessage());

        Files.writeString(file, " \n");
        assertEquals("checkpoint " + file + " is not a version-1 chainfilter eth scan checkpoint (it has no line"
                + " chainfilter-eth-scan-checkpoint=1)", assertThrows(ScanException.class, store::load).getMessage(),
                "only an empty file is no checkpoint");

        Files.writeString(file, "chainfilter-eth-scan-checkpoint=1\nnextBlock=five\n");
        assertEquals("checkpoint " + file + " is malformed: nextBlock is 'five', not a decimal block number",
                assertThrows(ScanException.class, store::load).getMessage());

        Files.writeString(file, "chainfilter-eth-scan-checkpoint=1\nnextBlock=5\nfilter=" + FINGERPRINT + "\n");
        assertEquals("checkpoint " + file + " is malformed: field lastBlockHash is missing",
                assertThrows(ScanException.class, store::load).getMessage());

        Files.writeString(file, "chainfilter-eth-scan-checkpoint=1\nnextBlock=5\nlastBlockHash=0x12\nfilter="
                + FINGERPRINT + "\n");
        assertEquals("checkpoint " + file + " is malformed: checkpoint lastBlockHash is '0x12'; expected 0x and 64"
                + " lower-case hex digits", assertThrows(ScanException.class, store::load).getMessage());

        // A repeated field or a line that is not FIELD=VALUE is refused: the last nextBlock won in silence (found by
        // a review).
        String valid = "chainfilter-eth-scan-checkpoint=1\nnextBlock=5\nlastBlockHash=" + HASH + "\nfilter="
                + FINGERPRINT + "\n";
        Files.writeString(file, valid + "nextBlock=7\n");
        assertEquals("checkpoint " + file + " is malformed: field nextBlock appears twice (again at line 5)",
                assertThrows(ScanException.class, store::load).getMessage());
        Files.writeString(file, valid + "resume here\n");
        assertEquals("checkpoint " + file + " is malformed: line 5 is not FIELD=VALUE",
                assertThrows(ScanException.class, store::load).getMessage());
        Files.writeString(file, valid);
        assertEquals(5, store.load().orElseThrow().nextBlock());
    }

    /**
     * A device or a pipe is refused before it is opened: /dev/zero never ends, and opening a pipe blocks until a
     * writer comes (it once hung the load forever). Each load runs with a timeout, so a hang fails the test.
     */
    @Test
    void aDeviceOrAPipeIsNotACheckpoint(@TempDir Path dir) throws Exception {
        Path zeros = Path.of("/dev/zero");
        assumeTrue(Files.isReadable(zeros), "needs /dev/zero");
        assertEquals("checkpoint /dev/zero is not a regular file", assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(ScanException.class, new FileCheckpointStore(zeros)::load)).getMessage());
        Path fifo = dir.resolve("checkpoint");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assumeTrue(mkfifo.waitFor() == 0 && Files.exists(fifo), "needs mkfifo");
        assertEquals("checkpoint " + fifo + " is not a regular file", assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(ScanException.class, new FileCheckpointStore(fifo)::load)).getMessage());
    }

    @Test
    void checkpointValuesAreChecked() {
        assertEquals("checkpoint nextBlock is 0; it must be at least 1 (a checkpoint is written after a block is"
                + " scanned)", assertThrows(IllegalArgumentException.class,
                        () -> new Checkpoint(0, HASH, FINGERPRINT)).getMessage());
        assertEquals("checkpoint filter fingerprint is 'abc'; expected 64 lower-case hex digits",
                assertThrows(IllegalArgumentException.class, () -> new Checkpoint(1, HASH, "abc")).getMessage());
    }

    @Test
    void theFingerprintTellsFiltersApartAndIgnoresHowTheyWereBuilt() {
        byte[] address = new byte[20];
        byte[] topic = new byte[32];
        topic[0] = 1;
        LogFilter built = LogFilter.builder().address(address).topic(1, topic).build();
        LogFilter fromLists = LogFilter.of(java.util.List.of(address),
                java.util.Arrays.asList(null, java.util.List.of(topic)));
        assertEquals(Checkpoint.fingerprint(built), Checkpoint.fingerprint(fromLists));
        assertNotEquals(Checkpoint.fingerprint(built), Checkpoint.fingerprint(LogFilter.builder().address(address)
                .topic(0, topic).build()));
        assertNotEquals(Checkpoint.fingerprint(built), FINGERPRINT);
        assertTrue(Checkpoint.fingerprint(built).matches("[0-9a-f]{64}"));
    }
}
