package io.profilestore.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a set of rendered NetworkPolicies admits, read the way Kubernetes reads them: a pod no policy selects admits
 * everything; a selected pod admits what the union of its policies' ingress rules admits. A rule without `from`
 * admits every source, one without `ports` every port; a peer with only a podSelector means pods of the policy's
 * namespace, with only a namespaceSelector every pod of those namespaces, with both the matching pods there.
 * Namespaces are known by the label Kubernetes gives each, kubernetes.io/metadata.name. Only numeric TCP ports are
 * modelled (a named port fails the test that meets it). Egress is read the same way from the other side: a pod that
 * no policy of type Egress selects may connect anywhere; a selected pod only where its policies' egress rules say (`to`
 * for `from`). An ipBlock is taken to name addresses outside the cluster, as Kubernetes means it: it reaches no pod
 * here, and {@link #sendsToAnyPod} counts only the blocks of every address as reaching any pod.
 */
final class NetworkPolicies {

    /** In a set of admitted ports: every port. */
    static final int ANY_PORT = -1;

    private NetworkPolicies() {
    }

    /** A pod as a policy sees it: its namespace and labels. */
    record Pod(String namespace, Map<String, String> labels) {
    }

    /** The policies of {@code policies} that select {@code pod}. */
    static List<JsonNode> selecting(List<JsonNode> policies, Pod pod) {
        return policies.stream()
                .filter(p -> pod.namespace().equals(p.path("metadata").path("namespace").asText()))
                .filter(p -> selects(p.path("spec").path("podSelector"), pod.labels()))
                .toList();
    }

    /**
     * The TCP ports on which {@code target} admits connections from {@code source}: {@link #ANY_PORT} alone when no
     * policy selects the target, or a rule admits the source on every port.
     */
    static Set<Integer> admitted(List<JsonNode> policies, Pod target, Pod source) {
        var selecting = selecting(policies, target);
        var ports = new TreeSet<Integer>();
        if (selecting.isEmpty()) {
            ports.add(ANY_PORT);
            return ports;
        }
        for (var policy : selecting) {
            for (var rule : policy.path("spec").path("ingress")) {
                if (admitsSource(rule, target.namespace(), source)) {
                    ports.addAll(ports(rule));
                }
            }
        }
        return ports;
    }

    /**
     * The TCP ports on which {@code source} may connect to {@code target}: {@link #ANY_PORT} alone when no policy of
     * type Egress selects the source, or a rule lets it reach the target on every port.
     */
    static Set<Integer> reachable(List<JsonNode> policies, Pod source, Pod target) {
        var selecting = selecting(policies, source).stream()
                .filter(NetworkPolicies::limitsEgress)
                .toList();
        var ports = new TreeSet<Integer>();
        if (selecting.isEmpty()) {
            ports.add(ANY_PORT);
            return ports;
        }
        for (var policy : selecting) {
            var namespace = policy.path("metadata").path("namespace").asText();
            for (var rule : policy.path("spec").path("egress")) {
                if (matchesPeer(rule.path("to"), namespace, target)) {
                    ports.addAll(ports(rule));
                }
            }
        }
        return ports;
    }

    /**
     * An egress rule that reaches any pod at all: no `to`, a peer of every pod (as {@link #admitsAnyPod} reads a
     * `from`), or an ipBlock of every address.
     */
    static boolean sendsToAnyPod(JsonNode rule) {
        if (rule.path("to").isEmpty()) {
            return true;
        }
        for (var peer : rule.path("to")) {
            if (peer.has("ipBlock")) {
                var cidr = peer.path("ipBlock").path("cidr").asText();
                if (cidr.equals("0.0.0.0/0") || cidr.equals("::/0")) {
                    return true;
                }
                continue;
            }
            var pods = peer.path("podSelector");
            var namespaces = peer.path("namespaceSelector");
            if ((pods.isMissingNode() || isEmptySelector(pods)) && (namespaces.isMissingNode() || isEmptySelector(namespaces))) {
                return true;
            }
        }
        return false;
    }

    /** Policies as rendered for a namespace: each without a namespace of its own gets {@code namespace}. */
    static List<JsonNode> inNamespace(List<JsonNode> policies, String namespace) {
        return policies.stream().map(p -> {
            if (!p.path("metadata").path("namespace").asText().isEmpty()) {
                return p;
            }
            JsonNode copy = p.deepCopy();
            ((ObjectNode) copy.path("metadata")).put("namespace", namespace);
            return copy;
        }).toList();
    }

    /**
     * A rule that admits any pod at all, of the policy's namespace or of every namespace: no `from`, an ipBlock (pod
     * addresses are in some block), or a peer whose pod selector is empty while its namespace selector is missing or
     * empty. A peer of all pods in named namespaces (an operator's, monitoring) is not one.
     */
    static boolean admitsAnyPod(JsonNode rule) {
        if (rule.path("from").isEmpty()) {
            return true;
        }
        for (var peer : rule.path("from")) {
            if (peer.has("ipBlock")) {
                return true;
            }
            var pods = peer.path("podSelector");
            var namespaces = peer.path("namespaceSelector");
            boolean anyPod = pods.isMissingNode() || isEmptySelector(pods);
            boolean anyNamespace = namespaces.isMissingNode() || isEmptySelector(namespaces);
            if (anyPod && anyNamespace) {
                return true;
            }
        }
        return false;
    }

    static Map<String, String> namespaceLabels(String namespace) {
        return Map.of("kubernetes.io/metadata.name", namespace);
    }

    static Map<String, String> labels(JsonNode matchLabels) {
        var labels = new LinkedHashMap<String, String>();
        matchLabels.fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
        return labels;
    }

    private static boolean admitsSource(JsonNode rule, String policyNamespace, Pod source) {
        return matchesPeer(rule.path("from"), policyNamespace, source);
    }

    /** Whether a rule's peers (its `from` or `to`) take in {@code pod}; no peers take in every pod. */
    private static boolean matchesPeer(JsonNode peers, String policyNamespace, Pod source) {
        if (peers.isEmpty()) {
            return true;
        }
        for (var peer : peers) {
            if (peer.has("ipBlock")) {
                continue;
            }
            var namespaces = peer.path("namespaceSelector");
            boolean inNamespace = namespaces.isMissingNode()
                    ? source.namespace().equals(policyNamespace)
                    : selects(namespaces, namespaceLabels(source.namespace()));
            var pods = peer.path("podSelector");
            boolean isPod = pods.isMissingNode() || selects(pods, source.labels());
            if (inNamespace && isPod) {
                return true;
            }
        }
        return false;
    }

    private static Set<Integer> ports(JsonNode rule) {
        var ports = new TreeSet<Integer>();
        if (rule.path("ports").isEmpty()) {
            ports.add(ANY_PORT);
            return ports;
        }
        for (var port : rule.path("ports")) {
            if (!port.path("protocol").asText("TCP").equals("TCP")) {
                continue;
            }
            if (!port.has("port")) {
                ports.add(ANY_PORT);
                continue;
            }
            if (!port.path("port").isInt()) {
                throw new AssertionError("a named port, which this model does not resolve: " + port);
            }
            int first = port.path("port").asInt();
            int last = port.path("endPort").asInt(first);
            for (int p = first; p <= last; p++) {
                ports.add(p);
            }
        }
        return ports;
    }

    /** A label selector (matchLabels and matchExpressions) applied to labels; an empty selector selects all. */
    static boolean selects(JsonNode selector, Map<String, String> labels) {
        var matchLabels = selector.path("matchLabels");
        for (var e : labels(matchLabels).entrySet()) {
            if (!e.getValue().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        for (var expression : selector.path("matchExpressions")) {
            var key = expression.path("key").asText();
            var values = new TreeSet<String>();
            expression.path("values").forEach(v -> values.add(v.asText()));
            boolean matches = switch (expression.path("operator").asText()) {
                case "In" -> labels.containsKey(key) && values.contains(labels.get(key));
                case "NotIn" -> !labels.containsKey(key) || !values.contains(labels.get(key));
                case "Exists" -> labels.containsKey(key);
                case "DoesNotExist" -> !labels.containsKey(key);
                default -> throw new AssertionError("unknown selector operator in " + expression);
            };
            if (!matches) {
                return false;
            }
        }
        return true;
    }

    /** A policy of type Egress: so named, or (policyTypes left out) one with egress rules, as Kubernetes defaults it. */
    private static boolean limitsEgress(JsonNode policy) {
        var types = policy.path("spec").path("policyTypes");
        if (types.isMissingNode()) {
            return policy.path("spec").has("egress");
        }
        var texts = new TreeSet<String>();
        types.forEach(t -> texts.add(t.asText()));
        return texts.contains("Egress");
    }

    private static boolean isEmptySelector(JsonNode selector) {
        return selector.path("matchLabels").isEmpty() && selector.path("matchExpressions").isEmpty();
    }
}
