package org.chainfilter.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * A standard output whose reader goes away after {@code lines} lines, as {@code head -n<lines>} does: every write after
 * that fails as a write to a closed pipe does (EPIPE), which a {@link PrintWriter} swallows and only
 * {@link PrintWriter#checkError()} reports.
 */
final class ClosingStdout extends OutputStream {
    private final int lines;
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    private int newlines;

    ClosingStdout(int lines) {
        this.lines = lines;
    }

    /** The writer a command gets as its stdout. */
    PrintWriter writer() {
        return new PrintWriter(this);
    }

    /** What the reader received before it went away. */
    synchronized String received() {
        return received.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
        if (newlines >= lines) {
            throw new IOException("Broken pipe");
        }
        for (int i = offset; i < offset + length; i++) {
            newlines += bytes[i] == '\n' ? 1 : 0;
        }
        received.write(bytes, offset, length);
    }
}
