package io.loadsmith.stall.admin;

import java.nio.charset.StandardCharsets;

/**
 * Prometheus' text exposition format (0.0.4): each metric as its {@code # HELP} and {@code # TYPE} lines,
 * then its samples. Names, help texts and label values are the caller's constants, written as given
 * (nothing here escapes them). Not thread-safe: one per answer.
 */
final class PrometheusText {

    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final StringBuilder text = new StringBuilder(1024);

    /** A metric of one unlabelled sample. */
    PrometheusText metric(String name, String type, String help, String value) {
        return header(name, type, help).sample(name, "", value);
    }

    /** The {@code # HELP} and {@code # TYPE} lines of a metric whose samples follow. */
    PrometheusText header(String name, String type, String help) {
        text.append("# HELP ").append(name).append(' ').append(help).append('\n');
        text.append("# TYPE ").append(name).append(' ').append(type).append('\n');
        return this;
    }

    /** One sample; {@code labels} is empty or as written, {@code {name="value"}} ({@link #label}). */
    PrometheusText sample(String name, String labels, String value) {
        text.append(name).append(labels).append(' ').append(value).append('\n');
        return this;
    }

    static String label(String name, String value) {
        return "{" + name + "=\"" + value + "\"}";
    }

    static String seconds(long nanos) {
        return Double.toString(nanos / 1e9);
    }

    static String flag(boolean on) {
        return on ? "1" : "0";
    }

    byte[] bytes() {
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }
}
