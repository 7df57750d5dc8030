package org.chainfilter.ethbloom.scan;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A checkpoint in a small text file, replaced atomically: the new content goes to {@code <file>.tmp} in the same
 * directory, is forced to disk, then renamed over the old file ({@code ATOMIC_MOVE}), so a crash leaves either the old
 * or the new checkpoint, never a torn one. Format (version 1, US-ASCII, one {@code key=value} a line):
 * <pre>
 * chainfilter-eth-scan-checkpoint=1
 * nextBlock=1234
 * lastBlockHash=0x…64 hex…
 * filter=…64 hex…
 * </pre>
 * Saves through one store are one at a time, so scans sharing a scanner (and its store) may save at once; two stores
 * or two processes on one file are not coordinated (their temporary files would collide), so give each its own file.
 * The reader refuses a repeated field and a line that is not {@code key=value}.
 */
public final class FileCheckpointStore implements CheckpointStore {
    /** A checkpoint file is a few hundred bytes; anything larger is not one and is refused before reading. */
    public static final int MAX_FILE_BYTES = 4096;
    private static final String MAGIC = "chainfilter-eth-scan-checkpoint";

    private final Path file;

    public FileCheckpointStore(Path file) {
        this.file = Objects.requireNonNull(file, "file").toAbsolutePath();
    }

    public Path file() {
        return file;
    }

    /**
     * The checkpoint in the file; empty when there is no file, or an empty one (made beforehand, e.g. by
     * {@code mktemp}).
     *
     * @throws ScanException when the file exists but is not a version-1 checkpoint (too large, a missing or malformed
     *                       field): the message names the file and the problem
     */
    @Override
    public Optional<Checkpoint> load() {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        if (!Files.isRegularFile(file)) {
            // A pipe would block the open itself until some writer came, and a device (/dev/zero) may never end.
            throw new ScanException("checkpoint " + file + " is not a regular file");
        }
        try {
            long size = Files.size(file);
            if (size > MAX_FILE_BYTES) {
                throw new ScanException("checkpoint " + file + " is " + size + " bytes; a checkpoint is at most "
                        + MAX_FILE_BYTES);
            }
            // Bounded all the same: the file may grow between the size check and the read.
            byte[] bytes;
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes(MAX_FILE_BYTES + 1);
            }
            if (bytes.length > MAX_FILE_BYTES) {
                throw new ScanException("checkpoint " + file + " holds more than " + MAX_FILE_BYTES
                        + " bytes; a checkpoint is at most " + MAX_FILE_BYTES);
            }
            if (bytes.length == 0) {
                // A file made for the checkpoint beforehand (touch, mktemp): none yet. Never a torn write of ours,
                // which replaces the file whole.
                return Optional.empty();
            }
            Map<String, String> fields = new HashMap<>();
            String problem = null;
            String[] lines = new String(bytes, StandardCharsets.US_ASCII).split("\n");
            for (int i = 0; i < lines.length; i++) {
                String line = lines[i];
                if (line.isBlank()) {
                    continue;
                }
                int eq = line.indexOf('=');
                if (eq <= 0) {
                    problem = problem != null ? problem : "line " + (i + 1) + " is not FIELD=VALUE";
                    continue;
                }
                // A repeated field would make the last one win in silence: a file edited or joined by hand.
                String key = line.substring(0, eq).trim();
                if (fields.put(key, line.substring(eq + 1).trim()) != null && problem == null) {
                    problem = "field " + key + " appears twice (again at line " + (i + 1) + ")";
                }
            }
            if (!"1".equals(fields.get(MAGIC))) {
                throw new ScanException("checkpoint " + file + " is not a version-1 chainfilter eth scan checkpoint ("
                        + (fields.containsKey(MAGIC) ? MAGIC + "=" + fields.get(MAGIC)
                                : "it has no line " + MAGIC + "=1") + ")");
            }
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
            return Optional.of(new Checkpoint(parseBlock(fields.get("nextBlock")), require(fields, "lastBlockHash"),
                    require(fields, "filter")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read checkpoint " + file, e);
        } catch (IllegalArgumentException e) {
            throw new ScanException("checkpoint " + file + " is malformed: " + e.getMessage(), e);
        }
    }

    private String require(Map<String, String> fields, String key) {
        String value = fields.get(key);
        if (value == null) {
            throw new IllegalArgumentException("field " + key + " is missing");
        }
        return value;
    }

    private long parseBlock(String value) {
        if (value == null) {
            throw new IllegalArgumentException("field nextBlock is missing");
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("nextBlock is '" + value + "', not a decimal block number", e);
        }
    }

    @Override
    public synchronized void save(Checkpoint checkpoint) {
        String text = MAGIC + "=1\nnextBlock=" + checkpoint.nextBlock() + "\nlastBlockHash="
                + checkpoint.lastBlockHash() + "\nfilter=" + checkpoint.filterFingerprint() + "\n";
        // One save at a time (synchronized): scans sharing a scanner share its store, and a second saver truncated
        // the first's temporary file after it was written, so the rename put an empty or half-written checkpoint in
        // place. The temporary file keeps one name, so a save cut short by a kill leaves one file the next replaces.
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                channel.force(true);
            }
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException ignored) {
                // The save's own failure is the one to report.
            }
            throw new UncheckedIOException("cannot write checkpoint " + file, e);
        }
    }

    @Override
    public String toString() {
        return "FileCheckpointStore[" + file + "]";
    }
}
