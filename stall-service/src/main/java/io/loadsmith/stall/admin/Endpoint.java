package io.loadsmith.stall.admin;

import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;

/**
 * One call of the admin API, once {@link AdminRouter} has authorised it and checked its method. Used by
 * the server's workers concurrently.
 */
interface Endpoint {

    /**
     * Answers the call.
     *
     * @throws AdminError  a refusal, which the router answers with its status and {@code {"error": ...}}
     * @throws IOException the client went away
     */
    void answer(HttpExchange exchange) throws IOException, AdminError;
}
