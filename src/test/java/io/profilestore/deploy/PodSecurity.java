package io.profilestore.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Kubernetes' Pod Security Standards (v1.32, kubernetes.io/docs/concepts/security/pod-security-standards) read against
 * a pod spec, as Pod Security Admission reads it: the violations of a level, each naming its control and where.
 * Restricted includes every control of baseline. Containers are the pod's containers, init containers and ephemeral
 * containers alike.
 */
final class PodSecurity {

    enum Level { BASELINE, RESTRICTED }

    /** Capabilities baseline lets a container add. */
    static final Set<String> BASELINE_CAPABILITIES = Set.of("AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID",
            "KILL", "MKNOD", "NET_BIND_SERVICE", "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT");
    /** Sysctls baseline allows. */
    static final Set<String> SAFE_SYSCTLS = Set.of("kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range",
            "net.ipv4.ip_unprivileged_port_start", "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range",
            "net.ipv4.ip_local_reserved_ports", "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout",
            "net.ipv4.tcp_keepalive_intvl", "net.ipv4.tcp_keepalive_probes");
    static final Set<String> SELINUX_TYPES = Set.of("", "container_t", "container_init_t", "container_kvm_t",
            "container_engine_t");
    /** Volume types restricted allows. */
    static final Set<String> RESTRICTED_VOLUMES = Set.of("configMap", "csi", "downwardAPI", "emptyDir", "ephemeral",
            "persistentVolumeClaim", "projected", "secret");

    private PodSecurity() {
    }

    /** The violations of {@code level} in a pod spec (a Pod's spec, or a template's). Empty: the pod is admitted. */
    static List<String> violations(JsonNode pod, Level level) {
        var found = new ArrayList<String>();
        var podContext = pod.path("securityContext");
        var containers = containers(pod);

        // baseline
        for (var host : List.of("hostNetwork", "hostPID", "hostIPC")) {
            if (pod.path(host).asBoolean(false)) {
                found.add("host namespaces: " + host);
            }
        }
        if (podContext.path("windowsOptions").path("hostProcess").asBoolean(false)) {
            found.add("HostProcess: pod");
        }
        for (var volume : pod.path("volumes")) {
            if (volume.has("hostPath")) {
                found.add("hostPath volume: " + volume.path("name").asText());
            }
        }
        checkContext(podContext, "pod", found);
        for (var sysctl : podContext.path("sysctls")) {
            if (!SAFE_SYSCTLS.contains(sysctl.path("name").asText())) {
                found.add("sysctl: " + sysctl.path("name").asText());
            }
        }
        for (var container : containers) {
            var name = container.path("name").asText();
            var context = container.path("securityContext");
            if (context.path("privileged").asBoolean(false)) {
                found.add("privileged: " + name);
            }
            if (context.path("windowsOptions").path("hostProcess").asBoolean(false)) {
                found.add("HostProcess: " + name);
            }
            for (var capability : context.path("capabilities").path("add")) {
                if (!BASELINE_CAPABILITIES.contains(capability.asText())) {
                    found.add("capability added: " + capability.asText() + " in " + name);
                }
            }
            for (var port : container.path("ports")) {
                if (port.path("hostPort").asInt(0) != 0) {
                    found.add("hostPort: " + name);
                }
            }
            if (!context.path("procMount").asText("Default").equals("Default")) {
                found.add("procMount: " + name);
            }
            checkContext(context, name, found);
        }
        if (level == Level.BASELINE) {
            return found;
        }

        // restricted
        for (var volume : pod.path("volumes")) {
            var types = new ArrayList<String>();
            volume.fieldNames().forEachRemaining(types::add);
            types.remove("name");
            if (!RESTRICTED_VOLUMES.containsAll(types)) {
                found.add("volume type " + types + ": " + volume.path("name").asText());
            }
        }
        boolean podNonRoot = podContext.path("runAsNonRoot").asBoolean(false);
        boolean podSeccomp = allowedSeccomp(podContext);
        if (podContext.path("runAsUser").isInt() && podContext.path("runAsUser").asInt() == 0) {
            found.add("runAsUser 0: pod");
        }
        for (var container : containers) {
            var name = container.path("name").asText();
            var context = container.path("securityContext");
            if (!(context.path("allowPrivilegeEscalation").isBoolean() && !context.path("allowPrivilegeEscalation").asBoolean())) {
                found.add("allowPrivilegeEscalation not false: " + name);
            }
            var nonRoot = context.path("runAsNonRoot");
            if (nonRoot.isBoolean() ? !nonRoot.asBoolean() : !podNonRoot) {
                found.add("runAsNonRoot not true: " + name);
            }
            if (context.path("runAsUser").isInt() && context.path("runAsUser").asInt() == 0) {
                found.add("runAsUser 0: " + name);
            }
            if (!podSeccomp && !allowedSeccomp(context)) {
                found.add("seccompProfile not RuntimeDefault or Localhost: " + name);
            }
            var drop = new ArrayList<String>();
            context.path("capabilities").path("drop").forEach(c -> drop.add(c.asText()));
            if (!drop.contains("ALL")) {
                found.add("capabilities not dropping ALL: " + name);
            }
            for (var capability : context.path("capabilities").path("add")) {
                if (!capability.asText().equals("NET_BIND_SERVICE")) {
                    found.add("capability added beyond NET_BIND_SERVICE: " + capability.asText() + " in " + name);
                }
            }
        }
        return found;
    }

    /** Seccomp, AppArmor and SELinux of a pod's or a container's security context, as baseline allows them. */
    private static void checkContext(JsonNode context, String where, List<String> found) {
        if (context.path("seccompProfile").path("type").asText().equals("Unconfined")) {
            found.add("seccompProfile Unconfined: " + where);
        }
        if (context.path("appArmorProfile").path("type").asText().equals("Unconfined")) {
            found.add("appArmorProfile Unconfined: " + where);
        }
        var selinux = context.path("seLinuxOptions");
        if (!SELINUX_TYPES.contains(selinux.path("type").asText(""))) {
            found.add("seLinuxOptions type: " + where);
        }
        if (!selinux.path("user").asText("").isEmpty() || !selinux.path("role").asText("").isEmpty()) {
            found.add("seLinuxOptions user or role: " + where);
        }
    }

    private static boolean allowedSeccomp(JsonNode context) {
        var type = context.path("seccompProfile").path("type").asText();
        return type.equals("RuntimeDefault") || type.equals("Localhost");
    }

    private static List<JsonNode> containers(JsonNode pod) {
        var containers = new ArrayList<JsonNode>();
        for (var kind : List.of("initContainers", "containers", "ephemeralContainers")) {
            pod.path(kind).forEach(containers::add);
        }
        return containers;
    }
}
