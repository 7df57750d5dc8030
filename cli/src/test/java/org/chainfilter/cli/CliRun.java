package org.chainfilter.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One in-process run of the {@code chainfilter} command: its exit status, stdout and stderr. */
final class CliRun {
    final int status;
    final String out;
    final String err;

    private CliRun(int status, String out, String err) {
        this.status = status;
        this.out = out;
        this.err = err;
    }

    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = ChainfilterCommand.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new CliRun(status, out.toString(), err.toString());
    }

    @Override
    public String toString() {
        return "status " + status + "\nstdout:\n" + out + "\nstderr:\n" + err;
    }
}
