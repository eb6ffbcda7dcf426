package io.loadsmith.tester.result;

/** A results.json that cannot be read: the message names the file and the line or the field's JSON path. */
public final class ResultsException extends IllegalArgumentException {

    ResultsException(String message, Throwable cause) {
        super(message, cause);
    }
}
