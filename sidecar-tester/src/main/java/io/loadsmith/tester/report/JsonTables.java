package io.loadsmith.tester.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parts of the results whose shape is not fixed yet (an experiment's sweep and windows), shown as they are:
 * objects as key-value tables, lists of objects as tables with a column per key, lists of values inline.
 */
final class JsonTables {
    private JsonTables() {}

    /** Appends {@code node} under the heading {@code title}; nothing for null. */
    static void appendTo(StringBuilder b, String title, JsonNode node) {
        if (node == null) {
            return;
        }
        b.append("<h3>").append(Html.esc(title)).append("</h3>\n");
        value(b, node);
        b.append("\n");
    }

    private static void value(StringBuilder b, JsonNode node) {
        if (node == null || node.isNull()) {
            b.append(Html.NONE);
        } else if (node.isValueNode()) {
            b.append(Html.esc(node.asText()));
        } else if (node.isObject()) {
            object(b, node);
        } else {
            list(b, node);
        }
    }

    private static void object(StringBuilder b, JsonNode node) {
        b.append("<table class=\"kvtable\"><tbody>");
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            b.append("<tr><th>").append(Html.esc(e.getKey())).append("</th><td>");
            value(b, e.getValue());
            b.append("</td></tr>");
        }
        b.append("</tbody></table>");
    }

    private static void list(StringBuilder b, JsonNode node) {
        boolean scalars = true;
        boolean objects = node.size() > 0;
        for (JsonNode item : node) {
            scalars &= item.isValueNode() || item.isNull();
            objects &= item.isObject();
        }
        if (scalars) {
            List<String> items = new ArrayList<>();
            node.forEach(item -> items.add(item.isNull() ? Html.NONE : Html.esc(item.asText())));
            b.append(String.join(", ", items));
        } else if (objects) {
            Set<String> columns = new LinkedHashSet<>();
            node.forEach(item -> item.fieldNames().forEachRemaining(columns::add));
            b.append("<div class=\"scroll\"><table class=\"listtable\"><thead><tr>");
            columns.forEach(c -> b.append("<th>").append(Html.esc(c)).append("</th>"));
            b.append("</tr></thead><tbody>");
            for (JsonNode item : node) {
                b.append("<tr>");
                for (String c : columns) {
                    b.append("<td>");
                    value(b, item.get(c));
                    b.append("</td>");
                }
                b.append("</tr>");
            }
            b.append("</tbody></table></div>");
        } else {
            b.append("<pre>").append(Html.esc(node.toPrettyString())).append("</pre>");
        }
    }
}
