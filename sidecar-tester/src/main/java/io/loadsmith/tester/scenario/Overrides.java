package io.loadsmith.tester.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * The {@code --set key=value} overrides of a scenario, applied to its node tree before it is read, so that an
 * overridden value is checked like one in the file; its errors name the override ({@code --set load.rate=x}).
 */
final class Overrides {
    private static final Pattern SET = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*(?:\\[[0-9]+\\])?(?:\\.[A-Za-z_][A-Za-z0-9_]*(?:\\[[0-9]+\\])?)*)=(.*)",
            Pattern.DOTALL);

    private Overrides() {}

    /**
     * Sets the value of one {@code key=value} override in the tree under {@code root}, making the mappings on
     * its path that are missing; a list item ({@code load.stages[1].target}) must exist.
     *
     * @throws ScenarioException naming the override when it is not key=value or its path cannot be set
     */
    static void apply(Node root, String override) {
        Matcher m = SET.matcher(override);
        if (!m.matches()) {
            throw new ScenarioException("--set " + override + ": write it as key=value, e.g. --set load.rate=800");
        }
        String key = m.group(1);
        String source = "--set " + override;
        Node value = Field.compose(m.group(2), source)
                .orElseGet(() -> new ScalarNode(Tag.NULL, true, "", ScalarStyle.PLAIN, markOf(source), markOf(source)));
        String[] segments = key.split("\\.");
        Node current = root;
        StringBuilder path = new StringBuilder();
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            int index = -1;
            int bracket = segment.indexOf('[');
            if (bracket >= 0) {
                index = Integer.parseInt(segment.substring(bracket + 1, segment.length() - 1));
                segment = segment.substring(0, bracket);
            }
            path.append(path.length() == 0 ? "" : ".").append(segment);
            if (!(current instanceof MappingNode mapping)) {
                throw new ScenarioException(source + ": " + path + " cannot be set: its parent is not a mapping");
            }
            boolean last = i == segments.length - 1 && index < 0;
            NodeTuple found = null;
            for (NodeTuple tuple : mapping.getValue()) {
                if (tuple.getKeyNode() instanceof ScalarNode s && s.getValue().equals(segment)) {
                    found = tuple;
                }
            }
            List<NodeTuple> tuples = new ArrayList<>(mapping.getValue());
            ScalarNode keyNode = new ScalarNode(Tag.STR, true, segment, ScalarStyle.PLAIN, markOf(source), markOf(source));
            if (last) {
                if (found != null) {
                    tuples.set(tuples.indexOf(found), new NodeTuple(found.getKeyNode(), value));
                } else {
                    tuples.add(new NodeTuple(keyNode, value));
                }
                mapping.setValue(tuples);
                return;
            }
            Node next;
            if (found == null) {
                if (index >= 0) {
                    throw new ScenarioException(source + ": " + path + " has no item " + index);
                }
                next = new MappingNode(Tag.MAP, true, new ArrayList<>(), FlowStyle.BLOCK, markOf(source), markOf(source));
                tuples.add(new NodeTuple(keyNode, next));
                mapping.setValue(tuples);
            } else {
                next = found.getValueNode();
            }
            if (index >= 0) {
                if (!(next instanceof SequenceNode seq) || index >= seq.getValue().size()) {
                    throw new ScenarioException(source + ": " + path + " has no item " + index);
                }
                path.append('[').append(index).append(']');
                if (i == segments.length - 1) {
                    seq.getValue().set(index, value);
                    return;
                }
                next = seq.getValue().get(index);
            }
            current = next;
        }
    }

    private static Optional<Mark> markOf(String source) {
        return Optional.of(new Mark(source, 0, 0, 0, new int[0], 0));
    }
}
