package io.loadsmith.tester.report;

import java.util.Locale;

/**
 * Escaping, number formatting and the small elements every section of the page writes alike; every text
 * that reaches the HTML goes through {@link #esc}.
 */
final class Html {
    static final String NONE = "\u2014";

    private Html() {}

    static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /** Milliseconds with about three significant digits: 0.0123, 1.23, 12.3, 123, 12345. */
    static String ms(Double v) {
        if (v == null || v.isNaN()) {
            return NONE;
        }
        double a = Math.abs(v);
        String pattern = a == 0 ? "%.0f" : a < 0.1 ? "%.4f" : a < 1 ? "%.3f" : a < 10 ? "%.2f" : a < 100 ? "%.1f" : "%.0f";
        return String.format(Locale.ROOT, pattern, v);
    }

    /** Up to four decimals without trailing zeros, for settings such as thresholds: 10, 0.5, 14.65. */
    static String msShort(Double v) {
        if (v == null || v.isNaN()) {
            return NONE;
        }
        return java.math.BigDecimal.valueOf(v).setScale(4, java.math.RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }

    static String count(Long v) {
        return v == null ? NONE : String.format(Locale.ROOT, "%,d", v);
    }

    static String number(Double v, int decimals) {
        return v == null || v.isNaN() ? NONE : String.format(Locale.ROOT, "%,." + decimals + "f", v);
    }

    static String percent(double share) {
        return String.format(Locale.ROOT, share < 0.001 && share > 0 ? "%.3f%%" : "%.1f%%", share * 100);
    }

    static String yesNo(Boolean b) {
        return b == null ? NONE : b ? "yes" : "no";
    }

    static String td(String html) {
        return "<td>" + html + "</td>";
    }

    /** A cell spanning {@code span} (an attribute such as {@code  rowspan="2"}, or ""), with a class unless null. */
    static String tdSpan(String span, String html, String cls) {
        return "<td" + span + (cls == null ? "" : " class=\"" + cls + "\"") + ">" + html + "</td>";
    }

    /** A badge: {@code cls} is its colour (pass, fail, on, off, ...), {@code html} its text. */
    static String badge(String cls, String html) {
        return "<span class=\"badge " + cls + "\">" + html + "</span>";
    }

    /** "1 stall", "3 stalls". */
    static String plural(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
