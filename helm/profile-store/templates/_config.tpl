{{/*
The service's YAML (profile-store.yml), rendered from values. It has the shape of src/main/resources/profile-store.yml
and is loaded by the same code: the chart's tests load every rendering with the service's configuration loader and
run its `check` command, so the two cannot drift apart. Settings the values do not expose keep the service's own
defaults. Secrets are never written here: ${file:...} reads the files that the pod mounts from Secrets, and each such
value is a literal block scalar (|-), so that no character of a password can break the YAML. With "migrate" set (the
migrate Job's configuration), the migration logins are added; no other configuration names them.
*/}}
{{- define "profile-store.config" -}}
{{- $c := .Values.config -}}
{{- $secrets := .Values.secrets.mountPath -}}
server:
  applicationConnectors:
    {{- include "profile-store.connector" (dict "root" . "port" (include "profile-store.httpPort" .)) | nindent 4 }}
  adminConnectors:
    {{- include "profile-store.connector" (dict "root" . "port" (include "profile-store.adminPort" .)) | nindent 4 }}
  shutdownGracePeriod: {{ $c.shutdownGracePeriod }}
  # request logs without query strings or matrix parameters: a search's parameters are personal data (they are in
  # the audit trail), and a URI may carry a credential (refused, but logged all the same)
  requestLog:
    appenders:
      - type: console
        target: stdout
        logFormat: '%h %l [%t] "%m %reqAttribute{loggedPath} %H" %s %b %D'
  registerDefaultExceptionMappers: false
  # threads are not renamed after the request's URL: a thread dump would show live search terms
  enableThreadNameFilter: false
  # answers smaller than a packet go uncompressed: deflating a profile (about 500 bytes) saves nothing on the wire,
  # and it was a tenth of the request threads' CPU in a profile of a GET run; larger answers are still compressed
  gzip:
    minimumEntitySize: 1400B

logging:
  level: {{ $c.logLevel }}
  loggers:
    com.datastax.oss.driver: WARN
    org.flywaydb: WARN
    org.cognitor.cassandra.migration: WARN
    org.elasticsearch.client: WARN
  appenders:
    - type: console
      target: stdout

auth:
  enabled: {{ $c.auth.enabled }}
  apiKeysForPeople: {{ $c.auth.apiKeysForPeople }}
  # the keys file, a key set file and the API's key store are read again this soon after they change (a Secret's
  # mounted files change about a minute after the Secret: no restart, no roll)
  reloadEvery: {{ $c.auth.reloadEvery }}
  {{- if .Values.secrets.apiKeys.name }}
  apiKeysFile: {{ printf "%s/api-keys/api-keys.yml" $secrets }}
  {{- end }}
  {{- with $c.auth.jwt }}
  {{- if .jwksUrl }}
  jwt:
    jwksUrl: {{ .jwksUrl | quote }}
    issuer: {{ .issuer | quote }}
    audience: {{ .audience | quote }}
    rolesClaim: {{ .rolesClaim | quote }}
    machineClients: {{ .machineClients | default list | toJson }}
    tokenTypes: {{ .tokenTypes | toJson }}
    maxTokenLifetime: {{ .maxTokenLifetime }}
    clockSkew: {{ .clockSkew }}
  {{- end }}
  {{- end }}

console:
  enabled: {{ $c.console.enabled }}
  {{- with $c.console.oidc }}
  {{- if .clientId }}
  oidc:
    authorizationEndpoint: {{ .authorizationEndpoint | quote }}
    tokenEndpoint: {{ .tokenEndpoint | quote }}
    clientId: {{ .clientId | quote }}
    scope: {{ .scope | quote }}
  {{- end }}
  {{- end }}

profiles:
  lockLease: {{ $c.profiles.lockLease }}

history:
  retention: {{ $c.history.retention }}

audit:
  retention: {{ $c.audit.retention }}

changeStream:
  queue: {{ $c.changeStream.queue | quote }}
  maxAge: {{ $c.changeStream.maxAge | quote }}
  maxBytes: {{ $c.changeStream.maxBytes | int64 }}
  source: {{ $c.changeStream.source | quote }}
  includeValues: {{ $c.changeStream.includeValues }}
{{- with $c.limits }}

limits:
  {{- toYaml . | nindent 2 }}
{{- end }}

{{- if .Values.cronJobs.checkTables.enabled }}

users:
  # check-tables runs as the chart's CronJob, whose outcome Kubernetes records; the API's own schedule of it is off
  checkTablesEvery: 0s
{{- end }}


search:
{{- if .Values.secrets.cursorKey.name }}
  cursorKey: |-
    ${file:{{ $secrets }}/search/cursor-key}
{{- end }}
  # phones, document numbers and e-mails reach the index as hashes under these keys (docs/security.md)
  numberKeys: |-
    ${file:{{ $secrets }}/search/number-keys}

indexer:
  # production runs the indexer as a deployment of its own
  inProcess: false
  prefetch: {{ $c.indexer.prefetch }}
  batchSize: {{ $c.indexer.batchSize }}
  linger: {{ $c.indexer.linger }}
  relayInterval: {{ $c.indexer.relayInterval }}
  relayLinger: {{ $c.indexer.relayLinger }}
  outboxRetention: {{ $c.indexer.outboxRetention }}

cassandra:
  contactPoints:
    {{- range $c.cassandra.contactPoints }}
    - {{ . | quote }}
    {{- end }}
  localDatacenter: {{ $c.cassandra.localDatacenter | quote }}
  keyspace: {{ $c.cassandra.keyspace }}
  requestTimeout: {{ $c.cassandra.requestTimeout }}
  {{- if .Values.secrets.cassandra.name }}
  username: |-
    ${file:{{ $secrets }}/cassandra/username}
  password: |-
    ${file:{{ $secrets }}/cassandra/password}
  {{- end }}
  {{- if and .migrate .Values.secrets.cassandraMigration.name }}
  # migrate only: a superuser creates the keyspace, the tables and the role above, with reads and writes on the keyspace
  migrationUsername: |-
    ${file:{{ $secrets }}/cassandra-migration/username}
  migrationPassword: |-
    ${file:{{ $secrets }}/cassandra-migration/password}
  {{- end }}
  {{- include "profile-store.tls" (dict "tls" $c.cassandra.tls "backend" "cassandra" "secrets" $secrets) | nindent 2 }}
  # applied when `migrate` creates the keyspace; an existing keyspace keeps its replication
  replication:
    strategy: {{ $c.cassandra.replication.strategy }}
    replicationFactor: {{ $c.cassandra.replication.factor }}
    dataCenters:
      {{ $c.cassandra.localDatacenter | quote }}: {{ $c.cassandra.replication.factor }}

elasticsearch:
  hosts:
    {{- range $c.elasticsearch.hosts }}
    - {{ . | quote }}
    {{- end }}
  indexAlias: {{ $c.elasticsearch.indexAlias }}
  requestTimeout: {{ $c.elasticsearch.requestTimeout }}
  {{- with .Values.secrets.elasticsearch }}
  {{- if and .name .apiKeyKey }}
  apiKey: |-
    ${file:{{ $secrets }}/elasticsearch/api-key}
  {{- else if .name }}
  {{- if .usernameKey }}
  username: |-
    ${file:{{ $secrets }}/elasticsearch/username}
  {{- else }}
  username: {{ $c.elasticsearch.username | quote }}
  {{- end }}
  password: |-
    ${file:{{ $secrets }}/elasticsearch/password}
  {{- end }}
  {{- end }}
  {{- include "profile-store.tls" (dict "tls" $c.elasticsearch.tls "backend" "elasticsearch" "secrets" $secrets) | nindent 2 }}
  # laid over the settings of es-mappings/profiles.json when `migrate` creates the index; the refresh interval on
  # the index in use too
  index:
    shards: {{ $c.elasticsearch.index.shards }}
    replicas: {{ $c.elasticsearch.index.replicas }}
    refreshInterval: {{ $c.elasticsearch.index.refreshInterval }}

postgres:
  url: {{ $c.postgres.url | quote }}
  user: {{ $c.postgres.user | quote }}
  password: |-
    ${file:{{ $secrets }}/postgres/password}
  {{- if and .migrate .Values.secrets.postgresMigration.name }}
  # migrate only: the tables' owner applies the schema and grants the user above what it needs
  migrationUser: |-
    ${file:{{ $secrets }}/postgres-migration/username}
  migrationPassword: |-
    ${file:{{ $secrets }}/postgres-migration/password}
  {{- end }}
  maxPoolSize: {{ $c.postgres.maxPoolSize }}
  {{- include "profile-store.tls" (dict "tls" $c.postgres.tls "backend" "postgres" "secrets" $secrets) | nindent 2 }}

rabbitmq:
  uri: |-
    ${file:{{ $secrets }}/rabbitmq/uri}
  {{- include "profile-store.tls" (dict "tls" $c.rabbitmq.tls "backend" "rabbitmq" "secrets" $secrets) | nindent 2 }}
{{- end }}

{{/*
A backend's tls block: (dict "tls" values "backend" name "secrets" mountPath). The CA is the file the pods mount from
tls.ca (profile-store.secretSources, at profile-store.caPath); without one, the JVM's trust store.
*/}}
{{- define "profile-store.tls" -}}
tls:
  enabled: {{ .tls.enabled }}
  {{- if .tls.ca.secretName }}
  caFile: {{ printf "%s/%s" .secrets (include "profile-store.caPath" .backend) | quote }}
  {{- end }}
  verifyHostname: {{ .tls.verifyHostname }}
{{- end }}

{{/*
The same YAML with another PostgreSQL pool size: (dict "root" $ "maxPoolSize" n), and "migrate" true for the migrate
Job's. The indexer (its health check) and the one-off commands (migrate, the CronJobs) need a few connections, and
every pool counts against the server's max_connections (templates/connection-budget.yaml); the service has one pool
size, so each gets a ConfigMap of its own.
*/}}
{{- define "profile-store.configWithPool" -}}
{{- $values := deepCopy .root.Values -}}
{{- $_ := set $values.config.postgres "maxPoolSize" .maxPoolSize -}}
{{- include "profile-store.config" (dict "Values" $values "migrate" .migrate) }}
{{- end }}

{{/*
One connector of the server: (dict "root" $ "port" n). With tls.enabled, Dropwizard's https connector with the PKCS12
key store the pods mount (profile-store.secretSources, tls/), its password read from its file like every secret;
TLS 1.3 and 1.2 only. Otherwise plain http.
*/}}
{{- define "profile-store.connector" -}}
{{- $secrets := .root.Values.secrets.mountPath -}}
{{- if .root.Values.tls.enabled -}}
- type: https
  port: {{ .port }}
  keyStoreType: PKCS12
  keyStorePath: {{ printf "%s/tls/keystore.p12" $secrets | quote }}
  keyStorePassword: |-
    ${file:{{ $secrets }}/tls/keystore-password}
  supportedProtocols: [TLSv1.3, TLSv1.2]
{{- else -}}
- type: http
  port: {{ .port }}
{{- end }}
{{- end }}
