{{/* The release's resources are named after it: one release per church (e.g. "grace"). */}}
{{- define "flock.fullname" -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}

{{- define "flock.labels" -}}
app.kubernetes.io/name: flock-church
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/part-of: flock
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* Selector labels of one component: (dict "root" $ "component" "gateway"). */}}
{{- define "flock.selectorLabels" -}}
app.kubernetes.io/name: flock-church
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "flock.hosts" -}}
{{- if not .Values.hosts -}}
{{- fail "hosts: give the church's host names, e.g. --set hosts={grace.example.org} (the first is its public address)." -}}
{{- end -}}
{{- range .Values.hosts -}}
{{- if not (regexMatch "^([a-z0-9]([-a-z0-9]*[a-z0-9])?\\.)+[a-z]([-a-z0-9]*[a-z0-9])?$" .) -}}
{{- fail (printf "hosts: %q is not a host name (lowercase letters, digits, hyphens and dots, e.g. grace.example.org)." .) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "flock.publicUrl" -}}
{{- include "flock.hosts" . -}}
{{- .Values.publicUrl | default (printf "https://%s" (first .Values.hosts)) | trimSuffix "/" -}}
{{- end -}}

{{- define "flock.superuserEmail" -}}
{{- include "flock.hosts" . -}}
{{- .Values.pocketbase.superuserEmail | default (printf "system@%s" (first .Values.hosts)) -}}
{{- end -}}

{{/* The church's Secret: the existing one, or the one this chart creates from secrets.values. */}}
{{- define "flock.secretName" -}}
{{- if .Values.secrets.existingSecret -}}
{{- .Values.secrets.existingSecret -}}
{{- else if .Values.secrets.values -}}
{{- printf "%s-secrets" (include "flock.fullname" .) -}}
{{- else -}}
{{- fail "secrets.existingSecret: name the Secret holding the church's secrets (flock-host creates it), or give secrets.values to try the chart out." -}}
{{- end -}}
{{- end -}}

{{- define "flock.s3SecretName" -}}
{{- .Values.s3.existingSecret | default (include "flock.secretName" .) -}}
{{- end -}}

{{- define "flock.pocketbaseUrl" -}}
{{- printf "http://%s-pocketbase:8090" (include "flock.fullname" .) -}}
{{- end -}}

{{- define "flock.gatewayImage" -}}
{{- printf "%s:%s" .Values.gateway.image.repository (.Values.gateway.image.tag | default .Chart.AppVersion) -}}
{{- end -}}

{{/* The S3 connection is needed by Litestream and by files in S3. */}}
{{- define "flock.s3Required" -}}
{{- if or .Values.litestream.enabled .Values.s3.files -}}
{{- range $name := list "endpoint" "bucket" "region" -}}
{{- if not (index $.Values.s3 $name) -}}
{{- fail (printf "s3.%s is required with litestream.enabled or s3.files (or turn both off)." $name) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Redis for shared rate limits: required with more than one gateway replica. */}}
{{- define "flock.redisEnabled" -}}
{{- if or .Values.redis.url .Values.redis.existingSecret .Values.redis.enabled -}}true{{- end -}}
{{- end -}}

{{- define "flock.redisCheck" -}}
{{- if and (gt (int .Values.gateway.replicas) 1) (not (include "flock.redisEnabled" .)) -}}
{{- fail "gateway.replicas > 1 needs Redis for shared rate limits: set redis.url, redis.existingSecret or redis.enabled=true." -}}
{{- end -}}
{{- end -}}

{{/* Pod and container security: no root, no privilege escalation, no capabilities (Pod Security "restricted"). */}}
{{- define "flock.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .uid }}
runAsGroup: {{ .uid }}
fsGroup: {{ .uid }}
fsGroupChangePolicy: OnRootMismatch
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "flock.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
capabilities:
  drop: [ALL]
{{- end -}}

{{/* Litestream's configuration for the replica folder `path`: (dict "root" $ "path" "litestream"). */}}
{{- define "flock.litestreamConfig" -}}
{{- $ls := .root.Values.litestream -}}
{{- $s3 := .root.Values.s3 -}}
{{- $databases := list "data.db" -}}
{{- if $ls.replicateAuxiliary }}{{ $databases = append $databases "auxiliary.db" }}{{ end -}}
dbs:
{{- range $databases }}
  - path: /pb/pb_data/{{ . }}
    replicas:
      - type: s3
        bucket: {{ $ls.bucket | default $s3.bucket | quote }}
        path: {{ printf "%s/%s" ($.path | trimSuffix "/") . | quote }}
        endpoint: {{ $s3.endpoint | quote }}
        region: {{ $s3.region | quote }}
        force-path-style: {{ $s3.forcePathStyle }}
        sync-interval: {{ $ls.syncInterval | quote }}
        retention: {{ $ls.retention | quote }}
{{- end }}
{{- end -}}

{{/* Litestream's access key pair, from the S3 Secret. */}}
{{- define "flock.litestreamCredentials" -}}
- name: LITESTREAM_ACCESS_KEY_ID
  valueFrom:
    secretKeyRef: { name: {{ include "flock.s3SecretName" . }}, key: {{ .Values.s3.accessKeyKey }} }
- name: LITESTREAM_SECRET_ACCESS_KEY
  valueFrom:
    secretKeyRef: { name: {{ include "flock.s3SecretName" . }}, key: {{ .Values.s3.secretKeyKey }} }
{{- end -}}
