{{/*
Names, labels and the parts the API, the indexer and the migration Job share. The three run one image with one
configuration file; only the command differs (server, indexer, migrate).
*/}}

{{- define "profile-store.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The release's base name; with the default release name "profile-store" it is just that. */}}
{{- define "profile-store.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "profile-store.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels of every object; "component" is api, indexer, migrate, reconcile, check-tables or test. */}}
{{- define "profile-store.labels" -}}
helm.sh/chart: {{ include "profile-store.chart" .root }}
{{ include "profile-store.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Values.image.tag | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: profile-store
{{- end }}

{{- define "profile-store.selectorLabels" -}}
app.kubernetes.io/name: {{ include "profile-store.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- with .component }}
app.kubernetes.io/component: {{ . }}
{{- end }}
{{- end }}

{{- define "profile-store.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "profile-store.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* Pinned by values: a tag (required) and, when given, a digest that wins over it; required with requireDigest. */}}
{{- define "profile-store.image" -}}
{{- if and .Values.image.requireDigest (not .Values.image.digest) }}
{{- fail "image.requireDigest: set image.digest (sha256:...), the digest of the pushed image; a tag alone may name another image tomorrow" }}
{{- end }}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository .Values.image.tag }}
{{- end }}
{{- end }}

{{/* The two ports of the service's YAML (see _config.tpl); fixed, so that probes, Services and policy agree. */}}
{{- define "profile-store.httpPort" -}}8080{{- end }}
{{- define "profile-store.adminPort" -}}8081{{- end }}

{{/* The API port's name and protocol: https with tls on (meshes and proxies read the name), else http. */}}
{{- define "profile-store.apiPortName" -}}{{ ternary "https" "http" .Values.tls.enabled }}{{- end }}

{{- define "profile-store.configPath" -}}/config/profile-store.yml{{- end }}

{{/*
The java command line of one command (server, indexer, migrate): JVM options from values, the classpath and main
class of the image (Jib lays the service out so: /app/jib-classpath-file lists its jar and libraries), the command
and the configuration file. The image is built by `mvn package` (image/README.md); ImageIT runs this very line in it.
*/}}
{{- define "profile-store.command" -}}
command:
  - java
args:
  {{- range .root.Values.jvm.options }}
  - {{ . | quote }}
  {{- end }}
  - -cp
  - "@/app/jib-classpath-file"
  - io.profilestore.ProfileStoreApplication
  - {{ .command }}
  - {{ include "profile-store.configPath" .root }}
{{- end }}

{{/*
Where a backend's CA certificate (config.<backend>.tls.ca) is, relative to secrets.mountPath: the one path that
secretSources mounts it at and the tls block's caFile reads. The argument is the backend's name.
*/}}
{{- define "profile-store.caPath" -}}
{{ . }}-ca/ca.crt
{{- end }}

{{/*
Secrets are referenced, never rendered: each one the values name is projected as a file under
secrets.mountPath, and the configuration reads it there with ${file:...}. (dict "root" $ "migrate" bool): the
owners' and superusers' logins (postgresMigration, cassandraMigration) go to the migrate Job alone, never to a
serving pod or a CronJob. Every pod mounts each backend's CA (config.<backend>.tls.ca) at profile-store.caPath.
*/}}
{{- define "profile-store.secretSources" -}}
{{- $s := .root.Values.secrets }}
- secret:
    name: {{ $s.postgres.name }}
    items:
      - key: {{ $s.postgres.key }}
        path: postgres/password
{{- if and .migrate $s.postgresMigration.name }}
- secret:
    name: {{ $s.postgresMigration.name }}
    items:
      - key: {{ $s.postgresMigration.usernameKey }}
        path: postgres-migration/username
      - key: {{ $s.postgresMigration.passwordKey }}
        path: postgres-migration/password
{{- end }}
- secret:
    name: {{ $s.rabbitmq.name }}
    items:
      - key: {{ $s.rabbitmq.key }}
        path: rabbitmq/uri
{{- if $s.cassandra.name }}
- secret:
    name: {{ $s.cassandra.name }}
    items:
      - key: {{ $s.cassandra.usernameKey }}
        path: cassandra/username
      - key: {{ $s.cassandra.passwordKey }}
        path: cassandra/password
{{- end }}
{{- if and .migrate $s.cassandraMigration.name }}
- secret:
    name: {{ $s.cassandraMigration.name }}
    items:
      - key: {{ $s.cassandraMigration.usernameKey }}
        path: cassandra-migration/username
      - key: {{ $s.cassandraMigration.passwordKey }}
        path: cassandra-migration/password
{{- end }}
{{- if $s.elasticsearch.name }}
- secret:
    name: {{ $s.elasticsearch.name }}
    items:
      {{- if $s.elasticsearch.apiKeyKey }}
      - key: {{ $s.elasticsearch.apiKeyKey }}
        path: elasticsearch/api-key
      {{- else }}
      {{- if $s.elasticsearch.usernameKey }}
      - key: {{ $s.elasticsearch.usernameKey }}
        path: elasticsearch/username
      {{- end }}
      - key: {{ $s.elasticsearch.passwordKey }}
        path: elasticsearch/password
      {{- end }}
{{- end }}
{{- range $backend := list "cassandra" "elasticsearch" "postgres" "rabbitmq" }}
{{- with (index $.root.Values.config $backend).tls.ca }}
{{- if .secretName }}
- secret:
    name: {{ .secretName }}
    items:
      - key: {{ .key }}
        path: {{ include "profile-store.caPath" $backend }}
{{- end }}
{{- end }}
{{- end }}
{{- if $s.apiKeys.name }}
- secret:
    name: {{ $s.apiKeys.name }}
    items:
      - key: {{ $s.apiKeys.key }}
        path: api-keys/api-keys.yml
{{- end }}
{{- if $s.cursorKey.name }}
- secret:
    name: {{ $s.cursorKey.name }}
    items:
      - key: {{ $s.cursorKey.key }}
        path: search/cursor-key
{{- end }}
- secret:
    name: {{ $s.numberKeys.name }}
    items:
      - key: {{ $s.numberKeys.key }}
        path: search/number-keys
{{- with .root.Values.tls }}
{{- if .enabled }}
{{- /* every pod's configuration names the connectors' key store, so every pod mounts it and its password */}}
- secret:
    name: {{ .secretName }}
    items:
      - key: keystore.p12
        path: tls/keystore.p12
- secret:
    name: {{ .keystorePassword.name }}
    items:
      - key: {{ .keystorePassword.key }}
        path: tls/keystore-password
{{- end }}
{{- end }}
{{- end }}

{{/*
Volumes of every pod: the configuration, the secrets, and a writable /tmp (the root file system is read-only).
(dict "root" $ "configMap" name "migrate" bool): migrate's pod alone gets the migration logins.
*/}}
{{- define "profile-store.volumes" -}}
- name: config
  configMap:
    name: {{ .configMap }}
- name: secrets
  projected:
    defaultMode: 0440
    sources:
      {{- include "profile-store.secretSources" (dict "root" .root "migrate" .migrate) | nindent 6 }}
- name: tmp
  emptyDir:
    sizeLimit: 256Mi
{{- end }}

{{- define "profile-store.volumeMounts" -}}
- name: config
  mountPath: /config
  readOnly: true
- name: secrets
  mountPath: {{ .Values.secrets.mountPath }}
  readOnly: true
- name: tmp
  mountPath: /tmp
{{- end }}

{{/*
Probes, all on the admin port. Liveness asks /ping (the JVM and Jetty answer): a backing service that is down
must not restart every pod, since a restart cures nothing and the service answers 503s with Retry-After by itself.
Readiness asks the health checks as this pod sees its part (/ready by default, see values).
*/}}
{{- define "profile-store.probes" -}}
{{- $p := .Values.probes }}
{{- /* the kubelet does not check the certificate of an HTTPS probe */}}
{{- $scheme := ternary "HTTPS" "HTTP" .Values.tls.enabled }}
startupProbe:
  httpGet:
    path: {{ $p.startup.path }}
    port: admin
    scheme: {{ $scheme }}
  periodSeconds: {{ $p.startup.periodSeconds }}
  failureThreshold: {{ $p.startup.failureThreshold }}
livenessProbe:
  httpGet:
    path: {{ $p.liveness.path }}
    port: admin
    scheme: {{ $scheme }}
  periodSeconds: {{ $p.liveness.periodSeconds }}
  timeoutSeconds: {{ $p.liveness.timeoutSeconds }}
  failureThreshold: {{ $p.liveness.failureThreshold }}
readinessProbe:
  httpGet:
    path: {{ $p.readiness.path }}
    port: admin
    scheme: {{ $scheme }}
  periodSeconds: {{ $p.readiness.periodSeconds }}
  timeoutSeconds: {{ $p.readiness.timeoutSeconds }}
  failureThreshold: {{ $p.readiness.failureThreshold }}
{{- end }}

{{/*
Spread replicas over zones and nodes. matchLabelKeys counts the pods of the current ReplicaSet only, so a rollout
is not skewed by the pods it replaces.
*/}}
{{- define "profile-store.topologySpread" -}}
{{- $spread := .values.topologySpread }}
{{- if $spread.enabled }}
topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: topology.kubernetes.io/zone
    whenUnsatisfiable: ScheduleAnyway
    labelSelector:
      matchLabels:
        {{- include "profile-store.selectorLabels" (dict "root" .root "component" .component) | nindent 8 }}
    matchLabelKeys:
      - pod-template-hash
  - maxSkew: 1
    topologyKey: kubernetes.io/hostname
    whenUnsatisfiable: {{ $spread.nodes }}
    labelSelector:
      matchLabels:
        {{- include "profile-store.selectorLabels" (dict "root" .root "component" .component) | nindent 8 }}
    matchLabelKeys:
      - pod-template-hash
{{- end }}
{{- end }}
