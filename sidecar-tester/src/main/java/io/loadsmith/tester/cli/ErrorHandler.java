package io.loadsmith.tester.cli;

import io.loadsmith.tester.agentclient.AdminException;
import io.loadsmith.tester.profile.ProfileException;
import io.loadsmith.tester.scenario.ScenarioException;
import io.loadsmith.tester.session.ReportOutOfMemoryException;
import io.loadsmith.tester.session.UnreachableException;
import java.net.ConnectException;
import java.nio.file.FileSystemException;
import java.net.http.HttpConnectTimeoutException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Maps what a command throws to an exit code and one readable line on stderr, never a bare stack trace:
 * bad scenario or input 2, an unreachable target or agent 3, a report the heap could not hold after the
 * results were written 4. An agent's {@link AdminException} is bad
 * input when the agent refused the request (400, 409, 413, 415) or the token (401, 403), else unreachable.
 * A file that cannot be written (a full disk) is 2, its line naming the file and the reason. Anything
 * unexpected is also 2, with its stack trace when {@code LOADSMITH_DEBUG=1}.
 */
final class ErrorHandler implements IExecutionExceptionHandler {

    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parseResult) {
        int code = exitCodeOf(ex);
        String message = ex.getMessage() == null ? ex.toString() : ex.getMessage();
        if (code == ExitCodes.BAD_INPUT && !(ex instanceof ScenarioException || ex instanceof BadInputException
                || ex instanceof ProfileException
                || ex instanceof AdminException)) {
            FileSystemException unwritable = unwritable(ex);
            message = "error: " + (unwritable != null ? unwritable.getMessage() : ex);
        }
        cmd.getErr().println(cmd.getColorScheme().errorText("loadsmith: " + message));
        if ("1".equals(System.getenv("LOADSMITH_DEBUG"))) {
            ex.printStackTrace(cmd.getErr());
        }
        return code;
    }

    /**
     * The file that could not be written (a full disk: {@code results/x/requests.bin: No space left on
     * device}) when that is why the command failed; null otherwise. Its exit code is 2, like a results
     * folder that cannot be used: the fix is the user's (free space, or another {@code --out}).
     */
    static FileSystemException unwritable(Throwable ex) {
        for (Throwable t = ex; t != null; t = t.getCause()) {
            if (t instanceof FileSystemException file && file.getFile() != null && file.getReason() != null) {
                return file;
            }
        }
        return null;
    }

    static int exitCodeOf(Throwable ex) {
        for (Throwable t = ex; t != null; t = t.getCause()) {
            if (t instanceof ReportOutOfMemoryException) {
                return ExitCodes.OUT_OF_MEMORY;
            }
            if (t instanceof ScenarioException || t instanceof BadInputException || t instanceof ProfileException) {
                return ExitCodes.BAD_INPUT;
            }
            if (t instanceof AdminException admin) {
                return admin.badInput() || admin.status() == 401 || admin.status() == 403
                        ? ExitCodes.BAD_INPUT : ExitCodes.UNREACHABLE;
            }
            if (t instanceof UnreachableException || t instanceof ConnectException
                    || t instanceof HttpConnectTimeoutException) {
                return ExitCodes.UNREACHABLE;
            }
        }
        return ExitCodes.BAD_INPUT;
    }
}
