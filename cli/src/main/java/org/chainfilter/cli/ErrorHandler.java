package org.chainfilter.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;

/**
 * Turns every failure into one line, {@code chainfilter: <message>}, on stderr, and a non-zero exit status; never a
 * stack trace for a user's mistake. A failure that is not a user's mistake (a bug) is named by its exception class so
 * it can be reported; {@code CHAINFILTER_DEBUG=1} in the environment adds its stack trace.
 */
final class ErrorHandler implements IParameterExceptionHandler, IExecutionExceptionHandler {
    /** Exit status for a command line picocli could not parse (unknown option, missing parameter, bad number). */
    static final int USAGE = 2;
    /** Exit status for a command that refused its input or failed while running. */
    static final int FAILURE = 1;

    @Override
    public int handleParseException(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        cmd.getErr().println("chainfilter: " + oneLine(e.getMessage())
                + " (see '" + cmd.getCommandSpec().qualifiedName() + " --help')");
        cmd.getErr().flush();
        return USAGE;
    }

    @Override
    public int handleExecutionException(Exception e, CommandLine cmd, CommandLine.ParseResult parseResult) {
        report(e, cmd.getErr());
        return e instanceof ParameterException ? USAGE : FAILURE;
    }

    /** Prints {@code chainfilter: <message>} for {@code e} (and its stack trace when debugging), then flushes. */
    static void report(Throwable e, PrintWriter err) {
        err.println("chainfilter: " + oneLine(describe(e)));
        if (System.getenv("CHAINFILTER_DEBUG") != null) {
            e.printStackTrace(err);
        }
        err.flush();
    }

    /** The message a user sees for {@code e}. */
    static String describe(Throwable e) {
        if (e instanceof UncheckedIOException && e.getCause() != null) {
            return describe(e.getCause());
        }
        if (e instanceof NoSuchFileException) {
            return "no such file: " + ((NoSuchFileException) e).getFile();
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied: " + ((AccessDeniedException) e).getFile();
        }
        if (e instanceof java.io.FileNotFoundException) {
            return "cannot open " + e.getMessage();
        }
        String message = e.getMessage();
        if (isUserError(e) && message != null && !message.isBlank()) {
            return message;
        }
        return "internal error: " + e.getClass().getName() + (message != null ? ": " + message : "")
                + " (set CHAINFILTER_DEBUG=1 for the stack trace)";
    }

    private static boolean isUserError(Throwable e) {
        return e instanceof IllegalArgumentException
                || e instanceof IllegalStateException
                || e instanceof IOException
                || e instanceof ParameterException
                || e instanceof ArithmeticException;
    }

    private static String oneLine(String message) {
        return message == null ? "" : message.strip().replaceAll("\\s*\\R\\s*", "; ");
    }
}
